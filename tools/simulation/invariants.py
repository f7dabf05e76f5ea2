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
- **reconciled** (2018+): computed independently from each battle's record (its fighter rows and facts, the
  rosters and territories as they stood at confirmation), the guide's tables and the recorded dice, what every
  gang is owed for the battle and its post-battle sequence equals what the ledger holds for it, per gang and
  reason, nothing unpaid and nothing unowed: loot caskets, the standard experience, the scenario's rewards,
  territory income and recruits, territories taken and lost, captives sold or bountied, house rules, the
  experience of Lasting Injuries; every other entry with an amount is a failure (:class:`_Reconciliation`
  lists each reason);
- **experience owed**: every fighter the battle's record names as taking an enemy Out of Action (2018+) earned
  at least the standard experience for it (+1 each, +1 more for a Leader or Champion); in classic every fighter
  who took part and survived earned at least the D6 for surviving plus +5 for each wounding hit the report
  gives them (the battle assistant counts them from its log).
"""

from __future__ import annotations

from collections import Counter

from django.db.models import Count, Q, Sum

from campaigns.models import Battle, BattleStatus, Campaign, IncomeVariant, Outcome
from campaigns.selectors import territories_held
from campaigns.selectors.house_rules import post_battle_payments, rules_in_force
from content.models import Edition
from gangs.models import Fighter, FighterStatus, Gang, LedgerEntry, LedgerKind
from postbattle.models import Application, Sequence, SequenceState
from rulebook.classic.campaign.experience import WOUNDING_HIT_XP
from rulebook.dice import DiceSource, ReplayDice
from rulebook.errors import RulesInputError
from rulebook.gang_rules import roll_starting_experience
from rulebook.n18.campaign.battle_rewards import captive_price
from rulebook.n18.campaign.lasting_injury import LASTING_INJURY
from rulebook.n18.campaign.post_battle import recruit_table, roll_home_settlement
from rulebook.n18.campaign.record import casket_contents, casket_rules
from rulebook.n18.campaign.scenarios import SCENARIOS, roll_reward
from rulebook.n18.campaign.territories import boon, collect, reputation_while_held
from rulebook.roster import amount_dice, amount_distribution, roll_amount


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
# The Rescue Mission's fighter rewards (2023 Core Rulebook): owed by the record's captives freed and who freed them.
RESCUE_AWARDS = ("fighter who freed a captive", "captive freed")
# A Leader's reward owed to a gang that won (the side named; None: either); no entry when the gang has no Leader.
LEADERS = {"victorious gang's Leader": None, "attacking gang's Leader": "attacker"}
CAPTIVE_ACTIONS = ("Sell to Guilders", "Claim Bounties", "Dispose of Captives")
# What a gang spends with a battle's link (a Hired Gun hired for it, kit bought or an advance taken in Update
# Roster): the player's choice, never a reward; the ledger invariant checks the totals, this one the sign.
SPENDING = (LedgerKind.HIRE, LedgerKind.PURCHASE, LedgerKind.EQUIPMENT, LedgerKind.ADVANCEMENT)


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
        "captive freed": len(facts.get("captives_freed") or ()),
    }[reward.per]
    return min(times, amount_dice(reward.cap) // max(1, amount_dice(reward.amount))) if reward.cap else times


def _rescued(recipient: str, role: str, facts: dict) -> dict[int, int]:
    """The Rescue Mission's fighter rewards the record owes, by fighter id: each captive freed (the rescuers'
    fighters) earns it once, each fighter who freed captives once per captive."""
    if role != "attacker":
        return {}
    if recipient == "captive freed":
        return {int(pk): 1 for pk in facts.get("captives_freed") or ()}
    return dict(Counter(int(freed["fighter"]) for freed in facts.get("freed_by") or ()))


class _MissingDie(Exception):
    """The record lacks a die the rule needs: the amount cannot be what the rule gives for the recorded dice."""


class _RecordedOnly(DiceSource):
    """A replay's fallback: a die nobody recorded is a finding, never a fresh roll."""

    def _face(self, die, purpose: str):
        raise _MissingDie(f"no {die.name} recorded for {purpose}")


def _replay(recorded) -> ReplayDice:
    """The recorded dice, answered again for the same purposes: the rule run on them gives what was owed."""
    return ReplayDice(recorded or (), _RecordedOnly())


def _amounts(entry: LedgerEntry) -> str:
    parts = [(entry.credits, "credits"), (entry.reputation, "Reputation"), (entry.experience, "XP")]
    return ", ".join(f"{n:+d} {what}" for n, what in parts if n)


