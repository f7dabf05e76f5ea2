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
- **reconciled** (2018+): computed independently from each battle's record (its fighter rows and facts) and the
  guide's scenario tables, what every gang is owed for the battle equals what the ledger holds for it, nothing
  unpaid and nothing unowed: each loot casket's credits to the gang whose fighter opened it, the standard
  experience (+1 per enemy taken Out of Action, +1 more for a Leader or Champion, +1 per kill, +1 per Rally) to
  each fighter, and each scenario reward (credits, Reputation, experience) the record makes owed, once, in its
  dice's range, and none that it does not;
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
from gangs.models import Fighter, FighterStatus, Gang, LedgerEntry
from postbattle.models import Application, Sequence, SequenceState
from rulebook.classic.campaign.experience import WOUNDING_HIT_XP
from rulebook.n18.campaign.scenarios import SCENARIOS
from rulebook.roster import amount_dice, amount_distribution


class InvariantBroken(Exception):
    def __init__(self, invariant: str, step: str, detail: str):
        super().__init__(f"invariant broken after {step}: {invariant}: {detail}")
        self.invariant, self.step, self.detail = invariant, step, detail


def campaign_gangs(campaign: Campaign) -> list[Gang]:
    return list(Gang.objects.filter(memberships__campaign=campaign).distinct().order_by("pk"))


def ledger(campaign: Campaign) -> str:
    """Every gang's totals against its entries' sums (what :func:`gangs.ledger.ledger_totals` adds up), three
    queries for the whole campaign: it runs after every step, so its cost must not grow with the gangs' ledgers
    more than the database's sums do (issue 28: the harness's time per battle was growing with the cycles)."""
    gangs = campaign_gangs(campaign)
    entries = LedgerEntry.objects.filter(gang__in=gangs)
    sums = {
        row["gang"]: row
        for row in entries.values("gang").annotate(stash=Sum("credits"), reputation=Sum("reputation")).order_by()
    }
    experience = dict(
        entries.filter(fighter__isnull=False).values_list("fighter").annotate(total=Sum("experience")).order_by()
    )
    for gang in gangs:
        totals = sums.get(gang.pk, {})
        stash, reputation = totals.get("stash") or 0, totals.get("reputation") or 0
        if (gang.stash, gang.reputation) != (stash, reputation):
            return f"{gang.name}: Stash {gang.stash}, Reputation {gang.reputation}; the ledger says {stash} and {reputation}"
    for fighter in Fighter.objects.filter(gang__in=gangs).order_by("gang", "pk"):
        if fighter.experience != (experience.get(fighter.pk) or 0):
            return f"{fighter.name} has {fighter.experience} XP; the ledger says {experience.get(fighter.pk) or 0}"
    return ""


def sequence_entries(sequence: Sequence) -> int:
    """The ledger entries a post-battle sequence wrote (its own gang's and, for a Memorable Death's experience
    or a captive sold, the other gang's), reversals left out."""
    return _sequence_entries(LedgerEntry.objects.filter(battle_link__battle=sequence.battle_id)).get(sequence.pk, 0)


def _sequence_entries(entries) -> dict[int, int]:
    """Of ``entries``, how many each post-battle sequence wrote, reversals left out: one grouped query (looking
    each sequence's entries up by its JSON key scans the whole ledger each time)."""
    written = entries.filter(data__has_key="post_battle", reverses__isnull=True)
    return dict(written.values_list("data__post_battle").annotate(n=Count("pk")).order_by())


