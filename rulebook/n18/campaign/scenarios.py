"""The campaign guide's scenarios: the 2D6 scenario roll, the four scenarios as data, and crews.

Source: the club campaign guide "Playing Necromunda Games in Cycle 1 & 2", sections Roll for
Scenario and Campaign Cycle 1 & 2 Scenarios. Seed note 1: the table's rows read 2-4, 5-8, 9-10,
10-12, and the last scenario's heading says 11-12, so it is 2-4 Smash & Grab, 5-8 Border Dispute,
9-10 The Trap, 11-12 Search & Destroy; headings say "D6 Result" but the roll is 2D6.

A gang whose fighter is held captive may, instead of challenging for a Territory, challenge the
captors to the Rescue Mission: no roll. The guide names that scenario but gives none of its rules; where the
guide is silent we follow the 2023 Core Rulebook (necrovox copy, Scenarios: 11. Rescue Mission), whose
Rewards are :data:`RESCUE_MISSION`'s.

Crews as the guide writes them. Custom (N): the player picks up to N fighters. Random (X): X
fighters picked at random. Hybrid (X+Y): the player picks X, then Y more are picked at random (the
2018+ convention for "Hybrid Selection"); the guide's Hybrid (D3+3) is read literally: D3 chosen,
then 3 at random. Fighters in Recovery, in Convalescence (seed note 5: both miss the next battle),
Captured, awaiting treatment for a Critical Injury or dead cannot be picked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rulebook.dice import DiceSource, Dist
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.lasting_injury import CAPTURED, CONVALESCENCE, CRITICAL_INJURY, DEAD, RECOVERY
from rulebook.roster import FighterSnapshot, amount_dice, pick_index, roll_amount
from rulebook.tables import Row, Table

GUIDE = "club campaign guide 'Playing Necromunda Games in Cycle 1 & 2'"
UNAVAILABLE = frozenset({RECOVERY, CONVALESCENCE, CAPTURED, CRITICAL_INJURY, DEAD})
RESCUE_RULEBOOK = "2023 Core Rulebook, Scenarios: 11. Rescue Mission (necrovox copy)"
CHALLENGER_ATTACKS = (
    "In a campaign the gang that issued the challenge attacks; otherwise roll off and the winner chooses."
)


@dataclass(frozen=True)
class Crew:
    """How a gang picks its starting crew: ``custom``, ``hybrid`` or ``random``, with dice amounts."""

    method: str
    chosen: str | None = None
    random: str | None = None
    reinforcements: bool = False

    @property
    def label(self) -> str:
        amount = "+".join(part for part in (self.chosen, self.random) if part)
        text = f"{self.method.capitalize()} ({amount})"
        return f"{text} + Reinforcements" if self.reinforcements else text

    def as_json(self) -> dict:
        return {
            "label": self.label,
            "method": self.method,
            "chosen": self.chosen,
            "random": self.random,
            "reinforcements": self.reinforcements,
        }


@dataclass(frozen=True)
class Reward:
    """A reward as data: who gets it, of what kind, how much (a dice amount), per what and when."""

    kind: str
    recipient: str
    amount: str
    per: str | None = None
    condition: str | None = None
    cap: str | None = None

    def as_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class Caskets:
    """The loot caskets a scenario places and which roles may open them, with the table they are opened on.

    The guide's Battlefield Setup: each player places one loot casket unless the scenario says otherwise, and
    either gang may open them; Smash & Grab places five that only the attacker opens, on its own table."""

    count: int = 2
    openers: tuple[str, ...] = ("attacker", "defender")
    table: str = "loot-casket"
    source: str = f"{GUIDE}, Battlefield Setup and Opening Loot Caskets"
    # The role that rolls for every casket still unopened when the other gang bottles out and flees (Smash & Grab's
    # attacker, a Booby Trapped result doing nothing); None where the scenario says nothing of it.
    left_to: str | None = None

    def as_json(self) -> dict:
        return {
            "count": self.count,
            "openers": list(self.openers),
            "table": self.table,
            "source": self.source,
            "left_to": self.left_to,
        }


@dataclass(frozen=True)
class Scenario:
    slug: str
    name: str
    roles: str | None
    crews: tuple[tuple[str, Crew], ...]
    deployment: tuple[str, ...]
    ending: str
    victory: str
    rules: tuple[tuple[str, str], ...]
    rewards: tuple[Reward, ...]
    home_turf: str | None = None
    notes: str = ""
    sources: tuple[str, ...] = ()
    caskets: Caskets = Caskets()
    # The facts a battle report asks for this scenario beyond the fighters and the caskets, each read by its
    # Victory or Rewards: "caskets_opened" (a count), "relic", "caches", "victory_points".
    report_facts: tuple[str, ...] = ()
    # The weapon caches the scenario hides (Search & Destroy: one in each quarter of the battlefield).
    caches: int = 0
    # The deeds its rewards name a fighter for, with the roles whose fighters can do them: "relic_defiled",
    # "caches_destroyed", "caches_recovered".
    deeds: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Where the rewards come from when not the guide's own (the Rescue Mission's are the 2023 Core Rulebook's).
    rewards_source: str = ""

    @property
    def has_attacker(self) -> bool:
        return any(role in ("attacker", "defender") for role, _ in self.crews) or self.roles is not None

    @property
    def reinforced(self) -> tuple[str, ...]:
        """The roles whose crew receives Reinforcements during the battle (the scenario's crew rules)."""
        roles: list[str] = []
        for role, crew in self.crews:
            if crew.reinforcements:
                roles += ["attacker", "defender"] if role == "both" else [role]
        return tuple(roles)

    def crew(self, role: str) -> Crew:
        for name, crew in self.crews:
            if name in (role, "both"):
                return crew
        raise RulesInputError("role", f"{self.name} has no {role!r} crew; use {', '.join(r for r, _ in self.crews)}")

    def as_json(self) -> dict:
        return {
            "slug": self.slug,
            "name": self.name,
            "roles": self.roles,
            "crews": {role: crew.as_json() for role, crew in self.crews},
            "deployment": list(self.deployment),
            "ending": self.ending,
            "victory": self.victory,
            "rules": [{"name": n, "text": t} for n, t in self.rules],
            "rewards": [r.as_json() for r in self.rewards],
            "home_turf": self.home_turf,
            "notes": self.notes,
            "sources": list(self.sources),
            "caskets": self.caskets.as_json(),
            "report_facts": list(self.report_facts),
        }


def roll_reward(reward: Reward, dice: DiceSource, *, times: int = 1) -> dict:
    """Roll a reward ``times`` times (once per casket, cache ... for a ``per`` reward), keeping to its cap:
    Smash & Grab's D6x10 per unopened casket stops at 4D6x10, so at most four caskets are rolled for."""
    if times < 0:
        raise RulesInputError("times", f"must be at least 0, not {times}")
    if reward.cap:
        times = min(times, amount_dice(reward.cap) // max(1, amount_dice(reward.amount)))
    mark = len(dice.rolls)
    purpose = f"{reward.kind} for {reward.recipient}"
    amount = sum(roll_amount(reward.amount, dice, purpose) for _ in range(times))
    return {**reward.as_json(), "times": times, "total": amount, "dice": [r.as_json() for r in dice.rolls[mark:]]}


BOTTLED_OUT = Reward("reputation", "each gang that bottled out", "-1")
WINNING_LEADER_XP = Reward("experience", "victorious gang's Leader", "D3", condition="whether or not they took part")

SMASH_AND_GRAB = Scenario(
    slug="smash-and-grab",
    name="Smash & Grab",
    roles=CHALLENGER_ATTACKS,
    crews=(("attacker", Crew("custom", "8")), ("defender", Crew("hybrid", "3", "D6"))),
    deployment=(
        "Standard deployment (Scenario Rules: Gang Tactics).",
        "The defender sets up five loot caskets, each at least 6\" from the battlefield's middle line; "
        "no other loot caskets are used.",
    ),
    ending="Ends at the end of any round in which a gang has no fighters left on the battlefield.",
    victory="The attacker wins with at least three loot caskets opened at the end; otherwise the defender wins.",
    rules=(
        ("Loot caskets", "The defender cannot open caskets. The attacker rolls on Smash & Grab's own casket table."),
        (
            "Fleeing the battlefield",
            "A gang that voluntarily bottles out and flees loses. If the attacker wins this way it rolls for each "
            "remaining casket, ignoring Booby Trapped.",
        ),
    ),
    rewards=(
        Reward("credits", "defender", "D6x10", per="loot casket not opened", cap="4D6x10"),
        WINNING_LEADER_XP,
        Reward("reputation", "victorious gang", "D3"),
        BOTTLED_OUT,
    ),
    sources=(f"{GUIDE}, D6 Result 2-4: Smash & Grab",),
    report_facts=("caskets_opened",),
    caskets=Caskets(
        5,
        ("attacker",),
        "loot-casket-smash-and-grab",
        f"{GUIDE}, Smash & Grab: Deployment, Loot Caskets and Fleeing the Battlefield",
        left_to="attacker",
    ),
)

BORDER_DISPUTE = Scenario(
    slug="border-dispute",
    name="Border Dispute",
    roles=None,
    crews=(("both", Crew("hybrid", "D3", "3", reinforcements=True)),),
    deployment=(
        "Roll off: the winner picks a half of the battlefield as their turf and sets up one random fighter there, "
        '1" from the centre; the other player does the same in the other half.',
        "Starting with the player who set up first, players take turns setting up the rest of their crews "
        "(standard deployment).",
        'Each player places a gang relic (a token or small terrain piece) in their own turf, at least 5" from '
        "every battlefield edge.",
    ),
    ending="Ends at the end of any round in which a gang has no fighters left on the battlefield.",
    victory="A gang with fighters on the battlefield at the end (not counting Prone and Seriously Injured ones) "
    "whose relic was not defiled wins; anything else is a draw.",
    rules=(
        ("Gang relics", 'Friendly fighters within 6" of their relic add 2 to Cool and Leadership tests.'),
        (
            "Defile the Relic (Double)",
            'A fighter within 1" of an enemy relic defiles it: it gives no more bonus and cannot be defiled again.',
        ),
        (
            "Reinforcements",
            "At the start of each End phase each player rolls a D3 and receives that many Reinforcements, deployed "
            "one at a time, alternating, starting with the player who has Priority.",
        ),
        (
            "Fleeing the battlefield",
            "A gang that voluntarily bottles out and flees loses; if its relic was not defiled, a random fighter of "
            "the winners counts as having defiled it.",
        ),
    ),
    rewards=(
        Reward("credits", "each gang", "D6x10", condition="its relic was not defiled"),
        Reward("credits", "each gang", "D3x10", condition="its relic was defiled"),
        Reward("experience", "fighter who defiled an enemy relic", "D3"),
        WINNING_LEADER_XP,
        Reward("reputation", "gang whose relic was defiled", "-D3", condition="the other gang's relic was not"),
        Reward("reputation", "gang whose relic was not defiled", "D3", condition="the other gang's relic was"),
        BOTTLED_OUT,
    ),
    notes="No attacker or defender: turf is decided by a roll-off.",
    sources=(f"{GUIDE}, D6 Result 5-8: Border Dispute",),
    report_facts=("relic",),
    deeds=(("relic_defiled", ("attacker", "defender")),),
)

THE_TRAP = Scenario(
    slug="the-trap",
    name="The Trap",
    roles=CHALLENGER_ATTACKS,
    crews=(("both", Crew("custom", "6")),),
    deployment=(
        'The defender splits their fighters into groups of at least two and sets one group up within 2" of the centre.',
        'The attacker sets up their whole crew within 6" of any battlefield edge.',
        'For each other group the defender rolls a D6: 1-5 it sets up within 2" of the fighters in the centre; '
        '6 anywhere not within 2" of an enemy.',
    ),
    ending="Ends at the end of any round in which a gang has no fighters left; the other gang scores D3 bonus "
    "Victory Points.",
    victory="More Victory Points wins; equal points is a draw.",
    rules=(
        (
            "Decimate the opposition",
            "Victory Points for each enemy taken Out of Action: Leader 3, Champion 2, any other fighter 1.",
        ),
        (
            "Surprise attack",
            "Round 1 Priority: the defender rolls a D6, +1 for each fighter set up outside the centre; 6 or more "
            "takes Priority, otherwise the attacker does. In round 1 each fighter takes a Cool test when activated; "
            "on a fail it makes one action instead of two.",
        ),
    ),
    rewards=(
        Reward("credits", "victorious gang", "D6x10"),
        Reward("credits", "losing gang", "D3x10"),
        Reward("credits", "each gang", "D6x10", condition="the battle is a draw"),
        WINNING_LEADER_XP,
        Reward("reputation", "victorious gang", "D3"),
        BOTTLED_OUT,
    ),
    home_turf="defender",
    sources=(f"{GUIDE}, D6 Result 9-10: The Trap",),
    report_facts=("victory_points",),
)

SEARCH_AND_DESTROY = Scenario(
    slug="search-and-destroy",
    name="Search & Destroy",
    roles=None,
    crews=(("defender", Crew("random", None, "D3+3", reinforcements=True)), ("attacker", Crew("custom", "10"))),
    deployment=("Divide the battlefield into 4 equal areas, each hiding one weapon cache to be found.",),
    ending="Ends when only one gang has fighters left, or when every weapon cache is destroyed or recovered.",
    victory="The gang with more loot points wins; otherwise a draw.",
    rules=(
        (
            "Sweep and clear",
            'At the start of each round a gang may declare Active fighters, more than 6" from any edge and outside '
            "both deployment zones, to be searching areas; they lose Ready and are not activated that round. In the "
            "End phase each searching fighter still Active finds the area's cache on a 5+ (gang with Priority "
            "first); the cache is placed next to the finder.",
        ),
        (
            "Weapon caches",
            "They count as loot caskets. The defender recovers one by carrying it off the battlefield from its own "
            "deployment zone (2 points). The attacker destroys one with a Double action in base contact and a "
            'passed Intelligence test, +1 for each friendly fighter within 2" (1 point).',
        ),
        ("Reinforcements", "The defender receives 1 Reinforcement each End phase from round 2."),
    ),
    rewards=(
        Reward("credits", "attacker", "D6x10", per="cache destroyed"),
        Reward("credits", "defender", "D6x10", per="cache recovered"),
        Reward("experience", "fighter who destroyed a cache", "D3"),
        Reward("experience", "fighter who recovered a cache", "D3"),
        Reward("experience", "fighter", "1", per="enemy taken Out of Action"),
        Reward("experience", "fighter", "1", per="enemy Leader or Champion taken Out of Action", condition="bonus"),
        Reward("experience", "fighter", "1", per="enemy killed during the battle"),
        Reward("experience", "fighter", "1", per="successful Rally"),
        Reward("reputation", "victorious gang", "D3"),
        BOTTLED_OUT,
    ),
    notes="The guide names attacker and defender crews but not who takes which role; we read it as the other "
    "scenarios: the challenger attacks.",
    sources=(f"{GUIDE}, D6 Result 11-12: Search & Destroy",),
    report_facts=("caches",),
    caches=4,
    deeds=(("caches_destroyed", ("attacker",)), ("caches_recovered", ("defender",))),
)

RESCUE_MISSION = Scenario(
    slug="rescue-mission",
    name="Rescue Mission",
    roles="The gang whose fighter is held captive attacks (the rescuers); the captors defend.",
    crews=(),
    deployment=(),
    ending="",
    victory="",
    rules=(),
    # The 2023 Core Rulebook's Rewards. "Freed" is the record's captives freed, who are the ones freed and taken
    # flight (the record's reading: a captive freed who did not get away stays captive), so the rescuers win
    # exactly when every captive is freed (or when the captors flee, which frees them), and their Leader's D3
    # is owed exactly then.
    rewards=(
        Reward("experience", "fighter who freed a captive", "D3", per="captive freed"),
        Reward("experience", "captive freed", "1", condition="freed and took flight"),
        Reward(
            "experience",
            "attacking gang's Leader",
            "D3",
            condition="every captive freed and took flight; whether or not they took part",
        ),
        Reward("reputation", "attacker", "2", per="captive freed"),
        Reward("reputation", "defender", "-1", per="captive freed"),
        BOTTLED_OUT,
    ),
    notes="Chosen instead of rolling when the challenger's fighter is held captive by the challenged gang. The "
    "guide gives no rules for it: use the rulebook's Rescue Mission.",
    sources=(f"{GUIDE}, Roll for Scenario", f"{RESCUE_RULEBOOK}: Rewards"),
    rewards_source=f"{RESCUE_RULEBOOK}: Rewards",
)

SCENARIOS = {s.slug: s for s in (SMASH_AND_GRAB, BORDER_DISPUTE, THE_TRAP, SEARCH_AND_DESTROY, RESCUE_MISSION)}

SCENARIO_TABLE = Table(
    name="scenario",
    title="Scenario",
    dice="2D6",
    rows=(
        Row(2, 4, SMASH_AND_GRAB.name, {"slug": SMASH_AND_GRAB.slug}),
        Row(5, 8, BORDER_DISPUTE.name, {"slug": BORDER_DISPUTE.slug}),
        Row(9, 10, THE_TRAP.name, {"slug": THE_TRAP.slug}),
        Row(11, 12, SEARCH_AND_DESTROY.name, {"slug": SEARCH_AND_DESTROY.slug}),
    ),
    source=f"{GUIDE}, Roll for Scenario; seed note 1 (the last row is 11-12; the roll is 2D6)",
)


def scenario_distribution() -> Dist:
    """Exact chance of each scenario on the 2D6 roll, by slug."""
    by_name = SCENARIO_TABLE.distribution()
    return {s.slug: by_name[s.name] for s in SCENARIOS.values() if s.name in by_name}


def roll_scenario(dice: DiceSource, *, rescue_mission: bool = False) -> dict:
    """The scenario for a challenge: the 2D6 roll (either player may roll both dice, or one each), or
    the Rescue Mission when the challenger chose it; with who attacks and the crew rules."""
    if rescue_mission:
        scenario, roll = RESCUE_MISSION, None
    else:
        roll = sum(dice.two_d6("Scenario"))
        scenario = SCENARIOS[SCENARIO_TABLE.row(roll).details["slug"]]
    return {
        "roll": roll,
        "result": scenario.name,
        "slug": scenario.slug,
        "attacker": "challenger" if scenario.has_attacker else None,
        "defender": "challenged gang" if scenario.has_attacker else None,
        "scenario": scenario.as_json(),
    }


# --- crews ---------------------------------------------------------------------------------------


def available(fighters: Iterable[FighterSnapshot]) -> list[FighterSnapshot]:
    """The fighters who may be picked for a crew."""
    return [f for f in fighters if f.status not in UNAVAILABLE]


def roll_crew_size(crew: Crew, dice: DiceSource) -> tuple[int, int]:
    """How many fighters the player chooses and how many are picked at random."""
    chosen = roll_amount(crew.chosen, dice, f"{crew.label} crew: fighters chosen") if crew.chosen else 0
    randomly = roll_amount(crew.random, dice, f"{crew.label} crew: fighters at random") if crew.random else 0
    return chosen, randomly


def select_crew(
    crew: Crew,
    fighters: Sequence[FighterSnapshot],
    dice: DiceSource,
    *,
    chosen: Sequence[str] = (),
    size: tuple[int, int] | None = None,
) -> dict:
    """Pick a starting crew: the player's ``chosen`` ids, then random picks among the other available
    fighters, every die shown. ``size`` is (chosen, random) if already rolled with :func:`roll_crew_size`.
    A gang short of fighters fields all it has."""
    ids = [f.id for f in fighters]
    if None in ids or len(set(ids)) != len(ids):
        raise RulesInputError("fighters", "every fighter needs a distinct id")
    pool = [f.id for f in available(fighters)]
    mark = len(dice.rolls)
    max_chosen, max_random = size if size is not None else roll_crew_size(crew, dice)
    for i, fighter_id in enumerate(chosen):
        if fighter_id not in pool:
            raise RulesInputError(f"chosen[{i}]", f"{fighter_id!r} is not an available fighter of this gang")
    if len(set(chosen)) > max_chosen:
        raise RulesInputError("chosen", f"{crew.label} lets the player choose {max_chosen}, not {len(set(chosen))}")
    rest = [fighter_id for fighter_id in pool if fighter_id not in chosen]
    picked: list[str] = []
    while rest and len(picked) < max_random:
        purpose = f"{crew.label} crew: random pick {len(picked) + 1} of {max_random} among {len(rest)}"
        picked.append(rest.pop(pick_index(len(rest), dice, purpose)))
    return {
        "crew": crew.as_json(),
        "may_choose": max_chosen,
        "random_count": max_random,
        "chosen": list(dict.fromkeys(chosen)),
        "random": picked,
        "fighters": [*dict.fromkeys(chosen), *picked],
        "unavailable": [f.id for f in fighters if f.id not in pool],
        "dice": [r.as_json() for r in dice.rolls[mark:]],
    }
