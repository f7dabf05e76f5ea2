"""Reads for the public reference pages. Each selector owns its joins, so a page costs the same
few queries however long a house list is."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404

from content.models import (
    Edition,
    Equipment,
    EquipmentCategory,
    FighterType,
    FighterTypeEquipment,
    House,
    Skill,
    SkillAccess,
    SkillTable,
    Territory,
)

CATEGORY_ORDER = list(EquipmentCategory.values)


@dataclass(frozen=True)
class EquipmentRow:
    """One line of a house's equipment list: the item and its price for each fighter type (None: not on its list)."""

    equipment: Equipment
    prices: list[int | None]


def editions_with_houses() -> list[tuple[str, str, list[House]]]:
    """(edition, label, active houses) for every edition, in the order the choices give."""
    houses = list(House.objects.active().order_by("name"))
    return [(value, label, [h for h in houses if h.edition == value]) for value, label in Edition.choices]


def house_for_reference(*, edition: str, slug: str) -> House:
    """The house with its active fighter types, their skill access and equipment lists, prefetched."""
    fighter_types = FighterType.objects.active().order_by("order", "name")
    fighter_types = fighter_types.prefetch_related(
        Prefetch("skill_access", queryset=SkillAccess.objects.select_related("table").order_by("table__order")),
    )
    houses = House.objects.active().prefetch_related(Prefetch("fighter_types", queryset=fighter_types))
    return get_object_or_404(houses, edition=edition, slug=slug)


def house_equipment_rows(house: House) -> list[EquipmentRow]:
    """The house's equipment lists as one table: an item per row, a price per fighter type (one query)."""
    fighter_types = list(house.fighter_types.all())
    column = {fighter_type.pk: i for i, fighter_type in enumerate(fighter_types)}
    entries = (
        FighterTypeEquipment.objects.filter(fighter_type__in=fighter_types, equipment__is_active=True)
        .select_related("equipment")
        .order_by("equipment__name")
    )
    rows: dict[int, EquipmentRow] = {}
    for entry in entries:
        row = rows.setdefault(entry.equipment_id, EquipmentRow(entry.equipment, [None] * len(fighter_types)))
        row.prices[column[entry.fighter_type_id]] = entry.cost
    return sorted(rows.values(), key=lambda r: (CATEGORY_ORDER.index(r.equipment.category), r.equipment.name))


def equipment_for_edition(*, edition: str) -> list[Equipment]:
    if edition not in Edition.values:
        raise Http404("No such edition")
    items = Equipment.objects.active().filter(edition=edition)
    return sorted(items, key=lambda item: (CATEGORY_ORDER.index(item.category), item.name))


def equipment_for_reference(*, edition: str, slug: str) -> Equipment:
    """An item with every profile, and the house lists that carry it (with their prices)."""
    lists = FighterTypeEquipment.objects.filter(fighter_type__is_active=True).select_related("fighter_type__house")
    lists = lists.order_by("fighter_type__house__name", "fighter_type__order")
    items = Equipment.objects.active().prefetch_related("profiles", Prefetch("fighter_type_lists", queryset=lists))
    return get_object_or_404(items, edition=edition, slug=slug)


def skill_tables_for_edition(*, edition: str) -> list[SkillTable]:
    """Skill tables with their skills; the general tables first, then the house tables."""
    return list(
        SkillTable.objects.active()
        .filter(edition=edition)
        .select_related("house")
        .prefetch_related(Prefetch("skills", queryset=Skill.objects.active().order_by("order")))
        .order_by("order", "name")
    )


def territories_for_edition(*, edition: str) -> list[Territory]:
    return list(Territory.objects.active().filter(edition=edition).order_by("-is_home_settlement", "roll", "name"))
