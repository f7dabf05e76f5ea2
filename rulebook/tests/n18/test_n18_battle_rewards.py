"""Who is owed which scenario reward after a battle, the standard experience, and captive sales."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.battle_rewards import (
    ACTION_EFFECTS,
    STANDARD_EXPERIENCE,
    GangResult,
    TakenDown,
    captive_sale_price,
    rewards_due,
    standard_awards,
)
from rulebook.n18.campaign.post_battle import POST_BATTLE_ACTIONS
from rulebook.n18.campaign.scenarios import SCENARIOS, roll_reward


def owed(scenario, gang, awards=None, leader="L"):
    return sorted(
        (d.reward.kind, d.reward.recipient, d.reward.amount, d.times, d.fighter)
        for d in rewards_due(scenario, gang, awards or {}, leader=leader)
    )


@pytest.mark.parametrize(
    ("scenario", "gang", "expected"),
    [
        (
            "the-trap",
            GangResult("attacker", won=True),
            [
                ("credits", "victorious gang", "D6x10", 1, None),
                ("experience", "victorious gang's Leader", "D3", 1, "L"),
                ("reputation", "victorious gang", "D3", 1, None),
            ],
        ),
        (
            "the-trap",
            GangResult("defender", bottled=True),
            [("credits", "losing gang", "D3x10", 1, None), ("reputation", "each gang that bottled out", "-1", 1, None)],
        ),
        ("the-trap", GangResult("defender", draw=True), [("credits", "each gang", "D6x10", 1, None)]),
        (
            "smash-and-grab",
            GangResult("defender", won=True, caskets_opened=2),
            [
                ("credits", "defender", "D6x10", 3, None),
                ("experience", "victorious gang's Leader", "D3", 1, "L"),
                ("reputation", "victorious gang", "D3", 1, None),
            ],
        ),
        (
            "smash-and-grab",
            GangResult("attacker", won=True, caskets_opened=5),
            [
                ("experience", "victorious gang's Leader", "D3", 1, "L"),
                ("reputation", "victorious gang", "D3", 1, None),
            ],
        ),
        (
            "border-dispute",
            GangResult("attacker", draw=True, own_relic_defiled=True),
            [
                ("credits", "each gang", "D3x10", 1, None),
                ("reputation", "gang whose relic was defiled", "-D3", 1, None),
            ],
        ),
        (
            "border-dispute",
            GangResult("defender", won=True, enemy_relic_defiled=True),
            [
                ("credits", "each gang", "D6x10", 1, None),
                ("experience", "victorious gang's Leader", "D3", 1, "L"),
                ("reputation", "gang whose relic was not defiled", "D3", 1, None),
            ],
        ),
        (
            "search-and-destroy",
            GangResult("attacker", won=True, caches_destroyed=2),
            [("credits", "attacker", "D6x10", 2, None), ("reputation", "victorious gang", "D3", 1, None)],
        ),
    ],
)
def test_gang_rewards(scenario, gang, expected):
    assert owed(scenario, gang) == sorted(expected)


def test_fighter_rewards_and_the_standard_experience_in_every_scenario():
    awards = {"a": {"out_of_action": 2, "kills": 1}, "b": {"relic_defiled": 1, "rallies": 1}}
    got = owed("border-dispute", GangResult("attacker"), awards)
    assert ("experience", "fighter", "1", 2, "a") in got and ("experience", "fighter", "1", 1, "a") in got
    assert ("experience", "fighter who defiled an enemy relic", "D3", 1, "b") in got
    assert len([g for g in got if g[4] == "b"]) == 2
    # Search & Destroy lists the standard rewards itself: they are not owed twice.
    twice = owed("search-and-destroy", GangResult("attacker"), {"a": {"out_of_action": 1}})
    assert twice == [("experience", "fighter", "1", 1, "a")]
    assert len(STANDARD_EXPERIENCE) == 4


@pytest.mark.parametrize(("scenario", "name"), [("smash-and-grab", "Smash & Grab"), ("the-trap", "The Trap")])
def test_the_standard_experience_cites_the_battles_own_scenario(scenario, name):
    due = rewards_due(scenario, GangResult("defender"), {"a": {"out_of_action": 1}}, leader=None)
    (due,) = [d for d in due if d.fighter == "a"]
    assert due.reward.per == "enemy taken Out of Action"
    assert due.source.split(":")[0].endswith(f", {name}")


def test_victorious_leader_xp_needs_a_leader():
    assert owed("the-trap", GangResult("attacker", won=True), leader=None) == [
        ("credits", "victorious gang", "D6x10", 1, None),
        ("reputation", "victorious gang", "D3", 1, None),
    ]


def test_unknown_scenario_is_refused():
    with pytest.raises(RulesInputError) as err:
        rewards_due("gang-fight", GangResult("attacker"), {}, leader=None)
    assert err.value.field == "scenario"


def test_every_guide_action_has_an_effect():
    assert set(ACTION_EFFECTS) == set(POST_BATTLE_ACTIONS)


@given(st.integers(min_value=0, max_value=5000))
def test_captive_sells_for_half_its_value(value):
    assert captive_sale_price(value) == value // 2 and 2 * captive_sale_price(value) <= value


RESCUED = {"f": {"captives_freed": 2}, "c1": {"rescued": 1}, "c2": {"rescued": 1}}


def test_rescue_mission_won_owes_the_rulebooks_rewards():
    """2023 Core Rulebook, Rescue Mission: Rewards: two captives freed (both by fighter f), the attackers won."""
    assert owed("rescue-mission", GangResult("attacker", won=True, captives_freed=2), RESCUED) == [
        ("experience", "attacking gang's Leader", "D3", 1, "L"),
        ("experience", "captive freed", "1", 1, "c1"),
        ("experience", "captive freed", "1", 1, "c2"),
        ("experience", "fighter who freed a captive", "D3", 2, "f"),
        ("reputation", "attacker", "2", 2, None),
    ]
    assert owed("rescue-mission", GangResult("defender", captives_freed=2, bottled=True)) == [
        ("reputation", "defender", "-1", 2, None),
        ("reputation", "each gang that bottled out", "-1", 1, None),
    ]


def test_rescue_mission_draw_and_lost_owe_no_leader():
    """One of two captives freed is a draw: no Leader's D3; none freed (the captors won) owes nothing at all,
    and the captors' own Leader earns nothing for winning it."""
    draw = owed("rescue-mission", GangResult("attacker", draw=True, captives_freed=1), {"c1": {"rescued": 1}})
    assert draw == [("experience", "captive freed", "1", 1, "c1"), ("reputation", "attacker", "2", 1, None)]
    assert owed("rescue-mission", GangResult("attacker")) == []
    assert owed("rescue-mission", GangResult("defender", won=True)) == []