def _attacker_experience() -> int:
    """Memorable Death's experience for the attacker whose Attack action caused it (the Lasting Injury table)."""
    for row in LASTING_INJURY.rows:
        for effect in row.details.get("effects", ()):
            if effect.get("kind") == "attacker_experience":
                return int(effect["amount"])
    return 0


class _Reconciliation:
    """One battle's ledger against what its record and the guide's tables make owed, gang by gang (2018+).

    Each ledger reason a battle can write, and how it is reconciled:

    - ``Loot casket: ...`` (credits): each casket of the record to the side that opened it, its credits within
      its table row's range, opened by a side the scenario lets open them;
    - the standard experience (``experience for fighter ...``): from the record's rows (+1 per enemy Out of
      Action, +1 more for a Leader or Champion, +1 per kill, +1 per Rally);
    - the scenario's rewards (``credits/experience/reputation for <recipient> ...``): owed by the record (who
      won, bottled, relics, caches, caskets left, a Rescue Mission's captives freed and who freed each: paid to
      exactly those fighters), each entry the rule's total for its recorded dice;
    - ``Collect Income: <territory>`` (credits): the territories held at confirmation, each one's boon
      (``rulebook.n18.campaign.territories``: who collects, enhanced boons, doubles, chosen dice, Dome Runners,
      captives in a mine, the Home Settlement's D6x10) run again on the income step's recorded dice; none when a
      house rule replaces the rules' income;
    - ``Free recruit: ...`` (a hire): only as many as the Home Settlement's, a Settlement's (or enhanced boon's)
      recruit roll on its recorded dice and a Law-abiding gang's Hanger-on give, and free (0 credits); a
      recruit's starting experience is its type's, on its recorded dice;
    - ``Took/Lost <territory>`` (Reputation): only the battle's stakes, taken by an attacker that won it, each
      with the Reputation its boon gives that gang's house while held;
    - ``Post-battle action: Sell to Guilders/Claim Bounties`` (credits): half or all of the value of a captive
      the gang held when the battle was confirmed and disposed of in its sequence; Dispose of Captives pays
      nothing; no credits without a captive;
    - ``House rule: ...`` (credits, ``data.house_rule``): what the house rules in force at confirmation pay,
      counted from the record (territories held at confirmation);
    - experience of a Lasting Injury: Lesson Learned's D3 (the recorded die) to the fighter, Memorable Death's
      experience to the attacker who took them Out of Action in this battle.

    Not battle-owed, so no amount is allowed for them: statuses, injuries, advances written as such, the
    campaign log (challenges, re-rolls, reverts), the Trading Post's level, chem doses (whose kit is used up
    with no credits). Spending with the battle's link (Hired Guns' fees, kit bought, advances: ``SPENDING``)
    may only take away. An arbitrator's override and a sale of kit carry no battle's link (``gangs.services``):
    a correction is the gang's, not the battle's. Any other entry with an amount is a failure: nothing unowed.
    """

    def __init__(self, battle: Battle):
        self.battle = battle
        self.facts = battle.scenario_facts or {}
        self.live = list(_live(battle).select_related("fighter__fighter_type", "gang"))
        self.results = list(battle.fighter_results.select_related("fighter__fighter_type"))
        self.explained: set[int] = set()
        applied = Sequence.objects.filter(battle=battle, state=SequenceState.APPLIED)
        self.sequences = {s.gang_id: s for s in applied}

    def problem(self, gang: Gang, reason: str, detail: str) -> str:
        return f"{gang.name} in battle {self.battle.pk} ({self.battle}), {reason}: {detail}"

    def mine(self, gang: Gang) -> list[LedgerEntry]:
        """The gang's entries: its own, and experience of its fighters whichever sequence wrote it."""
        return [e for e in self.live if (e.fighter.gang_id if e.fighter_id else e.gang_id) == gang.pk]

    def take(self, entries, test) -> list[LedgerEntry]:
        found = [e for e in entries if e.pk not in self.explained and test(e)]
        self.explained.update(e.pk for e in found)
        return found

    def run(self) -> str:
        for role, gang in (("attacker", self.battle.attacker), ("defender", self.battle.defender)):
            entries = self.mine(gang)
            for check in (
                self.caskets,
                self.standard,
                self.scenario,
                self.income,
                self.captives,
                self.house_rules,
                self.territory_moves,
                self.injuries,
            ):
                found = check(role, gang, entries)
                if found:
                    return found
        return self.unexplained()

    # --- each reason ---------------------------------------------------------------------------

    def caskets(self, role: str, gang: Gang, entries) -> str:
        rules = casket_rules(self.battle.scenario)
        for casket in self.facts.get("caskets") or ():
            if casket.get("side") not in (*rules.openers, rules.left_to):
                return self.problem(gang, "loot caskets", f"the {casket.get('side')} cannot open a casket here")
            if casket.get("result"):
                row = casket_contents(rules.table, casket["result"])
                if not row["low"] <= int(casket.get("credits") or 0) <= row["high"]:
                    detail = f"{row['name']} holds {row['credits'] or 0} credits, the record says {casket['credits']}"
                    return self.problem(gang, "loot caskets", detail)
        paid = sum(e.credits for e in self.take(entries, lambda e: e.reason.startswith("Loot casket")))
        owed = sum(int(c.get("credits") or 0) for c in self.facts.get("caskets") or () if c.get("side") == role)
        if paid != owed:
            return self.problem(gang, "loot caskets", f"owed {owed} credits, the ledger holds {paid}")
        return ""

    def standard(self, role: str, gang: Gang, entries) -> str:
        owed: Counter = Counter()
        for r in self.results:
            if r.fighter.gang_id == gang.pk:
                owed[r.fighter_id] += int((r.awards or {}).get("rallies", 0))
            elif r.outcome == Outcome.OUT_OF_ACTION and r.caused_by_id:
                leader = r.fighter.fighter_type.category in ("leader", "champion")
                owed[r.caused_by_id] += 1 + leader + r.killed
        got: Counter = Counter()
        for e in self.take(entries, lambda e: e.experience and any(per in e.reason for per in STANDARD_PER)):
            got[e.fighter_id] += e.experience
        if +owed != +got:
            return self.problem(gang, "standard experience", f"owed {dict(+owed)}, the ledger holds {dict(+got)}")
        return ""

    def scenario(self, role: str, gang: Gang, entries) -> str:
        battle, facts = self.battle, self.facts
        relic = facts.get("relic_defiled") or {}
        won, draw = battle.winner_id == gang.pk, battle.is_draw
        bottled = battle.attacker_bottled if role == "attacker" else battle.defender_bottled
        for reward in SCENARIOS[battle.scenario].rewards:
            if reward.recipient == "fighter":
                continue  # the standard experience
            cond = f" ({reward.condition})" if reward.condition else ""
            prefix = f"{reward.kind} for {reward.recipient}{cond}: {reward.amount}"
            found = self.take(entries, lambda e, prefix=prefix: e.reason.startswith(prefix))
            each = {}
            if reward.recipient in RESCUE_AWARDS:
                each = _rescued(reward.recipient, role, facts)
                times = sum(each.values())
            elif reward.recipient in LEADERS:
                times = int(won and LEADERS[reward.recipient] in (None, role))
            elif reward.recipient in DEED_AWARDS:
                counts = {
                    r.fighter_id: int((r.awards or {}).get(DEED_AWARDS.get(reward.recipient, ""), 0))
                    for r in self.results
                    if r.fighter.gang_id == gang.pk
                }
                times, each = sum(counts.values()), counts
            else:
                times = _owed_times(reward, role, won, draw, bottled, relic, facts)
            total = sum(e.credits + e.reputation + e.experience for e in found)
            if (
                times
                and (not found or not _in_range(reward, times, total))
                and not (reward.recipient in LEADERS and not found)
            ):
                return self.problem(gang, prefix, f"owed x{times}, the ledger holds {total} ({len(found)} entries)")
            if not times and found:
                return self.problem(gang, prefix, f"not owed, the ledger holds {total}")
            if reward.recipient in RESCUE_AWARDS and {e.fighter_id for e in found} != set(each):
                detail = f"owed to fighters {sorted(each)}, the ledger pays {sorted({e.fighter_id for e in found})}"
                return self.problem(gang, prefix, detail)
            for e in found:
                amount = e.credits + e.reputation + e.experience
                try:
                    rolled = roll_reward(reward, _replay(e.dice), times=each.get(e.fighter_id, times))["total"]
                except _MissingDie as missing:
                    return self.problem(gang, prefix, f"{amount} paid, but {missing}")
                if rolled != amount:
                    return self.problem(gang, prefix, f"the recorded dice give {rolled}, the ledger holds {amount}")
        return ""

    def income(self, role: str, gang: Gang, entries) -> str:
        """Territory income, and the recruits a territory gives, from the income step's recorded dice."""
        sequence = self.sequences.get(gang.pk)
        if sequence is None:
            return ""
        step = sequence.draft.get("steps", {}).get("income") or {}
        inputs = (step.get("inputs") or {}).get("choices") or {}  # the player's answers to the step's questions
        dice = _replay(sequence.draft.get("kept", {}).get("income"))
        roster = self.battle.roster_at_confirmation.get(str(gang.pk)) or {}
        house, outlaw = roster.get("house") or gang.house.name, bool(roster.get("outlaw"))
        held = territories_held(self.battle, gang)
        replaced = (
            rules_in_force(self.battle.campaign, self.battle.confirmed_at).income_variant != IncomeVariant.STANDARD
        )
        owed: dict[str, int] = {}
        recruits = 0
        for territory in held:
            name = territory.territory.name
            try:
                credits, recruit = self._territory(territory, dice, inputs, house, outlaw, roster, held)
            except _MissingDie as missing:
                return self.problem(gang, f"Collect Income: {name}", str(missing))
            owed[name] = 0 if replaced else credits
            recruits += recruit
        paid: Counter = Counter()
        for e in self.take(entries, lambda e: e.reason.startswith("Collect Income: ")):
            paid[e.reason.removeprefix("Collect Income: ")] += e.credits
        for name in sorted(set(owed) | set(paid)):
            if name not in owed:
                return self.problem(gang, f"Collect Income: {name}", f"not held at confirmation, {paid[name]} paid")
            if owed[name] != paid[name]:
                detail = f"the recorded dice give {owed[name]} credits, the ledger holds {paid[name]}"
                return self.problem(gang, f"Collect Income: {name}", detail)
        hired = self.take(entries, lambda e: e.kind == LedgerKind.HIRE and e.reason.startswith("Free recruit:"))
        if len(hired) > recruits or any(e.credits for e in hired):
            detail = f"{len(hired)} recruits ({sum(e.credits for e in hired)} credits); the rules give {recruits}, free"
            return self.problem(gang, "free recruit", detail)
        recruited = {e.fighter_id for e in hired}
        for e in self.take(entries, lambda e: e.fighter_id in recruited and "starting experience" in e.reason):
            try:
                xp = roll_starting_experience(e.fighter.fighter_type.starting_xp, _replay(e.dice), "")
            except (_MissingDie, RulesInputError):
                xp = None
            if xp != e.experience:
                return self.problem(gang, "recruit's starting experience", f"{e.experience} XP; its dice give {xp}")
        return ""

    def _territory(self, territory, dice, inputs: dict, house: str, outlaw: bool, roster: dict, held) -> tuple:
        """What one territory held at confirmation owes (credits, recruits), its dice replayed."""
        name, slug = territory.territory.name, territory.territory.slug
        if territory.is_home_settlement:
            home = roll_home_settlement(dice, recruit=bool(inputs.get("recruit")))
            return home["income"], int(bool(home["recruit"] and home["recruit"]["recruit"]))
        found = boon(slug, house=house, held=[t.territory.slug for t in held])
        if found is None:
            income = territory.territory.income
            try:
                return (roll_amount(income, dice, f"{name} income") if income else 0), 0
            except RulesInputError:
                return 0, 0  # the arbitrator decides it: nothing the rules pay
        count = str(inputs.get(f"dice_{slug}") or "")
        deleted = len({r["for"] for r in dice.kept() if r["for"].startswith(f"{name} income, fighter ")})
        collected = collect(
            found,
            dice,
            outlaw=outlaw,
            dome_runners=sum(1 for f in roster.get("fighters", ()) if f.get("dome_runner")),
            dice_count=int(count) if count.isdigit() else None,
            deleted=deleted,
            captives=len(roster.get("captives", ())),
            suit=str(inputs.get(f"suit_{slug}") or ""),
        )
        recruits = int(bool(collected.law_abiding_recruit and inputs.get(f"hanger_on_{slug}")))
        if found.recruit_roll and inputs.get(f"recruit_{slug}"):
            recruits += int(bool(recruit_table(name).roll(dice)["recruit"]))
        return collected.credits, recruits

    def captives(self, role: str, gang: Gang, entries) -> str:
        """Sell to Guilders and Claim Bounties: the price of a captive the gang held and disposed of."""
        sequence = self.sequences.get(gang.pk)
        roster = self.battle.roster_at_confirmation.get(str(gang.pk)) or {}
        held = {int(c["id"]): int(c["value"]) for c in roster.get("captives", ())}
        owed: Counter = Counter()
        for e in self.live:
            action = next((a for a in CAPTIVE_ACTIONS if e.reason.startswith(f"Post-battle action: {a} (")), None)
            if action is None or sequence is None or e.data.get("post_battle") != sequence.pk:
                continue
            if e.fighter_id not in held:
                return self.problem(gang, f"Post-battle action: {action}", f"{e.fighter} was not its captive")
            owed[action] += captive_price(action, held[e.fighter_id])
        for action in CAPTIVE_ACTIONS:
            found = self.take(entries, lambda e, a=action: e.reason.startswith(f"Post-battle action: {a}:"))
            paid = sum(e.credits for e in found)
            if paid != owed[action]:
                detail = f"owed {owed[action]} credits for the captives it disposed of, the ledger holds {paid}"
                return self.problem(gang, f"Post-battle action: {action}", detail)
        return ""

    def house_rules(self, role: str, gang: Gang, entries) -> str:
        held = len(territories_held(self.battle, gang))
        owed = {p.rule: p.credits for p in post_battle_payments(self.battle, gang, held)}
        paid: Counter = Counter()
        for e in self.take(entries, lambda e: "house_rule" in e.data):
            paid[e.data["house_rule"]] += e.credits
        for rule in sorted(set(owed) | set(paid)):
            if owed.get(rule, 0) != paid[rule]:
                detail = f"owed {owed.get(rule, 0)} credits, the ledger holds {paid[rule]}"
                return self.problem(gang, f"house rule {rule}", detail)
        return ""

    def territory_moves(self, role: str, gang: Gang, entries) -> str:
        battle, stakes = self.battle, self.battle.stakes
        took = role == "attacker" and stakes is not None and battle.winner_id == gang.pk
        moves = self.take(entries, lambda e: e.kind == LedgerKind.TERRITORY)
        for e in moves:
            if stakes is None or e.data.get("territory") != stakes.pk:
                return self.problem(gang, e.description, "a territory the battle was not fought for")
            taken = e.description.startswith("Took")
            if taken != took or (not taken and role != "defender"):
                return self.problem(gang, e.description, "the battle's result does not move it this way")
            reputation = reputation_while_held(stakes.territory.slug, gang.house.name)
            if e.reputation != (reputation if taken else -reputation):
                return self.problem(gang, e.description, f"{e.reputation:+d} Reputation; its boon gives {reputation}")
        if took and not any(e.description.startswith("Took") for e in moves):
            return self.problem(gang, f"Took {stakes.territory.name}", "won the battle for it; the ledger has nothing")
        return ""

    def injuries(self, role: str, gang: Gang, entries) -> str:
        """Experience a Lasting Injury gives: Lesson Learned's D3, Memorable Death's to the attacker."""
        attackers = {r.caused_by_id for r in self.results if r.caused_by_id}
        for e in self.take(entries, lambda e: e.experience and "Lesson Learned" in e.reason):
            d3 = [r["value"] for r in e.dice if r.get("die") == "D3"]
            if not d3 or e.experience != d3[-1]:
                return self.problem(gang, e.reason, f"{e.experience} XP; the recorded D3 gives {d3[-1:] or 'none'}")
        for e in self.take(entries, lambda e: e.experience and "Memorable Death" in e.reason):
            if e.fighter_id not in attackers or e.experience != _attacker_experience():
                detail = f"{e.experience} XP to {e.fighter}, who took nobody Out of Action in it"
                if e.fighter_id in attackers:
                    detail = f"{e.experience} XP; the rule gives {_attacker_experience()}"
                return self.problem(gang, e.reason, detail)
        return ""

    def unexplained(self) -> str:
        """Nothing unowed: every entry with an amount is one a rule above explains, or spending."""
        for e in self.live:
            if e.pk in self.explained or not (e.credits or e.reputation or e.experience):
                continue
            if e.kind in SPENDING and e.credits <= 0 and e.experience <= 0 and not e.reputation:
                continue
            gang = e.fighter.gang if e.fighter_id else e.gang
            return self.problem(gang, e.reason or e.description, f"{_amounts(e)} that no rule explains")
        return ""


def _in_range(reward, times: int, total: int) -> bool:
    values = sorted(amount_distribution(reward.amount))
    return times * values[0] <= total <= times * values[-1]


def reconciled(battle: Battle) -> str:
    """Checked once both gangs' sequences are applied (2018+): :class:`_Reconciliation`."""
    if battle.campaign.edition != Edition.N18 or battle.scenario not in SCENARIOS:
        return ""
    return _Reconciliation(battle).run()


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
