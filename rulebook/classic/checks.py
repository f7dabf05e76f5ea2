"""Leadership and the other tests of the 1995 rules, and the ``test`` action that answers them.

Sources: 1995 rulebook, Leadership ("Leadership Tests", "When to Test", "Broken Fighters",
"Recovering Your Nerve", "Broken That Turn", "Leaders", "The Bottle Test", "Voluntary Bottle
Out"); Shooting ("Escape from Pinning", "Down": the recovery roll); Advanced Rules ("Tests for
Fear", "Tests for Terror", "Special Fear and Terror Liabilities", "Tests for Stupidity",
"Hatred", "Frenzy"). Falls, jumps and structures live in :mod:`rulebook.classic.advanced`;
the ``test`` action dispatches to both.

A Leadership test is 2D6 against Ld: equal or under passes. A fighter within 6" of his leader
(who is neither down nor broken) may use the leader's Ld; one who hates his foe tests as if Ld
10. Each test here is a :class:`Check`: either no roll is needed (with the reason), or one
roll that passes or fails, perhaps followed by a D6 on a failure (stupidity). The same
:class:`Check` answers ``odds`` (exact) and ``roll`` (on a dice source, every die shown).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

from rulebook.classic import advanced
from rulebook.classic.resolution import INJURY, Target, injuries_odds
from rulebook.dice import TWO_D6, DiceSource, probability
from rulebook.editions import Action
from rulebook.errors import RulesInputError
from rulebook.output import dist, prob
from rulebook.query import Query
from rulebook.tables import Row, Table

HATRED_LD = 10

STUPIDITY_IN_COMBAT = Table(
    name="stupidity-in-combat",
    title="Stupidity in hand-to-hand",
    dice="D6",
    rows=(
        Row(1, 3, "No Attack dice", {"outcome": "no_attack_dice", "effect": "rolls no Attack dice; WS still counts"}),
        Row(4, 6, "Fights normally", {"outcome": "fights_normally", "effect": "fights as normal"}),
    ),
    source="1995 rulebook, Advanced Rules: Tests for Stupidity",
)
STUPIDITY_MOVING = Table(
    name="stupidity-movement",
    title="Stupidity out of hand-to-hand",
    dice="D6",
    rows=(
        Row(1, 3, "Wanders", {"outcome": "wanders", "effect": "moves his full move where the Scatter dice points"}),
        Row(4, 6, "Stands still", {"outcome": "stands_still", "effect": "does not move"}),
    ),
    source="1995 rulebook, Advanced Rules: Tests for Stupidity",
)


@dataclass(frozen=True)
class Check:
    """One test: a roll (``"2D6"`` under Ld, ``"D6"`` under I) against ``target``, or none."""

    kind: str
    dice: str | None  # "2D6", "D6", or None when no roll is needed
    target: int | None
    on_pass: str
    on_fail: str
    why: tuple[str, ...] = ()
    automatic: str | None = None  # "pass" or "fail" when no roll is made
    after_fail: Table | None = None
    extra: tuple[tuple[str, object], ...] = ()

    def p_pass(self) -> Fraction:
        if self.dice is None:
            return Fraction(int(self.automatic == "pass"))
        if self.dice == "2D6":
            return probability(TWO_D6, lambda total: total <= self.target)
        return Fraction(max(0, min(6, self.target)), 6)

    def outcomes(self) -> dict:
        p = self.p_pass()
        out = {self.on_pass: p}
        if self.after_fail is None:
            out[self.on_fail] = out.get(self.on_fail, 0) + (1 - p)
            return out
        for row in self.after_fail.rows:
            key = row.details["outcome"]
            out[key] = out.get(key, 0) + (1 - p) * Fraction(row.high - row.low + 1, 6)
        return out

    def head(self) -> dict:
        return {
            "kind": self.kind,
            "test": None if self.dice is None else f"{self.dice} <= {self.target}",
            "why": list(self.why),
            **dict(self.extra),
        }

    def odds(self) -> dict:
        return {**self.head(), **prob("p_pass", self.p_pass()), **dist("outcome", self.outcomes())}

    def roll(self, dice: DiceSource) -> dict:
        answer = self.head()
        if self.dice is None:
            passed = self.automatic == "pass"
            answer["rolled"] = None
        else:
            label = "Ld" if self.dice == "2D6" else "I"
            purpose = f"{self.kind} test ({label} {self.target})"
            rolled = sum(dice.two_d6(purpose)) if self.dice == "2D6" else dice.d6(purpose)
            passed = rolled <= self.target
            answer["rolled"] = rolled
        answer["passed"] = passed
        answer["outcome"] = self.on_pass if passed else self.on_fail
        if not passed and self.after_fail is not None:
            row = self.after_fail.roll(dice)
            answer["after_fail"] = row
            answer["outcome"] = row["outcome"]
        return answer


def no_test(kind: str, why: str, result: str, automatic: str = "pass", **extra) -> Check:
    return Check(kind, None, None, result, result, (why,), automatic, extra=tuple(extra.items()))


# --- Leadership -----------------------------------------------------------------------------


def leadership(q: Query) -> tuple[int, list[str]]:
    """The Ld a fighter tests on: his own, his leader's within 6" if better, or 10 if he hates."""
    ld = q.int("Ld", 2, 10)
    why = [f"own Ld {ld}"]
    if q.has("leader"):
        leader = q.sub("leader")
        leader_ld = leader.int("Ld", 2, 10)
        within, unable = leader.bool("within_6", True), leader.bool("down") | leader.bool("broken")
        if not within:
            why.append('leader more than 6" away')
        elif unable:
            why.append("leader is down or broken and cannot lend his Ld")
        elif leader_ld > ld:
            ld = leader_ld
            why.append(f'leader within 6": uses his Ld {leader_ld}')
    if q.bool("hatred"):
        ld = HATRED_LD
        why.append("hates his foe: tests as if Ld 10")
    return ld, why


