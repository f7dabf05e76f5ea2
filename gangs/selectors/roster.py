"""The roster as the gang page and the print page show it (a paper roster), each read owning its joins so that it
costs the same few queries for 1 or 30 fighters.

:func:`gang_roster` is every fighter's stat line, weapons with profiles, wargear, skills, injuries and value
(:class:`FighterRow`), the Stash, the gang rating and the composition problems; :func:`lazy_roster` builds it only
when a page draws a fragment the cache does not hold. :func:`fighter_detail` is one fighter's row for their page;
:func:`gangs_owned_by` rates a player's gangs without building their rosters; :func:`gang_additions` is what the
house may recruit.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.db.models import Count, Prefetch, Sum, prefetch_related_objects
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404
from django.utils.functional import SimpleLazyObject

from content.models import Edition, EquipmentKind, FighterCategory, FighterType, HouseKind
from content.printed import Glossary, PrintedProfile, Term, equipment_rules, glossary_for, printed_weapon
from gangs.models import ON_ROSTER, STATS_BY_EDITION, Fighter, FighterSkill, FighterStatus, Gang, LedgerEntry, Purchase
from gangs.selectors.composition import composition_problems
from gangs.stats import StatValue, stat_line
from rulebook import gang_rules
from rulebook.classic.campaign.experience import ADVANCE_THRESHOLDS, advances_gained

# Boxes to tick for experience gained at the table, on a card and on the roster sheet.
XP_BOXES = 20  # the card draws them in a grid of 20 (gangs/static/gangs/print.css)


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


def lazy_roster(gang: Gang) -> SimpleLazyObject:
    """:func:`gang_roster` of ``gang`` (from :func:`gangs.selectors.gang_queryset`), loaded (fighters, purchases,
    profiles...) on first use: a page whose roster fragments come from the cache never builds it."""

    def load() -> GangRoster:
        prefetch_related_objects([gang], *_roster_prefetches())
        return gang_roster(gang)

    return SimpleLazyObject(load)


@dataclass(frozen=True)
class Carried:
    """An item a fighter (or the Stash) holds, as the roster prints it: a weapon's profiles and the rules its
    profiles share, or the rules of armour and wargear."""

    purchase: Purchase
    profiles: list[PrintedProfile] = field(default_factory=list)
    rules: list[Term] = field(default_factory=list)
    # Shown beside the name: special ammunition whose weapon the fighter no longer carries.
    note: str = ""

    @property
    def equipment(self):
        return self.purchase.equipment

    @property
    def name(self) -> str:
        return self.purchase.equipment.name


@dataclass(frozen=True)
class BeastStat:
    """One characteristic of an Exotic Beast's card, as the stat line template reads it ("-" where none)."""

    code: str
    shown: str
    changed: bool = False
    changes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BeastCard:
    """An Exotic Beast its owner bought (2023 Core Rulebook, Exotic Beasts: wargear on the owner's card, with a
    fighter card of its own): shown under its owner with its stat line, weapons and rules."""

    purchase: Purchase
    stats: list[BeastStat]
    weapons: list[str]
    rules: list[Term]

    @property
    def name(self) -> str:
        return self.purchase.equipment.name


TARGET_CODES = {"WS", "BS", "I", "Ld", "Cl", "Wil", "Int"}


def beast_card(purchase: Purchase, glossary: Glossary) -> BeastCard:
    card = purchase.equipment.beast
    # In card order, whatever order the database keeps the keys in (PostgreSQL's jsonb sorts them).
    values = [(code, card["stats"].get(code)) for code in STATS_BY_EDITION[purchase.equipment.edition]]
    stats = [
        BeastStat(code, "-" if v is None else f'{v}"' if code == "M" else f"{v}+" if code in TARGET_CODES else str(v))
        for code, v in values
    ]
    return BeastCard(purchase, stats, list(card.get("weapons", [])), glossary.terms(card.get("rules", [])))


@dataclass
class FighterRow:
    fighter: Fighter
    stats: list[StatValue]
    weapons: list[Carried] = field(default_factory=list)
    wargear: list[Carried] = field(default_factory=list)
    beasts: list[BeastCard] = field(default_factory=list)
    rules: list[Term] = field(default_factory=list)
    value: int = 0
    advances_due: int = 0
    # The next XP_BOXES experience points, each True where reaching it earns a classic advance roll.
    xp_boxes: list[bool] = field(default_factory=list)
    # What an import brought that no recorded history explains (import_flags), shown on the card.
    flags: list[str] = field(default_factory=list)
    # Classic: every fighter carries a knife at the very least (1995 rulebook, hand-to-hand combat), free;
    # True when the fighter has not bought one, so the card shows it.
    free_knife: bool = False

    @property
    def on_roster(self) -> bool:
        return self.fighter.status in ON_ROSTER

    @property
    def skills(self) -> list[Term]:
        return [Term(fs.skill.name, fs.skill.summary) for fs in self.fighter.skills.all()]

    @property
    def explained(self) -> list[Term]:
        """Each rule on the fighter's card once, with a summary: its own rules, skills, then its gear's."""
        return _distinct([*self.rules, *self.skills, *self._carried_terms()])

    @property
    def rules_explained(self) -> list[Term]:
        """As :attr:`explained` without the skills, for the fighter page, which lists skills with theirs."""
        return _distinct([*self.rules, *self._carried_terms()])

    def _carried_terms(self) -> list[Term]:
        terms = [t for item in self.weapons for t in [*item.rules, *(t for p in item.profiles for t in p.rules)]]
        return terms + [t for item in self.wargear for t in item.rules]


