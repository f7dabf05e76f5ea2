"""Reads for the gang pages: each owns its joins, so a page costs the same few queries for 1 or 30 fighters.

:func:`gang_roster` is what the gang page and the print page show (a paper roster): every
fighter's stat line, weapons with profiles, wargear, skills, injuries and value, the Stash, the
gang rating and the composition problems. :func:`roster_page` is the gang page for one viewer: the gang, the
facts of its version (what it holds in its campaign among them, which the campaigns app answers through
:mod:`gangs.campaign_facts`) and what the viewer may do, as one :class:`RosterPage`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache

from django.core.cache import cache
from django.db.models import Count, Exists, OuterRef, Prefetch, Q, Subquery, Sum, prefetch_related_objects
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404
from django.utils.functional import SimpleLazyObject

from content.models import Edition, EquipmentKind, FighterCategory, FighterType, HouseKind
from content.printed import Glossary, PrintedProfile, Term, equipment_rules, glossary_for, printed_weapon
from content.versioning import content_version_subquery
from gangs.cache import FRAGMENT_SECONDS, fragment_key
from gangs.campaign_facts import campaign_facts
from gangs.ledger import from_battle, with_battle
from gangs.models import (
    ON_ROSTER,
    STATS_BY_EDITION,
    Fighter,
    FighterSkill,
    FighterStatus,
    Gang,
    LedgerEntry,
    Purchase,
)
from gangs.permissions import GangAccess, access_as, arbitrates_campaign, gang_for_view
from gangs.selectors.composition import composition_problems
from gangs.selectors.equipment import move_targets
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


def _founding_annotations() -> dict:
    """Whether a gang has fought (or was imported), fought here, and carries import flags: the founding rules
    (gang_founding, composition_problems) and the flags (import_flags) read them from the gang, so they cost a page
    no query of their own. Read in this module only, and passed on as arguments (RosterPage.founding, gang_roster).
    Every ledger entry and its battle link (written with it, gangs.ledger.ledger_record) moves the gang's version,
    so :func:`roster_facts` keeps them with the facts of that version."""
    entries = LedgerEntry.objects.filter(gang=OuterRef("pk"))
    return {
        "fought": Exists(entries.filter(from_battle() | Q(data__has_key="imported"))),
        "battled": Exists(entries.filter(from_battle())),  # the founding rules' breaches an import brought
        "flagged": Exists(entries.filter(data__has_key="flags")),
    }


def gang_queryset():
    """A gang with its house, the content's version and whether it fought (one query). Its roster is loaded by
    :func:`lazy_roster`, and its house list and its owner by what needs them, only when a page renders a fragment
    the cache does not hold (gangs.cache). :func:`roster_page` reads the gang without the ``Exists`` (they scan the
    ledger, and compiling them costs more than the rest of a warm page) and takes them from its version's facts."""
    return _versioned_with_house().annotate(**_founding_annotations())


def _versioned_with_house():
    """A gang with its house and the content's version, what :func:`gangs.cache.fragment_key` needs: a copy of
    the one built for the process (resolving the subquery costs a warm page as much as running it), as a class-based
    view's ``queryset`` is copied for each request. The kept one is never evaluated, so it never holds rows."""
    return _built_versioned_with_house().all()


@lru_cache(maxsize=1)
def _built_versioned_with_house():
    return Gang.objects.select_related("house").annotate(content_version=content_version_subquery())


def versioned_gangs():
    """Gangs with their house, owner and the content's version, what :func:`gangs.cache.fragment_key` needs (one
    query): for a page cached by the gang's version that reads nothing else :func:`gang_queryset` brings (the
    history: those ``Exists`` would scan a long ledger for nothing)."""
    return Gang.objects.select_related("house", "owner").annotate(content_version=content_version_subquery())


@dataclass(frozen=True)
class RosterFacts:
    """What the gang page's own (uncached) parts ask about one version of the gang: how many Hangers-on and
    Brutes it holds (the Reputation notice), whether the Stash holds items, the campaign it plays in (one at a
    time), the territories it holds there, its battles still to be reported (what a Hired Gun is hired for), and
    whether it fought, fought here and carries import flags (:func:`_founding_annotations`).
    Every row they are read from moves the gang's version (gangs.cache, campaigns.apps), so they are read once
    per version and kept beside its fragments."""

    hangers_on_held: int
    stash_holds_items: bool
    campaign_id: int | None
    fought: bool
    battled: bool
    flagged: bool
    territories: tuple = ()
    coming_battles: tuple = ()
    captives: tuple = ()