def ld_check(q: Query, kind: str, on_pass: str, on_fail: str, why=(), after_fail: Table | None = None) -> Check:
    ld, reasons = leadership(q)
    return Check(kind, "2D6", ld, on_pass, on_fail, (*why, *reasons), after_fail=after_fail)


def leadership_check(q: Query) -> Check:
    return ld_check(
        q, "leadership", "keeps_nerve", "broken", ('fails on more than Ld; broken fighters run 2D6" to cover',)
    )


def nerve_check(q: Query) -> Check:
    """A broken fighter recovering his nerve in the recovery phase (Recovering Your Nerve)."""
    if q.bool("broken_this_turn"):
        return no_test("nerve", "broke this turn: cannot recover in the same turn", "broken", "fail")
    if not q.bool("in_cover_unseen", True):
        return no_test("nerve", "must be in cover and out of enemy sight to try", "broken", "fail")
    return ld_check(q, "nerve", "recovered", "broken")


def bottle_check(q: Query) -> Check:
    """The Bottle test at the start of the turn (The Bottle Test, Voluntary Bottle Out)."""
    size = q.int("gang_size", 1, 100)
    casualties = q.int("down_or_out", 0, size)
    voluntary = casualties >= 2
    extra = {"down_or_out": casualties, "gang_size": size, "voluntary_bottle_allowed": voluntary}
    if 4 * casualties < size:
        return no_test("bottle", f"fewer than a quarter of {size} down or out of action", "fights_on", **extra)
    leader = q.sub("leader")
    leader.accept("Ld")  # a leader down or out lends no Ld
    if not leader.bool("down_or_out"):
        ld = leader.int("Ld", 2, 10)
        why = f"gang leader's Ld {ld}"
    else:
        others = q.raw("fighters_Ld", None)
        if not isinstance(others, list) or not others:
            raise RulesInputError(
                "fighters_Ld", "with the leader down or out, list the Ld of every fighter still standing"
            )
        for i, value in enumerate(others):
            if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 10:
                raise RulesInputError(f"fighters_Ld[{i}]", f"must be a whole number 2-10, not {value!r}")
        ld = max(others)
        why = f"leader down or out of action: highest Ld standing, {ld}"
    reasons = (f"{casualties} of {size} down or out of action: a quarter or more", why)
    return Check("bottle", "2D6", ld, "fights_on", "bottles_out", reasons, extra=tuple(extra.items()))