def _distinct(terms: list[Term]) -> list[Term]:
    """The terms that have a summary, each name once, in order."""
    by_name: dict[str, Term] = {}
    for term in terms:
        if term.summary:
            by_name.setdefault(term.name, term)
    return list(by_name.values())


@dataclass
class GangRoster:
    """``fighters`` is the roster proper; ``hired_guns`` are those hired for a coming battle (not on the
    roster, but counted in the rating while hired, as the 2023 Core Rulebook says)."""

    gang: Gang
    fighters: list[FighterRow]
    stash_items: list[Carried]
    rating: int
    problems: list[str]
    hired_guns: list[FighterRow] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)

    @property
    def all_flags(self) -> list[str]:
        """The gang's import flags and every fighter's, for the box at the top of the gang page."""
        return [*self.flags, *(flag for row in self.fighters for flag in row.flags)]

    @property
    def active_fighters(self) -> list[FighterRow]:
        return [row for row in self.fighters if row.on_roster]

    @property
    def card_rows(self) -> list[FighterRow]:
        """Fighter cards: the roster and the Hired Guns, who are off the roster but play from a card."""
        return [*self.active_fighters, *self.hired_guns]

    @property
    def gone_fighters(self) -> list[FighterRow]:
        """Dead and retired fighters, listed after the roster (not those taken back at founding)."""
        return [row for row in self.fighters if not row.on_roster and row.fighter.status != FighterStatus.REMOVED]


def carried(purchase: Purchase, glossary: Glossary) -> Carried:
    equipment = purchase.equipment
    if equipment.kind == EquipmentKind.WEAPON:
        weapon = printed_weapon(equipment, glossary)
        return Carried(purchase, profiles=list(weapon.profiles), rules=list(weapon.rules))
    return Carried(purchase, rules=equipment_rules(equipment, glossary))


CLASSIC_KNIFE = "knife"


def ammunition_under_weapons(weapons: list[Carried]) -> list[Carried]:
    """The weapons in their order, each special ammunition right under the first weapon it fits; ammunition whose
    weapon the fighter no longer carries comes last, saying so (it is not fired: battles.roster leaves it out)."""
    loads = [item for item in weapons if item.equipment.fits]
    ordered, unloaded = [], []
    for item in weapons:
        if item.equipment.fits:
            continue
        ordered.append(item)
        for ammo in [a for a in loads if item.equipment.slug in a.equipment.fits]:
            ordered.append(ammo)
            loads.remove(ammo)
    for ammo in loads:
        unloaded.append(replace(ammo, note="no weapon it fits: not fired"))
    return ordered + unloaded


def classic_advances_due(fighter: Fighter, taken: int) -> int:
    """Advance rolls earned by thresholds passed since hiring, less the ``taken`` advances."""
    top = max(fighter.experience, fighter.starting_experience)
    return max(0, advances_gained(fighter.starting_experience, top) - taken)


def fighter_row(gang: Gang, fighter: Fighter, purchases: list[Purchase], glossary: Glossary) -> FighterRow:
    """A fighter as the roster shows them; ``fighter`` comes from :func:`fighters_queryset`."""
    row = FighterRow(fighter, stat_line(fighter), rules=glossary.terms(fighter.fighter_type.special_rules))
    for purchase in purchases:
        item = carried(purchase, glossary)
        (row.weapons if item.profiles or purchase.equipment.kind == EquipmentKind.WEAPON else row.wargear).append(item)
        if purchase.equipment.beast:
            row.beasts.append(beast_card(purchase, glossary))
    row.weapons = ammunition_under_weapons(row.weapons)
    rated = gang_rules.RatedFighter(
        cost=fighter.cost,
        equipment=sum(p.price for p in purchases),
        experience=fighter.experience,
        advancements=fighter.advancement_value,
        on_roster=row.on_roster,
    )
    row.value = gang_rules.fighter_value(gang.edition, rated)
    if gang.edition == Edition.CLASSIC:
        row.free_knife = not any(item.equipment.slug == CLASSIC_KNIFE for item in row.weapons)
    thresholds = set(ADVANCE_THRESHOLDS) if gang.edition == Edition.CLASSIC else set()
    row.xp_boxes = [fighter.experience + n in thresholds for n in range(1, XP_BOXES + 1)]
    if gang.edition == Edition.CLASSIC:
        row.advances_due = classic_advances_due(fighter, fighter.advancement_count)
    return row


