"""The public reference pages: anyone can read the house lists and the Armoury before buying."""

from django.http import Http404
from django.shortcuts import render

from content import selectors
from content.models import Edition
from content.printed import glossary_for, printed_weapon


def _edition_label(edition: str) -> str:
    if edition not in Edition.values:
        raise Http404("No such edition")
    return Edition(edition).label


def content_index(request):
    return render(request, "content/index.html", {"editions": selectors.editions_with_houses()})


def house_detail(request, edition: str, slug: str):
    house = selectors.house_for_reference(edition=edition, slug=slug)
    context = {
        "house": house,
        "edition_label": _edition_label(edition),
        "fighter_types": house.fighter_types.all(),
        "equipment_rows": selectors.house_equipment_rows(house),
    }
    return render(request, "content/house_detail.html", context)


def equipment_list(request, edition: str):
    context = {"edition": edition, "edition_label": _edition_label(edition)}
    context["items"] = selectors.equipment_for_edition(edition=edition)
    return render(request, "content/equipment_list.html", context)


def equipment_detail(request, edition: str, slug: str):
    item = selectors.equipment_for_reference(edition=edition, slug=slug)
    context = {"item": item, "edition_label": _edition_label(edition)}
    if item.profiles.all():
        context["weapons"] = [printed_weapon(item, glossary_for(edition))]
    context["house_lists"] = item.fighter_type_lists.all()
    return render(request, "content/equipment_detail.html", context)


def skill_list(request, edition: str):
    context = {"edition": edition, "edition_label": _edition_label(edition)}
    context["tables"] = selectors.skill_tables_for_edition(edition=edition)
    return render(request, "content/skill_list.html", context)


def territory_list(request, edition: str):
    context = {"edition": edition, "edition_label": _edition_label(edition)}
    context["territories"] = selectors.territories_for_edition(edition=edition)
    return render(request, "content/territory_list.html", context)