def escape_pinning_check(q: Query) -> Check:
    """A pinned fighter's D6 under Initiative at the start of his turn (Escape from Pinning)."""
    if q.bool("in_hand_to_hand"):
        return no_test("escape_pinning", "engaged in hand-to-hand: escapes pinning automatically", "escapes")
    if not q.bool("friend_within_2", True):
        return no_test(
            "escape_pinning",
            'no friend within 2" (juves, down and broken fighters do not count): stays pinned this turn',
            "stays_pinned",
            "fail",
        )
    initiative = q.int("I", 0, 10)
    return Check("escape_pinning", "D6", initiative, "escapes", "stays_pinned", ("D6 equal to or under I",))


def _immune(q: Query) -> str | None:
    if q.bool("frenzied"):
        return "frenzied fighters are never affected by fear, terror, stupidity or hatred"
    if q.bool("causes_terror"):
        return "causes terror himself: not affected by fear or terror"
    if q.bool("stupefied"):
        return "failed his stupidity test: takes no tests for fear or terror"
    return None


FEAR_SITUATIONS = {
    "charged_by": ("stands", "broken", 'charged by a fearsome foe: if failed, broken and runs 2D6" to cover'),
    "wants_to_charge": (
        "charges",
        "transfixed",
        "wants to charge a fearsome foe: if failed, may not charge and does nothing this turn",
    ),
}


def fear_check(q: Query) -> Check:
    situation = q.choice("situation", FEAR_SITUATIONS)
    on_pass, on_fail, why = FEAR_SITUATIONS[situation]
    reason = _immune(q) or ("causes fear himself: no test for fear" if q.bool("causes_fear") else None)
    if reason:
        return no_test("fear", reason, on_pass)
    return ld_check(q, "fear", on_pass, on_fail, (why,))


def terror_check(q: Query) -> Check:
    """Terror: a fear test when charging or charged, and a test within 8" at the start of the turn."""
    situation = q.choice("situation", (*FEAR_SITUATIONS, "within_8"))
    reason = _immune(q)
    if reason:
        return no_test("terror", reason, "unaffected")
    if situation != "within_8":
        on_pass, on_fail, why = FEAR_SITUATIONS[situation]
        if q.bool("causes_fear"):
            return no_test("terror", "causes fear himself: treats terror as fear and so takes no test", on_pass)
        return ld_check(q, "terror", on_pass, on_fail, ("terror causes fear: " + why,))
    if q.bool("causes_fear"):
        return no_test("terror", 'causes fear himself: no test for being within 8"', "unaffected")
    why = 'within 8" of a terrifying foe at the start of the turn: if failed, broken and runs 2D6" to cover'
    return ld_check(q, "terror", "unaffected", "broken", (why,))


def stupidity_check(q: Query) -> Check:
    if q.bool("frenzied"):
        return no_test("stupidity", "frenzied fighters are not affected by stupidity", "acts_normally")
    table = STUPIDITY_IN_COMBAT if q.bool("in_hand_to_hand") else STUPIDITY_MOVING
    why = ("Ld test at the start of the turn; if failed, a D6 decides what he does",)
    return ld_check(q, "stupidity", "acts_normally", "stupid", why, after_fail=table)


FRENZY_EFFECTS = (
    "must charge the closest enemy within his charge move",
    "doubles his Attacks",
    "cannot parry",
    "must use a follow-up to engage or close on the enemy",
    "not affected by fear, terror, stupidity or hatred",
    "frenzy ends if he is broken",
)
HATRED_EFFECTS = (
    "takes every Leadership test as if Ld 10",
    "may re-roll any Attack dice in the first turn of a hand-to-hand fight",
    "must use a follow-up to engage, or move towards, a hated enemy",
)


def frenzy_check(q: Query) -> Check:
    """The optional test to gain control of a frenzied fighter at the start of the turn."""
    if q.bool("broken"):
        return no_test("frenzy", "broken: the frenzy rules no longer apply", "not_frenzied", effects=[])
    why = ("optional Ld test at the start of the turn to take control until the next turn",)
    check = ld_check(q, "frenzy", "under_control", "frenzied", why)
    return replace(check, extra=(("effects_while_frenzied", list(FRENZY_EFFECTS)),))


