"""The result a battle's facts propose (campaign guide, each scenario's Victory; Rescue Mission, 2018+)."""

import pytest

from rulebook.n18.campaign.victory import SideFacts, proposed_result, trap_victory_points

A, D = "attacker", "defender"


def winner(scenario, attacker, defender, **facts):
    found = proposed_result(scenario, attacker, defender, **facts)
    return "undecided" if found is None else found.winner


@pytest.mark.parametrize(
    ("scenario", "attacker", "defender", "facts", "expected"),
    [
        ("smash-and-grab", SideFacts(), SideFacts(), {"caskets_opened": 3}, A),
        ("smash-and-grab", SideFacts(), SideFacts(), {"caskets_opened": 2}, D),
        ("smash-and-grab", SideFacts(), SideFacts(), {}, "undecided"),
        ("smash-and-grab", SideFacts(fled=True), SideFacts(), {"caskets_opened": 5}, D),  # fleeing loses
        (
            "border-dispute",
            SideFacts(standing=2, relic_defiled=False),
            SideFacts(standing=1, relic_defiled=True),
            {},
            A,
        ),
        (
            "border-dispute",
            SideFacts(standing=2, relic_defiled=False),
            SideFacts(standing=1, relic_defiled=False),
            {},
            None,
        ),
        (
            "border-dispute",
            SideFacts(standing=0, relic_defiled=False),
            SideFacts(standing=1, relic_defiled=False),
            {},
            D,
        ),
        ("border-dispute", SideFacts(standing=None, relic_defiled=False), SideFacts(standing=1), {}, "undecided"),
        ("the-trap", SideFacts(victory_points=4), SideFacts(victory_points=4), {}, None),
        ("the-trap", SideFacts(taken_out=("leader",)), SideFacts(taken_out=("ganger", "ganger")), {}, A),
        # 1 v 2 points, the attacker left alone on the battlefield: a D3 bonus of 1 draws, 2 or 3 wins.
        (
            "the-trap",
            SideFacts(standing=1, taken_out=("ganger",)),
            SideFacts(standing=0, taken_out=("champion",)),
            {},
            "undecided",
        ),
        # 2 v 1, the attacker left: any bonus wins.
        (
            "the-trap",
            SideFacts(standing=1, taken_out=("champion",)),
            SideFacts(standing=0, taken_out=("ganger",)),
            {},
            A,
        ),
        ("search-and-destroy", SideFacts(caches=2), SideFacts(caches=1), {}, None),  # 2 points each
        ("search-and-destroy", SideFacts(caches=3), SideFacts(caches=1), {}, A),
        ("search-and-destroy", SideFacts(caches=0), SideFacts(caches=1), {}, D),
        ("rescue-mission", SideFacts(), SideFacts(), {"captives": 2, "captives_freed": 2}, A),
        ("rescue-mission", SideFacts(), SideFacts(), {"captives": 2, "captives_freed": 1}, None),
        ("rescue-mission", SideFacts(), SideFacts(), {"captives": 2, "captives_freed": 0}, D),
        ("rescue-mission", SideFacts(), SideFacts(fled=True), {"captives": 1, "captives_freed": 0}, A),
    ],
)
def test_proposed_result(scenario, attacker, defender, facts, expected):
    assert winner(scenario, attacker, defender, **facts) == expected


def test_a_proposal_says_why_and_cites_its_source():
    found = proposed_result("smash-and-grab", SideFacts(), SideFacts(), caskets_opened=4)
    assert found.why == "4 loot caskets opened (3 win)"
    assert found.source == "club campaign guide 'Playing Necromunda Games in Cycle 1 & 2', Smash & Grab: Victory"


@pytest.mark.parametrize(
    ("side", "enemy", "expected"),
    [
        (SideFacts(taken_out=("leader", "ganger")), SideFacts(), (4, 7)),  # standing not recorded: the D3 may be owed
        (SideFacts(standing=2, taken_out=("champion",)), SideFacts(standing=0), (3, 5)),  # left on the battlefield
        (SideFacts(standing=2, taken_out=("champion",)), SideFacts(standing=1), (2, 2)),
        (SideFacts(standing=0, taken_out=()), SideFacts(standing=3), (0, 0)),
        (SideFacts(), SideFacts(standing=1), None),
    ],
)
def test_the_trap_victory_points_follow_from_the_record(side, enemy, expected):
    assert trap_victory_points(side, enemy) == expected
