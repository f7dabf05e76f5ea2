"""After a battle: which scenario rewards a gang and its fighters receive, and what each post-battle
action does.

Sources:

- The club campaign guide "Playing Necromunda Games in Cycle 1 & 2" (GUIDE), each scenario's
  Rewards (the rewards themselves are data in :mod:`.scenarios`). This module only decides who is
  owed which reward, and how many times, from the battle's facts.
- The same guide's Search & Destroy lists four "Standard rewards" of experience (+1 for an enemy
  taken Out of Action, +1 more for an enemy Leader or Champion, +1 for a kill during the battle,
  +1 for a Rally). Our reading: "standard" means the rules' standard experience, owed after every
  battle, so every scenario gives them (Search & Destroy does not give them twice).
- The Rescue Mission, which the guide names without rules: the 2023 Core Rulebook's Rewards (its data in
  :mod:`.scenarios`): D3 XP to the fighter who freed each captive, 1 XP to each captive freed and taken flight,
  D3 XP to the attackers' Leader when every captive was, +2 Reputation to the attacker and -1 to the defender
  per captive freed, -1 to a gang that bottled out. The record's captives freed are those freed and taken
  flight (a captive freed who did not get away stays captive), which is also who won: the attacker wins
  exactly when every captive was freed, so that Leader's D3 is owed to an attacker that won.
- Smash & Grab sets up five loot caskets (its deployment), so the unopened ones are 5 minus those
  opened.
- Post-battle actions: the guide names Trade, Sell to Guilders, Claim Bounties, Dispose of
  Captives and Medical Escort (with its D6 table) but gives the first four no effects. Our reading,
  marked as such wherever it is shown: Trade is a visit to the Trading Post (the player buys as
  usual in Update Roster); Sell to Guilders sells one captive the gang holds for half its value
  in credits, the 2018+ rules' price for a captive sold to the Guilders as public summaries give
  it; Dispose of Captives kills a captive the gang holds; Claim Bounties hands a captive the gang
  holds to the Guilders for the bounty on them, their full value (the 2018+ rules' captive options as
  necrovox's old campaigns "Being Captured" summarises them: half the cost sold to the Guilders, the
  full cost as a bounty). A bounty needs a real captive: no number is typed. An arbitrator can correct
  any of them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rulebook.errors import RulesInputError
from rulebook.n18.campaign.scenarios import SCENARIOS, SEARCH_AND_DESTROY, Reward

GUIDE = "club campaign guide 'Playing Necromunda Games in Cycle 1 & 2'"
LOOT_CASKETS = 5

# The report's per-fighter award counts each "per" of a fighter reward reads.
FIGHTER_AWARDS = {
    "enemy taken Out of Action": "out_of_action",
    "enemy Leader or Champion taken Out of Action": "leader_or_champion_out_of_action",
    "enemy killed during the battle": "kills",
    "successful Rally": "rallies",
}
FIGHTER_RECIPIENTS = {
    "fighter who defiled an enemy relic": "relic_defiled",
    "fighter who destroyed a cache": "caches_destroyed",
    "fighter who recovered a cache": "caches_recovered",
    # The Rescue Mission: the award counts the battle's record gives (who freed whom, who was freed), not typed.
    "fighter who freed a captive": "captives_freed",
    "captive freed": "rescued",
}
# A Leader's reward, owed when the gang won, to the side named (None: either side).
LEADERS = {"victorious gang's Leader": None, "attacking gang's Leader": "attacker"}
# The standard experience the battle's record decides (who took whom Out of Action, and kills): never a
# count the players type in, so a report cannot claim more than it records.
RECORD_AWARDS = ("out_of_action", "leader_or_champion_out_of_action", "kills")
HIERARCHY = ("leader", "champion")
STANDARD_EXPERIENCE = tuple(r for r in SEARCH_AND_DESTROY.rewards if r.recipient == "fighter")


def standard_source(scenario_name: str) -> str:
    """Where the standard experience of a battle of ``scenario_name`` comes from: that battle's own scenario
    first, so a Smash & Grab's +1 XP does not read as a Search & Destroy reward."""
    return (
        f"{GUIDE}, {scenario_name}: standard experience (the guide lists it once, as Search & Destroy's "
        "Standard rewards; read as owed after every battle)"
    )