def applied_once(campaign: Campaign, *, complete: bool, written: dict[int, int]) -> str:
    """``written``: the entries each applied sequence had written when it was applied; a second application (or
    anything else writing in its name) would add to them."""
    live = Application.objects.filter(sequence__battle__campaign=campaign, reverted_at__isnull=True)
    twice = live.values("sequence__battle", "sequence__gang").annotate(n=Count("pk")).filter(n__gt=1)
    twice = twice.order_by("sequence__battle").first()
    if twice:
        return f"battle {twice['sequence__battle']}: gang {twice['sequence__gang']} has {twice['n']} applied sequences"
    counts = _sequence_entries(LedgerEntry.objects.filter(gang__in=campaign_gangs(campaign)))
    # Only the keys: a sequence's row carries its whole draft, and the campaign's applied sequences grow with it.
    applied = Sequence.objects.filter(battle__campaign=campaign, state=SequenceState.APPLIED)
    for pk in applied.values_list("pk", flat=True):
        now = counts.get(pk, 0)
        if pk in written and now != written[pk]:
            sequence = Sequence.objects.select_related("gang", "battle").get(pk=pk)
            return (
                f"{sequence.gang.name}'s sequence after {sequence.battle} wrote {written[sequence.pk]} entries "
                f"when applied and has {now} now"
            )
    if complete:
        done = set(live.values_list("sequence__battle", "sequence__gang"))
        for battle in campaign.battles.filter(status=BattleStatus.CONFIRMED).select_related("attacker", "defender"):
            for gang in (battle.attacker, battle.defender):
                if (battle.pk, gang.pk) not in done:
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
    entries = LedgerEntry.objects.filter(
        battle_link__battle=battle, fighter_id=fighter_id, experience__gt=0, reverses__isnull=True
    )
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
                return (
                    f"{name} took enemies Out of Action in {battle} (owed at least {xp} XP by the standard "
                    f"rewards) and earned {got}"
                )
        return ""
    for result in results:
        fighter = result.fighter
        if fighter.status == FighterStatus.DEAD:
            continue
        owed = 1 + WOUNDING_HIT_XP * int(result.awards.get("wounding_hits", 0))  # D6 for surviving: 1 at least
        got = _xp_for(battle, fighter.pk)
        if got < owed:
            return (
                f"{fighter.name} fought in {battle} and survived with {result.awards.get('wounding_hits', 0)} "
                f"wounding hits (owed at least {owed} XP) and earned {got}"
            )
    return ""


def _live(battle: Battle):
    """The battle's ledger entries still standing (neither a reversal nor reversed)."""
    return LedgerEntry.objects.filter(battle_link__battle=battle, reverses__isnull=True, reversed_by__isnull=True)


def battle_totals(battle: Battle, gang: Gang) -> tuple[int, int, int]:
    """Credits, Reputation and experience the ledger holds for ``gang`` from ``battle``."""
    live = _live(battle)
    own = live.filter(gang=gang).aggregate(c=Sum("credits"), r=Sum("reputation"))
    xp = live.filter(fighter__gang=gang).aggregate(x=Sum("experience"))["x"] or 0
    return own["c"] or 0, own["r"] or 0, xp


STANDARD_PER = (
    "(enemy taken Out of Action)",
    "(enemy Leader or Champion taken Out of Action)",
    "(enemy killed during the battle)",
    "(successful Rally)",
)
DEED_AWARDS = {
    "fighter who defiled an enemy relic": "relic_defiled",
    "fighter who destroyed a cache": "caches_destroyed",
    "fighter who recovered a cache": "caches_recovered",
}


