/* The print page's Print button (a file, not an onclick attribute, so the Content Security Policy allows it). */
document.addEventListener("click", function (event) {
  if (event.target.closest && event.target.closest("[data-print]")) window.print();
});