def gang_roster(gang: Gang) -> GangRoster:
    """The roster of a gang from :func:`gangs.selectors.gang_queryset` whose fighters and purchases are
    prefetched (:func:`lazy_roster`)."""
    by_fighter: dict[int | None, list[Purchase]] = {}
    for purchase in gang.purchases.all():
        by_fighter.setdefault(purchase.fighter_id, []).append(purchase)
    glossary = glossary_for(gang.edition, content_version=gang.content_version or 0)
    rows = [fighter_row(gang, f, by_fighter.get(f.pk, []), glossary) for f in gang.fighters.all()]
    flags = import_flags(gang) if gang.flagged else {}
    for row in rows:
        row.flags = flags.get(row.fighter.pk, [])
    # The fighters on the roster first, in hiring order; the dead and retired after them.
    rows.sort(key=lambda row: not row.on_roster)
    rating = sum(row.value for row in rows if row.on_roster)
    hired = [row for row in rows if row.fighter.is_hired_gun]
    roster = [row for row in rows if not row.fighter.is_hired_gun]
    stash = [carried(purchase, glossary) for purchase in by_fighter.get(None, [])]
    on_roster = [r for r in hired if r.on_roster]
    problems = composition_problems(gang, founding=not gang.fought, battled=gang.battled)
    return GangRoster(gang, roster, stash, rating, problems, on_roster, flags.get(None, []))


def import_flags(gang: Gang) -> dict[int | None, list[str]]:
    """What the gang's imports brought that no recorded history explains, by fighter (``None``: the gang): the
    ``flags`` of the import's ledger entries (gangs.import_rules.roster_flags), for the gang page, the cards and
    an arbitrator deciding whether the gang may join a campaign. One query."""
    found: dict[int | None, list[str]] = {}
    entries = LedgerEntry.objects.filter(gang=gang, data__has_key="flags").order_by("pk")
    for fighter_id, data in entries.values_list("fighter_id", "data"):
        if data["flags"]:
            found.setdefault(fighter_id, []).extend(data["flags"])
    return found


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


def fighter_detail(gang: Gang, pk: int, *, content_version: int | None = None) -> tuple[FighterRow, list]:
    """One fighter with advancements (and what each changed) and every purchase; 404 when not in ``gang``.
    ``content_version``: the content's version when the caller has read it (:func:`gangs.selectors.gang_queryset`);
    else the rules' summaries ask it (content.printed.glossary_for)."""
    fighters = fighters_queryset().prefetch_related("advancements", _purchases())
    fighter = get_object_or_404(fighters, gang=gang, pk=pk)
    fighter.gang = gang
    glossary = glossary_for(gang.edition, content_version=content_version)
    row = fighter_row(gang, fighter, list(fighter.purchases.all()), glossary)
    return row, list(fighter.advancements.all())


def gangs_owned_by(user) -> list[Gang]:
    """The user's gangs for "My gangs", each with ``rating`` and ``fighter_count`` (fighters on the roster).

    Three queries however many gangs and fighters: the gangs, their fighters with the value of their
    advancements, and what each fighter's equipment cost (apart, so the two sums do not multiply).
    """
    gangs = list(Gang.objects.filter(owner=user).select_related("house").order_by("name"))
    on_roster = Fighter.objects.filter(gang__in=gangs, status__in=ON_ROSTER)
    fighters = on_roster.annotate(advancement_value=Coalesce(Sum("advancements__value"), 0)).values(
        "pk", "gang_id", "cost", "experience", "advancement_value", "fighter_type__category"
    )
    spent = dict(on_roster.annotate(total=Coalesce(Sum("purchases__price"), 0)).values_list("pk", "total"))
    by_gang: dict[int, list[gang_rules.RatedFighter]] = {}
    hired_guns: dict[int, int] = {}
    for f in fighters:
        # A Hired Gun counts in the rating while hired but is not on the roster (as on the gang page).
        hired_guns[f["gang_id"]] = hired_guns.get(f["gang_id"], 0) + (
            f["fighter_type__category"] == FighterCategory.HIRED_GUN
        )
        rated = gang_rules.RatedFighter(
            cost=f["cost"], equipment=spent[f["pk"]], experience=f["experience"], advancements=f["advancement_value"]
        )
        by_gang.setdefault(f["gang_id"], []).append(rated)
    for gang in gangs:
        rated = by_gang.get(gang.pk, [])
        gang.rating = gang_rules.gang_rating(gang.edition, rated)
        gang.fighter_count = len(rated) - hired_guns.get(gang.pk, 0)
    return gangs