#: Moved whenever :class:`RosterFacts` gains or loses a field: a shared cache (Redis) outlives a deploy, and the
#: facts a release before it pickled would lack the new field. (2: whether the gang fought, with its version.)
FACTS_SHAPE = 2


def _facts_key(gang: Gang) -> str:
    return f"roster-facts-{FACTS_SHAPE}:" + ":".join(str(part) for part in fragment_key(gang))


def roster_facts(gang: Gang) -> RosterFacts:
    """:class:`RosterFacts` of ``gang`` (read with its version and the content's, as :func:`roster_page` reads it):
    from the cache, else one query (three for a gang in a campaign)."""
    key = _facts_key(gang)
    facts = cache.get(key)
    if facts is None:
        capped = Q(status__in=ON_ROSTER, fighter_type__category__in=gang_rules.REPUTATION_CAPPED)
        playing = campaign_facts().memberships(OuterRef("pk")).values("campaign_id")
        row = (
            Gang.objects.filter(pk=gang.pk)
            .annotate(
                held=Subquery(
                    Fighter.objects.filter(capped, gang=OuterRef("pk"))
                    .values("gang")
                    .annotate(n=Count("pk"))
                    .values("n")
                ),
                stash_held=Exists(Purchase.objects.filter(gang=OuterRef("pk"), fighter__isnull=True)),
                campaign=Subquery(playing[:1]),
                **_founding_annotations(),
            )
            .values("held", "stash_held", "campaign", "fought", "battled", "flagged")
            .get()
        )
        facts = RosterFacts(
            row["held"] or 0,
            row["stash_held"],
            row["campaign"],
            fought=row["fought"],
            battled=row["battled"],
            flagged=row["flagged"],
        )
        if facts.campaign_id is not None:
            facts = replace(
                facts,
                territories=tuple(campaign_facts().gang_territories(gang)),
                coming_battles=tuple(campaign_facts().coming_battles(gang)),
                captives=tuple(_captives(gang)),
            )
        cache.set(key, facts, FRAGMENT_SECONDS)
    return facts


@dataclass(frozen=True)
class RosterPage:
    """The gang page (and its print sheet) for one viewer, built by :func:`roster_page`: the gang (from
    :func:`gang_queryset`), the :class:`RosterFacts` of its version, and what the viewer may do. Views pass it to
    the template, and the functions below take it, instead of reading what a query happened to annotate."""

    gang: Gang
    facts: RosterFacts
    access: GangAccess

    @property
    def in_campaign(self) -> bool:
        return self.facts.campaign_id is not None

    @property
    def founding(self) -> bool:
        """:func:`gangs.selectors.gang_founding`, answered by the gang's own query (``fought``)."""
        return not self.gang.fought


def roster_page(user, pk: int) -> RosterPage:
    """The :class:`RosterPage` of gang ``pk`` for ``user`` (404 as :func:`gangs.permissions.gang_for_view`): one
    query for the gang, and, while its version is cached, none for its facts nor for whether the viewer
    arbitrates its campaign."""
    gang = gang_for_view(user, pk, _versioned_with_house())
    facts = roster_facts(gang)
    # As gang_queryset would have annotated them: what the roster and the fighter page read of the gang.
    gang.fought, gang.battled, gang.flagged = facts.fought, facts.battled, facts.flagged
    arbitrator = False
    if facts.campaign_id is not None and user.is_authenticated:
        # Who arbitrates the campaign moves the version of its gangs (campaigns.apps): kept per viewer.
        key = f"{_facts_key(gang)}:arbitrator:{user.pk}"
        arbitrates = cache.get(key)
        if arbitrates is None:
            arbitrates = arbitrates_campaign(user, facts.campaign_id)
            cache.set(key, arbitrates, FRAGMENT_SECONDS)
        arbitrator = arbitrates and gang.owner_id != user.pk  # never for one's own gang
    return RosterPage(gang, facts, access_as(user, gang, is_arbitrator=arbitrator))


def viewer_sees_campaign(user, page: RosterPage) -> bool:
    """Whether ``user`` may see what the campaign the gang plays in holds (its territories): anyone when it plays
    in none, else the campaign's rule (campaigns.permissions.visible_campaigns), which its owner, a player of the
    campaign, and its arbitrators pass without a query."""
    if not page.in_campaign or page.gang.owner_id == user.pk or page.access.is_arbitrator:
        return True
    return campaign_facts().can_see_campaign(user, page.facts.campaign_id)


