"""Reads for the gang pages: each owns its joins, so a page costs the same few queries for 1 or 30 fighters.

:func:`gang_roster` is what the gang page and the print page show (a paper roster): every
fighter's stat line, weapons with profiles, wargear, skills, injuries and value, the Stash, the
gang rating and the composition problems. :func:`gang_territories` is the hook the campaigns app
fills with the territories a gang holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q, Sum, prefetch_related_objects
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404
from django.utils.functional import SimpleLazyObject, empty

from content.models import Edition, EquipmentKind, FighterType, HouseKind
from content.versioning import content_version_subquery
from gangs.models import ON_ROSTER, Fighter, FighterSkill, Gang, LedgerEntry, Purchase
from gangs.services import classic_advances_due, composition_problems
from gangs.stats import StatValue, stat_line
from rulebook import gang_rules


def _purchases() -> Prefetch:
    return Prefetch(
        "purchases", queryset=Purchase.objects.select_related("equipment").prefetch_related("equipment__profiles")
    )


def fighters_queryset():
    return (
        Fighter.objects.select_related("fighter_type")
        .annotate(advancement_value=Coalesce(Sum("advancements__value"), 0), advancement_count=Count("advancements"))
        .prefetch_related(
            "stat_changes", "injuries", Prefetch("skills", queryset=FighterSkill.objects.select_related("skill__table"))
        )
    )


def _roster_prefetches() -> tuple:
    return Prefetch("fighters", queryset=fighters_queryset()), _purchases()


def gang_queryset():
    """A gang with its house list and the content's version; its roster is loaded by :func:`lazy_roster` only
    when a page renders a fragment that is not cached (gangs.cache)."""
    capped = Q(fighters__status__in=ON_ROSTER, fighters__fighter_type__category__in=gang_rules.REPUTATION_CAPPED)
    return (
        Gang.objects.select_related("house", "owner")
        .annotate(content_version=content_version_subquery(), hangers_on_held=Count("fighters", filter=capped))
        .prefetch_related("house__fighter_types")
    )


def let_go_notice(gang: Gang) -> dict | None:
    """What the gang page says when Reputation has fallen below the Hangers-on and Brutes held: the cap, how
    many must go and who may (one query, only then). ``gang`` comes from :func:`gang_queryset`."""
    must = gang_rules.hangers_on_excess(gang.reputation, gang.hangers_on_held)
    if not must:
        return None
    held = gang.fighters.filter(status__in=ON_ROSTER, fighter_type__category__in=gang_rules.REPUTATION_CAPPED)
    return {
        "cap": gang_rules.hangers_on_cap(gang.reputation),
        "must": must,
        "held": list(held.select_related("fighter_type").order_by("order", "pk")),
    }


def lazy_roster(gang: Gang) -> SimpleLazyObject:
    """:func:`gang_roster` of ``gang``, loaded (fighters, purchases, profiles...) on first use: a page whose
    roster fragments come from the cache never builds it."""

    def load() -> GangRoster:
        prefetch_related_objects([gang], *_roster_prefetches())
        return gang_roster(gang)

    return SimpleLazyObject(load)


def stash_items(gang: Gang, roster: SimpleLazyObject) -> SimpleLazyObject:
    """What the Stash holds, for the part of the gang page drawn for each viewer: the roster's list when the page
    has built the roster already (a render the cache missed), else one query of its own."""

    def load() -> list[Purchase]:
        if roster._wrapped is not empty:
            return roster.stash_items
        return list(gang.purchases.filter(fighter__isnull=True).select_related("equipment").order_by("pk"))

    return SimpleLazyObject(load)


@dataclass
class FighterRow:
    fighter: Fighter
    stats: list[StatValue]
    weapons: list[Purchase] = field(default_factory=list)
    wargear: list[Purchase] = field(default_factory=list)
    value: int = 0
    advances_due: int = 0

    @property
    def on_roster(self) -> bool:
        return self.fighter.status in ON_ROSTER


@dataclass
class GangRoster:
    """``fighters`` is the roster proper; ``hired_guns`` are those hired for a coming battle (not on the
    roster, but counted in the rating while hired, as the 2023 Core Rulebook says)."""

    gang: Gang
    fighters: list[FighterRow]
    stash_items: list[Purchase]
    rating: int
    problems: list[str]
    hired_guns: list[FighterRow] = field(default_factory=list)

    @property
    def active_fighters(self) -> list[FighterRow]:
        return [row for row in self.fighters if row.on_roster]

    @property
    def card_rows(self) -> list[FighterRow]:
        """Fighter cards: the roster and the Hired Guns, who are off the roster but play from a card."""
        return [*self.active_fighters, *self.hired_guns]


def fighter_row(gang: Gang, fighter: Fighter, purchases: list[Purchase]) -> FighterRow:
    """A fighter as the roster shows them; ``fighter`` comes from :func:`fighters_queryset`."""
    row = FighterRow(fighter, stat_line(fighter))
    for purchase in purchases:
        (row.weapons if purchase.equipment.kind == EquipmentKind.WEAPON else row.wargear).append(purchase)
    rated = gang_rules.RatedFighter(
        cost=fighter.cost,
        equipment=sum(p.price for p in purchases),
        experience=fighter.experience,
        advancements=fighter.advancement_value,
        on_roster=row.on_roster,
    )
    row.value = gang_rules.fighter_value(gang.edition, rated)
    if gang.edition == Edition.CLASSIC:
        row.advances_due = classic_advances_due(fighter, fighter.advancement_count)
    return row


def gang_roster(gang: Gang) -> GangRoster:
    """The roster of a gang whose fighters and purchases are prefetched (:func:`lazy_roster`)."""
    by_fighter: dict[int | None, list[Purchase]] = {}
    for purchase in gang.purchases.all():
        by_fighter.setdefault(purchase.fighter_id, []).append(purchase)
    rows = [fighter_row(gang, f, by_fighter.get(f.pk, [])) for f in gang.fighters.all()]
    rating = sum(row.value for row in rows if row.on_roster)
    hired = [row for row in rows if row.fighter.is_hired_gun]
    roster = [row for row in rows if not row.fighter.is_hired_gun]
    return GangRoster(
        gang, roster, by_fighter.get(None, []), rating, composition_problems(gang), [r for r in hired if r.on_roster]
    )


def gang_additions(gang: Gang) -> dict[str, list[FighterType]]:
    """The Hangers-on and Brutes (``roster``) and Hired Guns (``hired``) this gang's house may recruit,
    at the house's own price (one query)."""
    types = FighterType.objects.active().filter(house__kind=HouseKind.ADDITIONS, edition=gang.edition)
    found: dict[str, list[FighterType]] = {"roster": [], "hired": []}
    for t in types.select_related("house").order_by("category", "order", "name"):
        if t.recruitable_by(gang.house):
            t.price = t.cost_for(gang.house)
            found["hired" if t.category == gang_rules.HIRED_GUN else "roster"].append(t)
    return found