def _owed_times(reward, role: str, won: bool, draw: bool, bottled: bool, relic: dict, facts: dict) -> int:
    """How many times the record makes a gang reward owed (read from the guide's words, apart from the
    engine's own reading, so that the two check each other)."""
    other = "defender" if role == "attacker" else "attacker"
    mine, theirs = bool(relic.get(role)), bool(relic.get(other))
    owed = {
        "attacker": role == "attacker",
        "defender": role == "defender",
        "victorious gang": won,
        "losing gang": not won and not draw,
        "each gang that bottled out": bottled,
        "gang whose relic was defiled": mine and not theirs,
        "gang whose relic was not defiled": theirs and not mine,
        "each gang": {
            None: True,
            "its relic was not defiled": not mine,
            "its relic was defiled": mine,
            "the battle is a draw": draw,
        }.get(reward.condition, False),
    }[reward.recipient]
    if not owed:
        return 0
    opened = max(int(facts.get("caskets_opened") or 0), len(facts.get("caskets") or ()))
    times = {
        None: 1,
        "loot casket not opened": max(0, 5 - opened),
        "cache destroyed": int(facts.get("caches_destroyed") or 0),
        "cache recovered": int(facts.get("caches_recovered") or 0),
    }[reward.per]
    return min(times, amount_dice(reward.cap) // max(1, amount_dice(reward.amount))) if reward.cap else times


def _in_range(reward, times: int, total: int) -> bool:
    values = sorted(amount_distribution(reward.amount))
    return times * values[0] <= total <= times * values[-1]


def reconciled(battle: Battle) -> str:
    """Checked once both gangs' sequences are applied (2018+)."""
    if battle.campaign.edition != Edition.N18 or battle.scenario not in SCENARIOS:
        return ""
    scenario, facts = SCENARIOS[battle.scenario], battle.scenario_facts or {}
    live = list(_live(battle).select_related("fighter"))
    results = list(battle.fighter_results.select_related("fighter__fighter_type"))
    relic = facts.get("relic_defiled") or {}
    for role, gang in (("attacker", battle.attacker), ("defender", battle.defender)):
        entries = [e for e in live if e.gang_id == gang.pk]
        paid = sum(e.credits for e in entries if e.reason.startswith("Loot casket"))
        owed = sum(int(c.get("credits") or 0) for c in facts.get("caskets") or () if c.get("side") == role)
        if paid != owed:
            return f"{gang.name} is owed {owed} credits of loot caskets in {battle} and the ledger holds {paid}"
        standard: Counter = Counter()
        for r in results:
            if r.fighter.gang_id == gang.pk:
                standard[r.fighter_id] += int((r.awards or {}).get("rallies", 0))
            elif r.outcome == Outcome.OUT_OF_ACTION and r.caused_by_id:
                leader = r.fighter.fighter_type.category in ("leader", "champion")
                standard[r.caused_by_id] += 1 + leader + r.killed
        got: Counter = Counter()
        for e in entries:
            if e.fighter_id and e.experience and any(per in e.reason for per in STANDARD_PER):
                got[e.fighter_id] += e.experience
        if +standard != +got:
            return (
                f"{gang.name}'s standard experience in {battle}: owed {dict(+standard)}, the ledger holds {dict(+got)}"
            )
        won, draw = battle.winner_id == gang.pk, battle.is_draw
        bottled = battle.attacker_bottled if role == "attacker" else battle.defender_bottled
        for reward in scenario.rewards:
            if reward.recipient == "fighter":
                continue  # the standard experience, above
            cond = f" ({reward.condition})" if reward.condition else ""
            prefix = f"{reward.kind} for {reward.recipient}{cond}: {reward.amount}"
            found = [e for e in entries if e.reason.startswith(prefix)]
            if reward.recipient in DEED_AWARDS or reward.recipient == "victorious gang's Leader":
                counts = {
                    r.fighter_id: int((r.awards or {}).get(DEED_AWARDS.get(reward.recipient, ""), 0))
                    for r in results
                    if r.fighter.gang_id == gang.pk
                }
                times = sum(counts.values()) if reward.recipient in DEED_AWARDS else int(won)
            else:
                times = _owed_times(reward, role, won, draw, bottled, relic, facts)
            total = sum(e.credits + e.reputation + e.experience for e in found)
            if (
                times
                and (not found or not _in_range(reward, times, total))
                and not (reward.recipient == "victorious gang's Leader" and not found)
            ):
                return f"{gang.name} is owed {prefix} x{times} in {battle}; the ledger holds {total} ({len(found)} entries)"
            if not times and found:
                return f"{gang.name} is not owed {prefix} in {battle}; the ledger holds {total}"
    return ""


def check_all(campaign: Campaign, step: str, *, written: dict[int, int], complete: bool = False) -> None:
    for name, problem in (
        ("ledger", ledger(campaign)),
        ("applied once", applied_once(campaign, complete=complete, written=written)),
        ("captives", captives(campaign)),
    ):
        if problem:
            raise InvariantBroken(name, step, problem)


def check(name: str, step: str, problem: str) -> None:
    if problem:
        raise InvariantBroken(name, step, problem)
