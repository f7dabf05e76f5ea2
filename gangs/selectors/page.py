"""The gang page for one viewer, as one :class:`RosterPage`: the gang (:func:`gang_queryset`), the facts of its
version (:class:`RosterFacts`: what it holds in its campaign among them, which the campaigns app answers through
:mod:`gangs.campaign_facts`) and what the viewer may do; with :func:`version_key`, which every read of the gang kept
per version (the Stash, the history's campaigns, a fighter's page) builds its cache key on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from django.core.cache import cache
from django.db.models import Count, Exists, OuterRef, Q, Subquery
from django.http import Http404

from content.versioning import content_version_subquery
from core.queries import Precompiled
from gangs.cache import FRAGMENT_SECONDS, fragment_key
from gangs.campaign_facts import campaign_facts
from gangs.ledger import from_battle
from gangs.models import ON_ROSTER, Fighter, FighterStatus, Gang, LedgerEntry, Purchase
from gangs.permissions import GangAccess, access_as, arbitrates_campaign
from rulebook import gang_rules


def _founding_annotations() -> dict:
    """Whether a gang has fought (or was imported), fought here, and carries import flags: the founding rules
    (gang_founding, composition_problems) and the flags (import_flags) read them from the gang, so they cost a page
    no query of their own. Read in this package only, and passed on as arguments (RosterPage.founding, gang_roster,
    fighter_page). Every ledger entry and its battle link (written with it, gangs.ledger.ledger_record) moves the
    gang's version, so :func:`roster_facts` keeps them with the facts of that version."""
    entries = LedgerEntry.objects.filter(gang=OuterRef("pk"))
    return {
        "fought": Exists(entries.filter(from_battle() | Q(data__has_key="imported"))),
        "battled": Exists(entries.filter(from_battle())),  # the founding rules' breaches an import brought
        "flagged": Exists(entries.filter(data__has_key="flags")),
    }


def gang_queryset():
    """A gang with its house, the content's version and whether it fought (one query). Its roster is loaded by
    :func:`gangs.selectors.roster.lazy_roster`, and its house list and its owner by what needs them, only when a
    page renders a fragment the cache does not hold (gangs.cache). :func:`roster_page` reads the gang without the
    ``Exists`` (they scan the ledger, and compiling them costs more than the rest of a warm page) and takes them
    from its version's facts."""
    return _versioned_with_house().annotate(**_founding_annotations())


def _versioned_with_house():
    """A gang with its house and the content's version, what :func:`gangs.cache.fragment_key` needs: a copy of
    the one built for the process (resolving the subquery costs a warm page as much as running it), as a class-based
    view's ``queryset`` is copied for each request. The kept one is never evaluated, so it never holds rows."""
    return _built_versioned_with_house().all()


@lru_cache(maxsize=1)
def _built_versioned_with_house():
    return Gang.objects.select_related("house").annotate(content_version=content_version_subquery())


# The gang as gang_for_view gives it, from _versioned_with_house's query compiled once (core.queries): the roster,
# the print sheet, a fighter's page and the history each send it on every request.
_ROSTER_GANG = Precompiled(lambda pk: _built_versioned_with_house().filter(pk=pk).order_by())


@dataclass(frozen=True)
class RosterFacts:
    """What the gang page's own (uncached) parts ask about one version of the gang: how many Hangers-on and
    Brutes it holds (the Reputation notice), whether the Stash holds items, the campaign it plays in (one at a
    time), the territories it holds there, its battles still to be reported (what a Hired Gun is hired for), and
    whether it fought, fought here and carries import flags (:func:`_founding_annotations`). Every row they are
    read from moves the gang's version (gangs.cache, campaigns.apps), so they are read once per version and kept
    beside its fragments."""

    hangers_on_held: int
    stash_holds_items: bool
    campaign_id: int | None
    fought: bool
    battled: bool
    flagged: bool
    territories: tuple = ()
    coming_battles: tuple = ()
    captives: tuple = ()


def version_key(gang: Gang) -> str:
    """The start of every cache key kept per version of the gang and of the content (gangs.cache.fragment_key):
    the :class:`RosterFacts`, the Stash (gangs.selectors.stash), the campaigns its history names
    (gangs.selectors.history) and a fighter's page (gangs.selectors.fighter)."""
    return "roster-facts:" + ":".join(str(part) for part in fragment_key(gang))


# Moved when RosterFacts changes shape or module: a shared cache (Redis, Memcached) filled before a deploy then holds
# nothing under the new key that would not unpickle as the new class. (2: it left gangs.selectors.roster; 3: whether
# the gang fought, with its version.)
FACTS_LAYOUT = 3


def roster_facts(gang: Gang) -> RosterFacts:
    """:class:`RosterFacts` of ``gang`` (read with its version and the content's, as :func:`roster_page` reads it):
    from the cache, else one query (three for a gang in a campaign)."""
    key = f"{version_key(gang)}:layout{FACTS_LAYOUT}"
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
    query for the gang (compiled once), and, while its version is cached, none for its facts nor for whether the viewer
    arbitrates its campaign."""
    if not user.is_authenticated:
        raise Http404  # as gang_for_view
    found = _ROSTER_GANG.objects(pk)
    if not found:
        raise Http404
    gang = found[0]
    facts = roster_facts(gang)
    # As gang_queryset would have annotated them: what the roster and the fighter page read of the gang.
    gang.fought, gang.battled, gang.flagged = facts.fought, facts.battled, facts.flagged
    arbitrator = False
    if facts.campaign_id is not None and user.is_authenticated:
        # Who arbitrates the campaign moves the version of its gangs (campaigns.apps): kept per viewer.
        key = f"{version_key(gang)}:arbitrator:{user.pk}"
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


def _captives(gang: Gang) -> list[Fighter]:
    held = Fighter.objects.filter(captured_by=gang, status=FighterStatus.CAPTURED).select_related("gang")
    return list(held.order_by("name", "pk"))