def let_go_notice(page: RosterPage) -> dict | None:
    """What the gang page says when Reputation has fallen below the Hangers-on and Brutes held: the cap, how
    many must go and who may (one query, only then)."""
    gang = page.gang
    must = gang_rules.hangers_on_excess(gang.reputation, page.facts.hangers_on_held)
    if not must:
        return None
    held = gang.fighters.filter(status__in=ON_ROSTER, fighter_type__category__in=gang_rules.REPUTATION_CAPPED)
    return {
        "cap": gang_rules.hangers_on_cap(gang.reputation),
        "must": must,
        "held": list(held.select_related("fighter_type").order_by("order", "pk")),
    }


def lazy_roster(gang: Gang) -> SimpleLazyObject:
    """:func:`gang_roster` of ``gang`` (from :func:`gang_queryset`), loaded (fighters, purchases, profiles...) on
    first use: a page whose roster fragments come from the cache never builds it."""

    def load() -> GangRoster:
        prefetch_related_objects([gang], *_roster_prefetches())
        return gang_roster(gang)

    return SimpleLazyObject(load)


def stash_items(page: RosterPage) -> SimpleLazyObject:
    """What the Stash holds, for the part of the gang page drawn for each viewer, each item with the fighters it
    may be handed to (``move_to``: pairs of id and name, as :func:`gangs.selectors.move_targets` allows). Read once
    per version of the gang and of the content and kept beside its fragments (gangs.cache): no query while the
    cache holds it, and none when its :class:`RosterFacts` say the Stash is empty; else two (the items, the
    fighters)."""
    gang = page.gang

    def load() -> list[Purchase]:
        if not page.facts.stash_holds_items:
            return []
        key = f"roster-stash:{_facts_key(gang)}"
        items = cache.get(key)
        if items is None:
            # By gang id, not through gang.purchases: the related manager would tie each item to this gang object
            # (and whatever it holds) in the cached copy.
            items = list(
                Purchase.objects.filter(gang_id=gang.pk, fighter__isnull=True)
                .select_related("equipment")
                .order_by("pk")
            )
            with_move_to(gang, items)
            cache.set(key, items, FRAGMENT_SECONDS)
        return items

    return SimpleLazyObject(load)


def with_move_to(gang: Gang, purchases: list[Purchase]) -> None:
    """Give each purchase ``move_to``: the fighters (id, name) it may be handed to, as
    :func:`gangs.selectors.move_targets` allows (one query). Pairs, not rows: they are kept in the cache."""
    targets = move_targets(gang, purchases)
    for purchase in purchases:
        purchase.move_to = [(fighter.pk, fighter.name) for fighter in targets.get(purchase.pk, [])]


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
    """The roster of a gang from :func:`gang_queryset` whose fighters and purchases are prefetched
    (:func:`lazy_roster`)."""
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


def _captives(gang: Gang) -> list[Fighter]:
    held = Fighter.objects.filter(captured_by=gang, status=FighterStatus.CAPTURED).select_related("gang")
    return list(held.order_by("name", "pk"))


def _entries(queryset):
    """Entries newest first, with who did it, for which fighter, and ``undone`` (a reversing entry exists)."""
    reversed_by = LedgerEntry.objects.filter(reverses=OuterRef("pk"))
    return with_battle(
        queryset.select_related("actor", "fighter").annotate(undone=Exists(reversed_by)).order_by("-created_at", "-pk")
    )


HIDDEN_CAMPAIGN_ENTRY = "An entry of a campaign you do not see"


def hide_unseen_campaigns(entries: list[LedgerEntry], user, gang: Gang) -> list[LedgerEntry]:
    """The entries with the words of those about a campaign ``user`` may not see replaced (README, "Who sees
    what": such a campaign is a 404 to them, so its name, territories and pairings are too). The amounts stay,
    so the history still adds up to the totals; the gang's owner sees all of it. At most two queries, only
    when an entry is about a campaign: the battles' campaigns, and which of them ``user`` sees."""
    if gang.owner_id == user.pk:
        return entries
    by_battle = [e.battle_id for e in entries if e.battle_id and "campaign" not in (e.data or {})]
    if by_battle:
        campaign_of = campaign_facts().battle_campaigns(by_battle)
        for entry in entries:
            if entry.battle_id in campaign_of and "campaign" not in (entry.data or {}):
                entry.data = {**(entry.data or {}), "campaign": campaign_of[entry.battle_id]}
    about = {(e.data or {}).get("campaign") for e in entries} - {None}
    if not about:
        return entries
    seen = campaign_facts().visible_campaign_ids(user, about)
    for entry in entries:
        if (entry.data or {}).get("campaign") not in seen | {None}:
            entry.description, entry.reason, entry.dice = HIDDEN_CAMPAIGN_ENTRY, "", []
    return entries