@dataclass(frozen=True)
class GangResult:
    """One gang's side of a confirmed battle, as the rewards ask about it."""

    side: str
    won: bool = False
    draw: bool = False
    bottled: bool = False
    own_relic_defiled: bool = False
    enemy_relic_defiled: bool = False
    caskets_opened: int = 0
    caches_destroyed: int = 0
    caches_recovered: int = 0
    captives_freed: int = 0  # a Rescue Mission's captives freed (and taken flight)

    @property
    def lost(self) -> bool:
        return not self.won and not self.draw


@dataclass(frozen=True)
class RewardDue:
    """A reward owed: to the gang (``fighter`` None) or to one fighter (its id), rolled ``times`` times."""

    reward: Reward
    times: int
    fighter: str | None = None
    source: str = ""

    def as_json(self) -> dict:
        return {"reward": self.reward.as_json(), "times": self.times, "fighter": self.fighter, "source": self.source}


@dataclass(frozen=True)
class TakenDown:
    """One fighter's end in the battle's record: taken Out of Action (or Seriously Injured, or fine) by the
    enemy fighter ``by``; ``category`` is the fighter's (Leader and Champion count once more); ``killed``
    when they died during the battle itself."""

    outcome: str
    by: str | None = None
    category: str = "ganger"
    killed: bool = False


STANDARD_AWARDS_SOURCE = (
    f"{GUIDE}, Search & Destroy: Standard rewards; the 2018+ rules' Gaining Experience as public summaries give it "
    "(necrovox, old campaigns: Experience): +1 for each enemy taken Out of Action as the direct result of the "
    "fighter's action, +1 more for a Leader or Champion, +1 more for killing them"
)


def standard_awards(record: Iterable[TakenDown]) -> dict[str, dict[str, int]]:
    """The award counts the record gives each enemy fighter who took someone down, by that fighter's id.

    Only Out of Action counts: an enemy left Seriously Injured earns nothing (the 2018+ rules before the 2023
    Core Rulebook). A kill is only a kill of a fighter taken Out of Action."""
    awards: dict[str, dict[str, int]] = {}
    for down in record:
        if down.outcome != "out_of_action" or down.by is None:
            continue
        counts = awards.setdefault(down.by, dict.fromkeys(RECORD_AWARDS, 0))
        counts["out_of_action"] += 1
        counts["leader_or_champion_out_of_action"] += down.category in HIERARCHY
        counts["kills"] += down.killed
    return {fid: {k: v for k, v in counts.items() if v} for fid, counts in awards.items()}


def _gang_times(reward: Reward, gang: GangResult) -> int:
    """How many times a gang reward is owed (0: not owed)."""
    recipient, condition = reward.recipient, reward.condition
    owed = {
        "attacker": gang.side == "attacker",
        "defender": gang.side == "defender",
        "victorious gang": gang.won,
        "losing gang": gang.lost and not gang.draw,
        "each gang that bottled out": gang.bottled,
        "gang whose relic was defiled": gang.own_relic_defiled and not gang.enemy_relic_defiled,
        "gang whose relic was not defiled": not gang.own_relic_defiled and gang.enemy_relic_defiled,
        "each gang": {
            None: True,
            "its relic was not defiled": not gang.own_relic_defiled,
            "its relic was defiled": gang.own_relic_defiled,
            "the battle is a draw": gang.draw,
        }.get(condition, False),
    }
    if recipient not in owed:
        raise RulesInputError("reward.recipient", f"no reading for a reward to {recipient!r}")
    if not owed[recipient]:
        return 0
    per = {
        None: 1,
        "loot casket not opened": max(0, LOOT_CASKETS - gang.caskets_opened),
        "cache destroyed": gang.caches_destroyed,
        "cache recovered": gang.caches_recovered,
        "captive freed": gang.captives_freed,
    }
    if reward.per not in per:
        raise RulesInputError("reward.per", f"no reading for a reward per {reward.per!r}")
    return per[reward.per]


