/* Narrow a long <select> as the user types: for every <input class="select-filter" data-filters="ID">, keep only
   the options (and their groups) of select#ID whose text holds every typed word. Loaded as a file, never inline,
   so it works under the site's Content Security Policy; without it the box stays hidden and the list is whole. */
(function () {
  "use strict";
  var originals = new WeakMap();

  function reveal(root) {
    (root || document).querySelectorAll("input.select-filter[hidden]").forEach(function (box) { box.hidden = false; });
  }

  function narrow(box) {
    var select = document.getElementById(box.dataset.filters);
    if (!select) return;
    if (!originals.has(select)) originals.set(select, select.cloneNode(true));
    var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var chosen = select.value;
    var matches = function (option) {
      var text = option.textContent.toLowerCase();
      return words.every(function (word) { return text.indexOf(word) !== -1; });
    };
    var copy = originals.get(select).cloneNode(true);
    copy.querySelectorAll("option").forEach(function (option) {
      if (!matches(option) && option.value !== "") option.remove();
    });
    copy.querySelectorAll("optgroup").forEach(function (group) {
      if (!group.querySelector("option")) group.remove();
    });
    select.replaceChildren.apply(select, Array.prototype.slice.call(copy.childNodes));
    if (Array.prototype.some.call(select.options, function (o) { return o.value === chosen; })) select.value = chosen;
  }

  document.addEventListener("input", function (event) {
    if (event.target.matches && event.target.matches("input.select-filter")) narrow(event.target);
  });
  document.addEventListener("DOMContentLoaded", function () { reveal(document); });
  document.addEventListener("htmx:afterSwap", function (event) { reveal(event.target); });
})();
