"""The campaign guide's scenario roll, scenarios, crews and battlefield tables, row by row."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook.dice import ScriptedDice, SeededDice
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.battlefield import (
    LOOT_CASKET,
    LOOT_CASKET_SMASH_AND_GRAB,
    REINFORCEMENT,
    home_turf_bottle_die,
    open_loot_casket,
    p_ransacked_ammo_test,
    ransack_ammo_cache,
    roll_home_turf_bottle_die,
)
from rulebook.n18.campaign.lasting_injury import STATUSES
from rulebook.n18.campaign.scenarios import (
    SCENARIO_TABLE,
    SCENARIOS,
    Crew,
    roll_crew_size,
    roll_scenario,
    scenario_distribution,
    select_crew,
)
from rulebook.roster import FighterSnapshot, pick_index

SCENARIO_ROWS = {
    2: "Smash & Grab",
    3: "Smash & Grab",
    4: "Smash & Grab",
    5: "Border Dispute",
    6: "Border Dispute",
    7: "Border Dispute",
    8: "Border Dispute",
    9: "The Trap",
    10: "The Trap",
    11: "Search & Destroy",
    12: "Search & Destroy",
}


@pytest.mark.parametrize(("roll", "name"), SCENARIO_ROWS.items())
def test_scenario_table_rows(roll, name):
    assert SCENARIO_TABLE.lookup(roll)["result"] == name


@pytest.mark.parametrize("roll", [0, 1, 13, 66, "x", "7.5"])
def test_scenario_table_refuses_what_2d6_cannot_roll(roll):
    with pytest.raises(RulesInputError) as err:
        SCENARIO_TABLE.lookup(roll)
    assert err.value.field == "roll"


def test_scenario_distribution_is_exact():
    assert scenario_distribution() == {
        "smash-and-grab": Fraction(6, 36),
        "border-dispute": Fraction(20, 36),
        "the-trap": Fraction(7, 36),
        "search-and-destroy": Fraction(3, 36),
    }


@pytest.mark.parametrize(
    ("dice", "slug", "attacker"),
    [
        ((1, 1), "smash-and-grab", "challenger"),
        ((3, 4), "border-dispute", None),
        ((4, 5), "the-trap", "challenger"),
        ((5, 6), "search-and-destroy", "challenger"),
    ],
)
def test_roll_scenario_with_scripted_dice(dice, slug, attacker):
    source = ScriptedDice(dice)
    rolled = roll_scenario(source)
    assert (rolled["roll"], rolled["slug"], rolled["attacker"]) == (sum(dice), slug, attacker)
    assert [r["value"] for r in source.log()] == list(dice)


def test_rescue_mission_needs_no_roll():
    source = ScriptedDice([])
    rolled = roll_scenario(source, rescue_mission=True)
    assert rolled["slug"] == "rescue-mission" and rolled["roll"] is None and source.log() == []
    assert rolled["attacker"] == "challenger"


@pytest.mark.parametrize(
    ("slug", "role", "label"),
    [
        ("smash-and-grab", "attacker", "Custom (8)"),
        ("smash-and-grab", "defender", "Hybrid (3+D6)"),
        ("border-dispute", "attacker", "Hybrid (D3+3) + Reinforcements"),
        ("the-trap", "defender", "Custom (6)"),
        ("search-and-destroy", "defender", "Random (D3+3) + Reinforcements"),
        ("search-and-destroy", "attacker", "Custom (10)"),
    ],
)
def test_scenario_crews_as_the_guide_writes_them(slug, role, label):
    assert SCENARIOS[slug].crew(role).label == label


def test_scenario_facts():
    sag, bd, trap, snd = (SCENARIOS[s] for s in ("smash-and-grab", "border-dispute", "the-trap", "search-and-destroy"))
    assert trap.home_turf == "defender" and all(s.home_turf is None for s in (sag, bd, snd))
    assert bd.roles is None and not bd.has_attacker
    casket_credits = sag.rewards[0]
    assert (casket_credits.recipient, casket_credits.amount, casket_credits.cap) == ("defender", "D6x10", "4D6x10")
    for scenario in (sag, bd, trap, snd):
        kinds = {r.kind for r in scenario.rewards}
        assert kinds == {"credits", "experience", "reputation"}, scenario.slug
        assert any(r.amount == "-1" and "bottled" in r.recipient for r in scenario.rewards)
        assert scenario.as_json()["sources"]


@pytest.mark.parametrize(
    ("table", "roll", "slug"),
    [
        (LOOT_CASKET, 1, "dangerous-goods"),
        (LOOT_CASKET, 2, "nothing-much"),
        (LOOT_CASKET, 3, "nothing-much"),
        (LOOT_CASKET, 4, "ammo-cache"),
        (LOOT_CASKET, 6, "ammo-cache"),
        (LOOT_CASKET_SMASH_AND_GRAB, 1, "booby-trapped"),
        (LOOT_CASKET_SMASH_AND_GRAB, 2, "valuable-goods"),
        (LOOT_CASKET_SMASH_AND_GRAB, 5, "valuable-goods"),
        (LOOT_CASKET_SMASH_AND_GRAB, 6, "jackpot"),
    ],
)
def test_loot_casket_rows(table, roll, slug):
    assert table.lookup(roll)["slug"] == slug


@pytest.mark.parametrize("roll", [0, 7, 12])
def test_loot_casket_is_a_d6_table(roll):
    with pytest.raises(RulesInputError):
        LOOT_CASKET.lookup(roll)


@pytest.mark.parametrize(
    ("dice", "smash_and_grab", "slug", "credits"),
    [
        ([3, 5], False, "nothing-much", 5),
        ([5], False, "ammo-cache", 0),
        ([4, 2], True, "valuable-goods", 20),
        ([6, 1, 2, 3], True, "jackpot", 60),
        ([1], True, "booby-trapped", 0),
    ],
)
def test_open_loot_casket(dice, smash_and_grab, slug, credits):
    source = ScriptedDice(dice)
    opened = open_loot_casket(source, smash_and_grab=smash_and_grab)
    assert (opened["slug"], opened["credits_gained"]) == (slug, credits)
    assert source.remaining == 0


def test_fleeing_defender_booby_trap_is_ignored():
    opened = open_loot_casket(ScriptedDice([1]), smash_and_grab=True, ignore_booby_trap=True)
    assert opened["effect"].startswith("ignored")


@pytest.mark.parametrize(
    ("roll", "who"), [(1, "enemy"), (2, "enemy"), (3, "controlling player"), (6, "controlling player")]
)
def test_reinforcement_rows(roll, who):
    assert REINFORCEMENT.lookup(roll)["deployed_by"] == who


def test_home_turf_bottle_die_keeps_the_lower():
    assert home_turf_bottle_die() == {k: Fraction(13 - 2 * k, 36) for k in range(1, 7)}
    assert roll_home_turf_bottle_die(ScriptedDice([5, 2])) == 2


@pytest.mark.parametrize(
    ("natural", "ammo", "passed", "exhausted"),
    [(2, 4, True, False), (1, 4, False, False), (4, 6, True, False), (3, 6, False, False), (6, 6, True, True)],
)
def test_ammo_cache(natural, ammo, passed, exhausted):
    test = ransack_ammo_cache(natural, ammo)
    assert (test.total, test.passed, test.cache_exhausted) == (natural + 2, passed, exhausted)


def test_ammo_cache_odds():
    assert p_ransacked_ammo_test(4) == Fraction(5, 6)
    assert p_ransacked_ammo_test(6) == Fraction(1, 2)


# --- crews ---------------------------------------------------------------------------------------

GANG = [
    FighterSnapshot({}, id="a"),
    FighterSnapshot({}, id="b", status="recovery"),
    FighterSnapshot({}, id="c"),
    FighterSnapshot({}, id="d", status="captured"),
    FighterSnapshot({}, id="e"),
    FighterSnapshot({}, id="f", status="convalescence"),
    FighterSnapshot({}, id="g"),
    FighterSnapshot({}, id="h"),
]


def test_random_crew_with_scripted_dice():
    # D3 = 2 so D3+3 = 5 random picks from a, c, e, g, h; then 6 is re-rolled (5 fighters), 3 picks e,
    # 4 picks h (of a, c, g, h), 1 picks a (bands of two among a, c, g), 4 picks g (of c, g), c is left.
    source = ScriptedDice([2, 6, 3, 4, 1, 4])
    crew = select_crew(Crew("random", None, "D3+3"), GANG, source)
    assert crew["random"] == ["e", "h", "a", "g", "c"]
    assert crew["unavailable"] == ["b", "d", "f"]
    assert source.remaining == 0
    assert [r["value"] for r in crew["dice"]] == [2, 6, 3, 4, 1, 4]


def test_hybrid_crew_keeps_the_chosen_and_picks_the_rest():
    source = ScriptedDice([1, 3])  # D6 = 1 random fighter; among c, e, g (bands of two) a 3 picks e
    crew = select_crew(Crew("hybrid", "3", "D6"), GANG, source, chosen=["a", "h"])
    assert crew["fighters"] == ["a", "h", "e"] and crew["may_choose"] == 3


def test_custom_crew_rolls_nothing():
    source = ScriptedDice([])
    assert select_crew(SCENARIOS["the-trap"].crew("attacker"), GANG, source, chosen=["a", "c"])["fighters"] == [
        "a",
        "c",
    ]


def test_crew_refuses_unavailable_or_too_many_chosen():
    with pytest.raises(RulesInputError) as err:
        select_crew(Crew("custom", "8"), GANG, ScriptedDice([]), chosen=["b"])
    assert err.value.field == "chosen[0]"
    with pytest.raises(RulesInputError) as err:
        select_crew(Crew("custom", "1"), GANG, ScriptedDice([]), chosen=["a", "c"])
    assert err.value.field == "chosen"


def test_roll_crew_size():
    assert roll_crew_size(Crew("hybrid", "D3", "3"), ScriptedDice([2])) == (2, 3)
    assert roll_crew_size(Crew("random", None, "D3+3"), ScriptedDice([3])) == (0, 6)


@pytest.mark.parametrize(
    ("count", "dice", "index"),
    [(4, [5, 6, 4], 3), (3, [4], 1), (2, [3], 0), (7, [6, 6, 1, 6], 1), (36, [6, 6], 35), (1, [], 0)],
)
def test_pick_index_is_read_from_the_dice(count, dice, index):
    source = ScriptedDice(dice)
    assert pick_index(count, source, "test") == index
    assert source.remaining == 0


@pytest.mark.parametrize("count", [2, 3, 4, 5, 7, 13])
def test_pick_index_is_uniform(count):
    # Every accepted reading of the dice maps to each index equally often.
    from itertools import product

    digits = 1 if count <= 6 else 2
    hits = [0] * count
    for faces in product(range(1, 7), repeat=digits):
        source = ScriptedDice([*faces, *([1] * 4)])
        value = 0
        for face in faces:
            value = value * 6 + face - 1
        if value < (6**digits // count) * count:
            hits[pick_index(count, source, "test")] += 1
    assert len(set(hits)) == 1


@given(st.lists(st.sampled_from(STATUSES), min_size=1, max_size=12), st.integers(0, 10_000))
def test_random_crews_pick_available_fighters_once(statuses, seed):
    fighters = [FighterSnapshot({}, id=str(i), status=s) for i, s in enumerate(statuses)]
    crew = select_crew(Crew("random", None, "D3+3"), fighters, SeededDice(seed))
    picked = crew["fighters"]
    assert len(picked) == len(set(picked)) <= 6
    assert all(fighters[int(i)].status in ("active",) for i in picked)
    assert len(picked) == min(crew["random_count"], sum(s == "active" for s in statuses))


# --- rewards --------------------------------------------------------------------------------------


def test_smash_and_grab_casket_credits_stop_at_four_dice():
    from rulebook.n18.campaign.scenarios import roll_reward

    reward = SCENARIOS["smash-and-grab"].rewards[0]
    source = ScriptedDice([1, 2, 3, 4])
    rolled = roll_reward(reward, source, times=5)
    assert (rolled["times"], rolled["total"]) == (4, 100) and source.remaining == 0


@pytest.mark.parametrize(
    ("amount", "dice", "total"), [("-1", [], -1), ("-D3", [2], -2), ("D3x10", [3], 30), ("D3", [1], 1)]
)
def test_reputation_and_credit_rewards(amount, dice, total):
    from rulebook.n18.campaign.scenarios import Reward, roll_reward

    assert roll_reward(Reward("reputation", "gang", amount), ScriptedDice(dice))["total"] == total


def test_reward_amounts_are_exact_distributions():
    from rulebook.roster import amount_distribution

    assert amount_distribution("-D3") == {-1: Fraction(1, 3), -2: Fraction(1, 3), -3: Fraction(1, 3)}
    assert sum(amount_distribution("3D6x10").values()) == 1 and min(amount_distribution("3D6x10")) == 30
    with pytest.raises(RulesInputError):
        amount_distribution("D7")