def rewards_due(
    scenario: str, gang: GangResult, fighter_awards: Mapping[str, Mapping[str, int]], *, leader: str | None
) -> list[RewardDue]:
    """Every reward of ``scenario`` (plus the standard experience) owed to ``gang`` and its fighters.

    ``fighter_awards`` maps a fighter id to the report's award counts (``{"out_of_action": 2, ...}``);
    ``leader`` is the gang's Leader, who earns the victorious Leader's XP whether or not they fought.
    """
    if scenario not in SCENARIOS:
        raise RulesInputError("scenario", f"unknown scenario {scenario!r}")
    found = SCENARIOS[scenario]
    source = found.rewards_source or f"{GUIDE}, {found.name}: Rewards"
    rewards = [(r, source) for r in found.rewards]
    rewards += [(r, standard_source(found.name)) for r in STANDARD_EXPERIENCE if r not in found.rewards]
    due: list[RewardDue] = []
    for reward, where in rewards:
        if reward.recipient in LEADERS:
            if gang.won and LEADERS[reward.recipient] in (None, gang.side) and leader is not None:
                due.append(RewardDue(reward, 1, leader, where))
        elif reward.recipient == "fighter" or reward.recipient in FIGHTER_RECIPIENTS:
            key = (
                FIGHTER_AWARDS.get(reward.per)
                if reward.recipient == "fighter"
                else FIGHTER_RECIPIENTS[reward.recipient]
            )
            if key is None:
                raise RulesInputError("reward.per", f"no reading for a fighter reward per {reward.per!r}")
            for fighter, awards in fighter_awards.items():
                if awards.get(key, 0) > 0:
                    due.append(RewardDue(reward, int(awards[key]), fighter, where))
        else:
            times = _gang_times(reward, gang)
            if times:
                due.append(RewardDue(reward, times, None, where))
    return due


# --- post-battle actions ----------------------------------------------------------------------------

ACTION_SOURCE = (
    f"{GUIDE}, Post Battle Actions; the effects of all but Medical Escort are our reading of the 2018+ rules, "
    "which an arbitrator can correct"
)
ACTION_EFFECTS = {
    "Trade": {
        "needs": None,
        # Seeking Rare and Illegal items rolls 2D6 for the Availability Level (rulebook.n18.campaign.trading), and
        # the account tells that roll; this is what a Trade that does not seek them does.
        "effect": "visits the Trading Post without seeking Rare or Illegal items: no dice; the gang buys as usual "
        "in Update Roster",
    },
    "Sell to Guilders": {"needs": "captive", "effect": "sells a captive the gang holds for half its value in credits"},
    "Claim Bounties": {
        "needs": "captive",
        "effect": "hands a captive the gang holds to the Guilders for the bounty: their full value in credits",
    },
    "Dispose of Captives": {"needs": "captive", "effect": "kills a captive the gang holds"},
    "Medical Escort": {"needs": "patient", "effect": "takes a fighter with a Critical Injury to the Doc (D6)"},
}


BOUNTY_SOURCE = (
    "the 2018+ rules' options for a captive (necrovox, old campaigns: Being Captured): a bounty is the captive's "
    "full cost"
)


def captive_price(action: str, value: int) -> int:
    """Credits a captive worth ``value`` brings: half sold to the Guilders, all of it as a bounty, nothing
    disposed of."""
    half = captive_sale_price(value)  # refuses a value below 0
    return {"Claim Bounties": value, "Sell to Guilders": half}.get(action, 0)


def captive_sale_price(value: int) -> int:
    """Credits the Guilders pay for a captive worth ``value`` credits: half, rounded down."""
    if value < 0:
        raise RulesInputError("captive.value", f"must be at least 0, not {value}")
    return value // 2