def test_rescue_mission_rewards_cite_the_2023_rulebook():
    due = rewards_due("rescue-mission", GangResult("attacker", won=True, captives_freed=1), {}, leader="L")
    assert {d.source for d in due} == {"2023 Core Rulebook, Scenarios: 11. Rescue Mission (necrovox copy): Rewards"}


def test_rescue_mission_reputation_is_exact_per_captive():
    """+2 and -1 per captive freed, no dice (none scripted, none asked for); the freer's D3 is rolled per captive."""
    rewards = {r.recipient: r for r in SCENARIOS["rescue-mission"].rewards}
    assert roll_reward(rewards["attacker"], ScriptedDice([]), times=3)["total"] == 6
    assert roll_reward(rewards["defender"], ScriptedDice([]), times=3)["total"] == -3
    freer = roll_reward(rewards["fighter who freed a captive"], ScriptedDice([2, 3]), times=2)
    assert freer["total"] == 2 + 3 and len(freer["dice"]) == 2


# --- the standard experience from the battle's record ---------------------------------------------------


@pytest.mark.parametrize(
    ("record", "expected"),
    [
        ([], {}),
        # Two Gangers taken Out of Action by one fighter: +1 each.
        ([TakenDown("out_of_action", "a"), TakenDown("out_of_action", "a")], {"a": {"out_of_action": 2}}),
        # A Leader, and a Champion killed: +1 more for each of them, +1 for the kill.
        (
            [TakenDown("out_of_action", "a", "leader"), TakenDown("out_of_action", "b", "champion", killed=True)],
            {
                "a": {"out_of_action": 1, "leader_or_champion_out_of_action": 1},
                "b": {"out_of_action": 1, "leader_or_champion_out_of_action": 1, "kills": 1},
            },
        ),
        # Seriously Injured, fine, or taken down by nobody named: nothing.
        ([TakenDown("seriously_injured", "a", "leader"), TakenDown("ok", "a"), TakenDown("out_of_action", None)], {}),
    ],
)
def test_standard_awards_count_each_enemy_taken_out_of_action(record, expected):
    assert standard_awards(record) == expected


def test_standard_awards_become_experience_in_every_scenario():
    # One enemy Leader taken Out of Action and killed: 1 + 1 + 1 = 3 XP, each with its own reward line.
    awards = standard_awards([TakenDown("out_of_action", "7", "leader", killed=True)])
    for scenario in ("smash-and-grab", "border-dispute", "the-trap", "search-and-destroy"):
        due = rewards_due(scenario, GangResult(side="attacker", draw=True), awards, leader=None)
        mine = [d for d in due if d.fighter == "7"]
        assert sum(d.times * int(d.reward.amount) for d in mine) == 3, scenario
