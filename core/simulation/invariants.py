"""What must hold after every step of a campaign, checked from the stored rows (not from what the services say).

Each check returns the first problem in words, or ``""``. :func:`check_all` raises :class:`InvariantBroken` naming
the first broken invariant and the step after which it broke.

- **ledger**: every gang's Stash and Reputation, and every fighter's experience, equal their ledger entries;
- **applied once**: no gang has more than one applied post-battle sequence for a battle, no applied sequence's
  ledger entries grow after it was applied, and after each cycle every confirmed battle has one for each gang;
- **fielded**: no fighter who was Dead, Captured, In Recovery or otherwise unavailable was fielded in a battle;
- **captives**: a Captured fighter is held by exactly one gang, another gang of the campaign; nobody else is held;
- **rescued**: once both sequences of a Rescue Mission the rescuers won are applied, none of the fighters the
  captors held before it is still their captive (the issue's reading: a won Rescue Mission is a rescue that
  succeeds, and the captive returns to their gang);
- **experience owed**: every fighter the battle's record names as taking an enemy Out of Action (2018+) earned
  at least the standard experience for it (+1 each, +1 more for a Leader or Champion); in classic every fighter
  who took part and survived earned at least the D6 for surviving plus +5 for each wounding hit the report
  gives them (the battle assistant counts them from its log).
"""

from __future__ import annotations

from collections import Counter

from django.db.models import Count, Q, Sum

from campaigns.models import Battle, BattleStatus, Campaign, Outcome
from content.models import Edition
from gangs.ledger import ledger_totals
from gangs.models import Fighter, FighterStatus, Gang, LedgerEntry
from postbattle.models import Application, Sequence, SequenceState
from rulebook.classic.campaign.experience import WOUNDING_HIT_XP


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


def sequence_entries(sequence_pk: int) -> int:
    """The ledger entries a post-battle sequence wrote (its own gang's and, for a Memorable Death's experience
    or a captive sold, the other gang's), reversals left out."""
    return LedgerEntry.objects.filter(data__post_battle=sequence_pk, reverses__isnull=True).count()


def applied_once(campaign: Campaign, *, complete: bool, written: dict[int, int]) -> str:
    """``written``: the entries each applied sequence had written when it was applied; a second application (or
    anything else writing in its name) would add to them."""
    live = Application.objects.filter(sequence__battle__campaign=campaign, reverted_at__isnull=True)
    twice = live.values("sequence__battle", "sequence__gang").annotate(n=Count("pk")).filter(n__gt=1)
    twice = twice.order_by("sequence__battle").first()
    if twice:
        return f"battle {twice['sequence__battle']}: gang {twice['sequence__gang']} has {twice['n']} applied sequences"
    for sequence in Sequence.objects.filter(battle__campaign=campaign, state=SequenceState.APPLIED).select_related(
        "gang"
    ):
        now = sequence_entries(sequence.pk)
        if sequence.pk in written and now != written[sequence.pk]:
            return (f"{sequence.gang.name}'s sequence after {sequence.battle} wrote {written[sequence.pk]} entries "
                    f"when applied and has {now} now")  # fmt: skip
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


def rescued(battle: Battle, held_before: set[int]) -> str:
    if not battle.is_rescue or battle.winner_id != battle.attacker_id or not held_before:
        return ""
    still = Fighter.objects.filter(pk__in=held_before, captured_by=battle.defender, status=FighterStatus.CAPTURED)
    if still.exists():
        names = ", ".join(still.values_list("name", flat=True))
        return f"{battle.attacker.name} won the Rescue Mission {battle} but {names} is still held by {battle.defender.name}"
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
        if fighter.status == FighterStatus.DEAD:
            continue
        owed = 1 + WOUNDING_HIT_XP * int(result.awards.get("wounding_hits", 0))  # D6 for surviving: 1 at least
        got = _xp_for(battle, fighter.pk)
        if got < owed:
            return (f"{fighter.name} fought in {battle} and survived with {result.awards.get('wounding_hits', 0)} "
                    f"wounding hits (owed at least {owed} XP) and earned {got}")  # fmt: skip
    return ""


def check_all(campaign: Campaign, step: str, *, written: dict[int, int], complete: bool = False) -> None:
    for name, problem in (("ledger", ledger(campaign)), ("applied once", applied_once(campaign, complete=complete, written=written)),
                          ("captives", captives(campaign))):  # fmt: skip
        if problem:
            raise InvariantBroken(name, step, problem)


def check(name: str, step: str, problem: str) -> None:
    if problem:
        raise InvariantBroken(name, step, problem)