def hatred_check(q: Query) -> Check:
    """A Leadership test taken by a fighter who hates his foe (always as Ld 10)."""
    if q.bool("frenzied"):
        return no_test("hatred", "frenzied fighters are not affected by hatred", "unaffected", effects=[])
    ld = HATRED_LD
    return Check(
        "hatred",
        "2D6",
        ld,
        "keeps_nerve",
        "broken",
        ("hates his foe: tests as if Ld 10",),
        extra=(("effects", list(HATRED_EFFECTS)),),
    )


# --- the recovery roll for fighters who are down ------------------------------------------------


def recovery_odds(q: Query) -> dict:
    """A down fighter's D6 at the end of his recovery phase: the Injury chart again (Down)."""
    target = _down_fighter(q)
    outcome = injuries_odds(target, 1)
    return {
        "kind": "recovery",
        "why": [RECOVERY_WHY],
        **prob("p_pass", outcome.get("flesh_wound", 0)),
        **dist("outcome", outcome),
    }


RECOVERY_WHY = "D6 on the Injury chart: 1 recovers with a flesh wound (pinned a turn), 2-5 stays down, 6 out of action"


def _down_fighter(q: Query) -> Target:
    ws = q.int("WS", 0, 10, default=None) if q.has("WS") else None
    bs = q.int("BS", 0, 10, default=None) if q.has("BS") else None
    return Target(T=3, wounds_left=0, flesh_wounds=q.int("flesh_wounds", 0, 10, default=0), WS=ws, BS=bs)


def recovery_roll(q: Query, dice: DiceSource) -> dict:
    target = _down_fighter(q)
    row = INJURY.roll(dice)
    outcome = row["outcome"]
    if outcome == "flesh_wound" and target.bled_out(target.flesh_wounds + 1):
        outcome = "out_of_action"
        row["note"] = "a further flesh wound brings WS and BS to 0: out of action"
    return {
        "kind": "recovery",
        "why": [RECOVERY_WHY],
        "injury": row,
        "passed": outcome == "flesh_wound",
        "outcome": outcome,
    }


# --- the test action ---------------------------------------------------------------------------

CHECKS: dict[str, Callable[[Query], Check]] = {
    "leadership": leadership_check,
    "nerve": nerve_check,
    "bottle": bottle_check,
    "escape_pinning": escape_pinning_check,
    "fear": fear_check,
    "terror": terror_check,
    "stupidity": stupidity_check,
    "frenzy": frenzy_check,
    "hatred": hatred_check,
}
# The fields each check may read. A check that needs no dice (a frenzied fighter fears nothing) stops before
# reading the rest, which are still fields it knows, not misspellings to refuse.
_LD_FIELDS = ("Ld", "leader", "hatred")
_FEAR_FIELDS = (*_LD_FIELDS, "frenzied", "causes_terror", "stupefied", "causes_fear", "situation")
KNOWN_FIELDS = {
    "leadership": _LD_FIELDS,
    "nerve": (*_LD_FIELDS, "in_cover_unseen", "broken_this_turn"),
    "bottle": ("gang_size", "down_or_out", "leader", "fighters_Ld"),
    "escape_pinning": ("in_hand_to_hand", "friend_within_2", "I"),
    "fear": _FEAR_FIELDS,
    "terror": _FEAR_FIELDS,
    "stupidity": (*_LD_FIELDS, "frenzied", "in_hand_to_hand"),
    "frenzy": (*_LD_FIELDS, "broken"),
    "hatred": (*_LD_FIELDS, "frenzied"),
}
OTHER_KINDS = {
    "recovery": (recovery_odds, recovery_roll),
    **advanced.KINDS,
}
KINDS = (*CHECKS, *OTHER_KINDS)


def _check(q: Query, kind: str) -> Check:
    check = CHECKS[kind](q)
    q.accept(*KNOWN_FIELDS[kind])
    return check


def check_odds(q: Query) -> dict:
    kind = q.choice("kind", KINDS)
    if kind in CHECKS:
        return _check(q, kind).odds()
    return OTHER_KINDS[kind][0](q)


def check_roll(q: Query, dice: DiceSource) -> dict:
    kind = q.choice("kind", KINDS)
    if kind in CHECKS:
        return _check(q, kind).roll(dice)
    return OTHER_KINDS[kind][1](q, dice)


ACTIONS = (Action("test", f"Leadership and other tests: {', '.join(KINDS)}", check_odds, check_roll),)
TABLES = (STUPIDITY_IN_COMBAT, STUPIDITY_MOVING)