def history_visibility(user, gang: Gang) -> tuple:
    """What :func:`hide_unseen_campaigns` decides for ``user`` on any page of ``gang``'s history, as a key for
    the page's cached fragment: ``("owner",)`` for the gang's owner, else the campaigns its ledger names that
    ``user`` may see. The campaigns the ledger names are kept per version of the gang (a new entry moves it);
    which of them the viewer sees is asked on every view (one query, only when the ledger names any), since
    joining or leaving a campaign moves no version of this gang."""
    if gang.owner_id == user.pk:
        return ("owner",)
    key = f"history-campaigns:{_facts_key(gang)}"
    named = cache.get(key)
    if named is None:
        entries = gang.ledger.order_by()  # no ordering column in the DISTINCT
        named = set(entries.filter(data__has_key="campaign").values_list("data__campaign", flat=True).distinct())
        battles = set(with_battle(entries.filter(from_battle())).values_list("battle_id", flat=True).distinct())
        named |= set(campaign_facts().battle_campaigns(battles).values()) if battles else set()
        named = frozenset(named - {None})
        cache.set(key, named, FRAGMENT_SECONDS)
    return ("sees", *sorted(campaign_facts().visible_campaign_ids(user, named))) if named else ("sees",)


def gang_history(gang: Gang):
    """The ledger, newest first, with who did it and for which fighter: a queryset, for the history page to
    read one page of (:func:`core.pagination.page_of`)."""
    return _entries(gang.ledger.all())


FIGHTER_HISTORY_LENGTH = 40


def fighter_history(fighter: Fighter, limit: int = FIGHTER_HISTORY_LENGTH) -> list[LedgerEntry]:
    """The fighter's latest entries, newest first (one query); the gang's history page has them all."""
    return list(_entries(LedgerEntry.objects.filter(fighter=fighter))[:limit])


def fighter_detail(gang: Gang, pk: int, *, content_version: int | None = None) -> tuple[FighterRow, list]:
    """One fighter with advancements (and what each changed) and every purchase; 404 when not in ``gang``.
    ``content_version``: the content's version when the caller has read it (:func:`gang_queryset`); else the
    rules' summaries ask it (content.printed.glossary_for)."""
    fighters = fighters_queryset().prefetch_related("advancements", _purchases())
    fighter = get_object_or_404(fighters, gang=gang, pk=pk)
    fighter.gang = gang
    glossary = glossary_for(gang.edition, content_version=content_version)
    row = fighter_row(gang, fighter, list(fighter.purchases.all()), glossary)
    return row, list(fighter.advancements.all())


@dataclass(frozen=True)
class FighterPage:
    """A fighter's page as every viewer sees it (:func:`fighter_page`), and whether the gang is still being
    founded (:func:`gangs.selectors.gang_founding`: a hire may still be taken back), read with the gang."""

    row: FighterRow
    advancements: list
    history: list[LedgerEntry]
    founding: bool


def fighter_page(gang: Gang, pk: int) -> FighterPage:
    """:func:`fighter_detail` and :func:`fighter_history` of one fighter, each item it carries with where it may
    be handed (``move_to``, as :func:`stash_items`), read once per version of the gang and of the content and kept
    in the cache (gangs.cache): what every viewer sees, their own controls drawn apart. ``gang`` is this request's,
    from :func:`roster_page` (with the content's version and whether it fought), read before any change the
    request made."""
    key = f"fighter-page:{pk}:{_facts_key(gang)}"
    found = cache.get(key)
    if found is None:
        row, advancements = fighter_detail(gang, pk, content_version=gang.content_version or 0)
        with_move_to(gang, [item.purchase for item in row.weapons + row.wargear])
        found = (row, advancements, fighter_history(row.fighter))
        cache.set(key, found, FRAGMENT_SECONDS)
    row, advancements, history = found
    row.fighter.gang = gang  # this request's gang (and what it says of the viewer), not the cached copy
    return FighterPage(row, advancements, history, founding=not gang.fought)


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