def coming_battles(gang: Gang) -> list:
    """The gang's campaign battles still to be reported: what a Hired Gun can be hired for (one query)."""
    from campaigns.models import Battle, BattleStatus  # campaigns builds on gangs

    return list(
        Battle.objects.filter(Q(attacker=gang) | Q(defender=gang), status=BattleStatus.SCHEDULED)
        .select_related("attacker", "defender")
        .order_by("created_at", "pk")
    )


def gang_territories(gang: Gang) -> list:
    """Territories the gang holds in its campaign, for the gang page (one query; see campaigns.selectors)."""
    from campaigns.selectors import gang_territories as held_territories  # campaigns builds on gangs

    return held_territories(gang)


def gang_history(gang: Gang, limit: int | None = None) -> list[LedgerEntry]:
    """The ledger, newest first, with who did it and for which fighter."""
    entries = gang.ledger.select_related("actor", "fighter").order_by("-created_at", "-pk")
    return list(entries[:limit] if limit else entries)


def fighter_detail(gang: Gang, pk: int) -> tuple[FighterRow, list]:
    """One fighter with advancements (and what each changed) and every purchase; 404 when not in ``gang``."""
    fighters = fighters_queryset().prefetch_related("advancements", _purchases())
    fighter = get_object_or_404(fighters, gang=gang, pk=pk)
    fighter.gang = gang
    return fighter_row(gang, fighter, list(fighter.purchases.all())), list(fighter.advancements.all())


def gangs_owned_by(user) -> list[Gang]:
    return list(
        Gang.objects.filter(owner=user)
        .select_related("house")
        .annotate(fighter_count=Count("fighters"))
        .order_by("name")
    )
