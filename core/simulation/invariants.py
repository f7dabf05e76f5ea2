"""What must hold after every step of a campaign, checked from the stored rows (not from what the services say).

Each check returns the first problem in words, or ``""``. :func:`check_all` raises :class:`InvariantBroken` naming
the first broken invariant and the step after which it broke.

- **ledger**: every gang's Stash and Reputation, and every fighter's experience, equal their ledger entries;
- **applied once**: no gang has more than one applied post-battle sequence (or ledger writes of more than one
  sequence) for a battle, and after the post-battle step every confirmed battle has one for each gang;
- **fielded**: no fighter who was Dead, Captured, In Recovery or otherwise unavailable was fielded in a battle;
- **captives**: a Captured fighter is held by exactly one gang, another gang of the campaign; nobody else is held;
- **experience owed**: every fighter the battle's record names as taking an enemy Out of Action (2018+) earned
  at least the standard experience for it (+1 each, +1 more for a Leader or Champion); in classic every fighter
  who took part and survived earned experience, and the winning Leader the victor's bonus.
"""

from __future__ import annotations

from collections import Counter

from django.db.models import Count, Q, Sum

from campaigns.models import Battle, BattleStatus, Campaign, Outcome
from content.models import Edition
from gangs.ledger import ledger_totals
from gangs.models import Fighter, FighterStatus, Gang, LedgerEntry
from postbattle.models import Application, Sequence, SequenceState


class InvariantBroken(Exception):
    def __init__(self, invariant: str, step: str, detail: str):
        super().__init__(f"invariant broken after {step}: {invariant}: {detail}")
        self.invariant, self.step, self.detail = invariant, step, detail


def campaign_gangs(campaign: Campaign) -> list[Gang]:
    return list(Gang.objects.filter(memberships__campaign=campaign).distinct().order_by("pk"))


def ledger(campaign: Campaign) -> str:
    for gang in campaign_gangs(campaign):
        totals = ledger_totals(gang)
        if (gang.stash, gang.reputation) != (totals["stash"], totals["reputation"]):
            return (f"{gang.name}: Stash {gang.stash}, Reputation {gang.reputation}; the ledger says "
                    f"{totals['stash']} and {totals['reputation']}")  # fmt: skip
        for fighter in gang.fighters.all():
            if fighter.experience != totals["experience"].get(fighter.pk, 0):
                return f"{fighter.name} has {fighter.experience} XP; the ledger says {totals['experience'].get(fighter.pk, 0)}"
    return ""


def applied_once(campaign: Campaign, *, complete: bool) -> str:
    live = Application.objects.filter(sequence__battle__campaign=campaign, reverted_at__isnull=True)
    twice = live.values("sequence__battle", "sequence__gang").annotate(n=Count("pk")).filter(n__gt=1)
    twice = twice.order_by("sequence__battle").first()
    if twice:
        return f"battle {twice['sequence__battle']}: gang {twice['sequence__gang']} has {twice['n']} applied sequences"
    for sequence in Sequence.objects.filter(battle__campaign=campaign, state=SequenceState.APPLIED):
        writers = LedgerEntry.objects.filter(battle=sequence.battle, gang=sequence.gang, data__post_battle__isnull=False,
                                             reverses__isnull=True, data__revert__isnull=True)  # fmt: skip
        runs = set(writers.values_list("data__post_battle", flat=True))
        live_runs = set(
            Sequence.objects.filter(pk__in=runs).exclude(state=SequenceState.REVERTED).values_list("pk", flat=True)
        )
        if len(live_runs) > 1:
            return f"{sequence.gang.name} after {sequence.battle}: entries of {len(live_runs)} live sequences"
    if complete:
        for battle in campaign.battles.filter(status=BattleStatus.CONFIRMED).select_related("attacker", "defender"):
            for gang in (battle.attacker, battle.defender):
                if not live.filter(sequence__battle=battle, sequence__gang=gang).exists():
                    return f"{gang.name} has no applied post-battle sequence for {battle}"
    return ""


def fielded(session) -> str:
    """Checked as the battle starts: everyone in it was Active on the roster (nobody Dead, Captured or recovering)."""
    for row in session.fighters.select_related("fighter"):
        fighter = row.fighter
        if fighter is None or fighter.status != FighterStatus.ACTIVE or fighter.captured_by_id:
            status = fighter.get_status_display() if fighter else "gone"
            return f"{row.name} was fielded in {session} while {status}"
    return ""


def captives(campaign: Campaign) -> str:
    gangs = {g.pk for g in campaign_gangs(campaign)}
    for fighter in Fighter.objects.filter(gang__in=gangs).filter(
        Q(status=FighterStatus.CAPTURED) | Q(captured_by__isnull=False)
    ):
        if fighter.status != FighterStatus.CAPTURED:
            return f"{fighter.name} is {fighter.get_status_display()} but still held by gang {fighter.captured_by_id}"
        if fighter.captured_by_id is None:
            return f"{fighter.name} is Captured but held by no gang"
        if fighter.captured_by_id == fighter.gang_id or fighter.captured_by_id not in gangs:
            return f"{fighter.name} is held by gang {fighter.captured_by_id}, not a rival in the campaign"
    return ""


def _xp_for(battle: Battle, fighter_id: int) -> int:
    entries = LedgerEntry.objects.filter(battle=battle, fighter_id=fighter_id, experience__gt=0, reverses__isnull=True)
    return entries.exclude(reversed_by__isnull=False).aggregate(xp=Sum("experience"))["xp"] or 0


def experience_owed(battle: Battle) -> str:
    """Checked once both gangs' sequences are applied: the record's rewards are on the ledger."""
    results = list(battle.fighter_results.select_related("fighter__fighter_type", "caused_by"))
    if battle.campaign.edition == Edition.N18:
        owed: Counter = Counter()
        for result in results:
            if result.outcome == Outcome.OUT_OF_ACTION and result.caused_by_id:
                owed[result.caused_by_id] += 1
                if result.fighter.fighter_type.category in ("leader", "champion"):
                    owed[result.caused_by_id] += 1
        for fighter_id, xp in owed.items():
            got = _xp_for(battle, fighter_id)
            if got < xp:
                name = Fighter.objects.get(pk=fighter_id).name
                return (f"{name} took enemies Out of Action in {battle} (owed at least {xp} XP by the standard "
                        f"rewards) and earned {got}")  # fmt: skip
        return ""
    for result in results:
        fighter = result.fighter
        died = fighter.status == FighterStatus.DEAD
        if not died and not _xp_for(battle, fighter.pk):
            return (
                f"{fighter.name} fought in {battle} and survived but earned no experience (classic: D6 for surviving)"
            )
    return ""


def check_all(campaign: Campaign, step: str, *, complete: bool = False) -> None:
    for name, problem in (("ledger", ledger(campaign)), ("applied once", applied_once(campaign, complete=complete)),
                          ("captives", captives(campaign))):  # fmt: skip
        if problem:
            raise InvariantBroken(name, step, problem)


def check(name: str, step: str, problem: str) -> None:
    if problem:
        raise InvariantBroken(name, step, problem)
