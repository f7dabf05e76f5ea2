"""Classic shooting (1995 rulebook, Shooting): worked examples, charts, hand-computed odds, properties."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook.classic import blast
from rulebook.classic.shooting import TO_HIT, ToHit, shoot_odds, to_hit
from rulebook.classic.shooting_roll import _roll_who_is_hit, shoot_roll
from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.query import Query

OPEN = {"T": 3, "wounds_left": 1, "save": None}


def odds(**query):
    return shoot_odds(Query({"shooter": {"BS": 3}, "target": OPEN, **query}))


def exact(answer, key):
    return F(answer[f"{key}_exact"])


# --- the rulebook's worked examples ---------------------------------------------------------


def test_laspistol_at_twelve_inches_needs_five():
    answer = odds(weapon="laspistol", distance=12)
    assert answer["to_hit"] == {"needed": 5, "then": None}
    assert exact(answer, "p_hit") == F(1, 3)


def test_laspistol_at_twelve_inches_in_partial_cover_needs_six():
    answer = odds(weapon="laspistol", distance=12, cover="partial")
    assert answer["to_hit"] == {"needed": 6, "then": None}
    assert [m["value"] for m in answer["modifiers"]] == [-1, -1]


def test_juve_in_partial_cover_needs_a_six_then_four():
    answer = shoot_odds(
        Query({"shooter": {"BS": 2}, "weapon": "laspistol", "target": OPEN, "distance": 12, "cover": "partial"})
    )
    assert answer["to_hit"] == {"needed": 6, "then": 4}
    assert exact(answer, "p_hit") == F(1, 6) * F(1, 2)


@pytest.mark.parametrize("artillery,inches", [(2, 2), (4, 4), (6, 4), (8, 4), (10, 4)])
def test_goliath_shotgun_scatter_is_capped_at_half_the_distance(artillery, inches):
    assert blast.scatter_distance(artillery, 8, thrown=False) == inches


def test_shotgun_scatter_odds_at_eight_inches():
    answer = odds(weapon="shotgun", profile="scatter", distance=8)
    scatter = answer["scatter_if_missed"]
    assert {k: F(v) for k, v in scatter["distance_exact"].items()} == {"2": F(1, 6), "4": F(2, 3)}
    assert F(scatter["p_dud_exact"]) == F(1, 9)
    assert F(scatter["p_misfire_table_exact"]) == F(1, 18)


@pytest.mark.parametrize("artillery,inches", [(2, 1), (4, 2), (6, 3), (8, 4), (10, 5)])
def test_grenade_scatter_is_halved_and_uncapped(artillery, inches):
    # A grenade thrown at a target 2" away may land 5" away.
    assert blast.scatter_distance(artillery, 2, thrown=True) == inches


def test_half_inch_cap_for_an_odd_distance():
    assert blast.scatter_distance(10, 7, thrown=False) == 3.5


# --- charts --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bs,score", [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 1), (7, 0), (8, -1), (9, -2), (10, -3)]
)
def test_to_hit_chart_row_by_row(bs, score):
    row = TO_HIT.lookup(bs)
    assert row["score"] == score
    assert row["d6_needed"] == max(2, score)  # a 1 always misses


@pytest.mark.parametrize(
    "score,expected",
    [(-3, ToHit(2)), (2, ToHit(2)), (5, ToHit(5)), (6, ToHit(6)), (7, ToHit(6, 4)), (8, ToHit(6, 5)), (9, ToHit(6, 6))]
    + [(10, ToHit(None)), (12, ToHit(None))],
)
def test_seven_plus_rule(score, expected):
    assert ToHit.for_score(score) == expected
    assert to_hit(7 - score, 0) == expected


@pytest.mark.parametrize("strength,reach", [(1, 4), (2, 6), (3, 8), (4, 10), (5, 12), (7, 12), (10, 12)])
def test_grenade_range_by_strength(strength, reach):
    assert blast.grenade_range(strength) == reach
    assert blast.GRENADE_RANGE.lookup(strength)["range"] == reach


@pytest.mark.parametrize("roll,result", [(1, "Explodes on the firer"), (2, "Goes wild"), (6, "Dud")])
def test_misfire_table(roll, result):
    assert blast.MISFIRE_TABLE.lookup(roll)["result"] == result


# --- hand-computed cases -----------------------------------------------------------------------


def test_modifiers_stack_and_overwatch_counts_once():
    answer = odds(
        weapon="autogun",
        distance=6,
        modifiers=["overwatch_fleeting", "overwatch_charging", "rapid_moving", "large_target"],
    )
    # 4 to hit, +1 short range, -1 overwatch, -1 rapid moving, +1 large target.
    assert answer["to_hit"] == {"needed": 4, "then": None}


def test_small_and_large_together_is_refused():
    with pytest.raises(RulesInputError) as err:
        odds(weapon="autogun", distance=6, modifiers=["small_target", "large_target"])
    assert err.value.field == "modifiers"


def test_out_of_range_misses_but_still_checks_ammo_on_a_six():
    answer = odds(weapon="laspistol", distance=17)
    assert answer["range"] == "out_of_range"
    assert answer["to_hit"] == {"needed": None, "then": None}
    assert exact(answer, "p_hit") == 0
    assert answer["outcome_exact"]["miss"] == "1"
    assert exact(answer, "p_ammo_roll") == F(1, 6)
    assert exact(answer, "p_weapon_fails") == F(1, 6) * F(1, 6)  # 2+: only a 1 fails


def test_laspistol_outcome_by_hand():
    answer = odds(weapon="laspistol", distance=4)  # 4 to hit, +2 short range: needs 2
    hit, wound = F(5, 6), F(1, 2)
    assert {k: F(v) for k, v in answer["outcome_exact"].items()} == {
        "miss": F(1, 6),
        "no_wound": hit * (1 - wound),
        "saved": 0,
        "wound_lost": 0,
        "flesh_wound": hit * wound / 6,
        "down": hit * wound * 4 / 6,
        "out_of_action": hit * wound / 6,
    }
    assert exact(answer, "p_pinned") == hit * (1 - wound) + hit * wound / 6


def test_grenade_fails_its_ammo_test_automatically():
    answer = shoot_odds(Query({"shooter": {"BS": 3, "S": 3}, "weapon": "frag grenade", "target": OPEN, "distance": 8}))
    assert answer["range"] == "short"
    assert exact(answer, "p_ammo_roll") == F(1, 6)
    assert exact(answer, "p_weapon_fails") == F(1, 6)
    assert exact(answer, "p_explodes") == F(1, 36)  # no ammo roll, but a die anyway: a 1 explodes


def test_grenade_beyond_the_throwers_reach_is_out_of_range():
    answer = shoot_odds(Query({"shooter": {"BS": 3, "S": 2}, "weapon": "frag grenade", "target": OPEN, "distance": 7}))
    assert answer["range"] == "out_of_range"
    assert "scatter_if_missed" not in answer  # dissipates, no scatter


def test_throwing_a_grenade_needs_the_throwers_strength():
    with pytest.raises(RulesInputError) as err:
        odds(weapon="frag grenade", distance=4)
    assert err.value.field == "shooter.S"


def test_flamer_tests_ammo_every_shot_and_ignores_modifiers():
    answer = odds(weapon="flamer", under_template="partially", cover="cover")
    assert answer["to_hit"] is None
    assert exact(answer, "p_hit") == F(1, 2)
    assert exact(answer, "p_ammo_roll") == 1
    assert exact(answer, "p_weapon_fails") == F(1, 2)
    assert exact(answer, "p_explodes") == F(1, 6) * F(1, 2)


def test_hand_flamer_has_one_shot():
    answer = odds(weapon="hand flamer")
    assert exact(answer, "p_hit") == 1
    assert exact(answer, "p_weapon_fails") == 1
    assert exact(answer, "p_explodes") == 0


def test_heavy_stubber_sustained_fire_by_hand():
    answer = odds(weapon="heavy stubber", distance=10)  # BS3 needs 4; two Sustained Fire dice
    hits = {k: F(v) for k, v in answer["hits_exact"].items()}
    assert hits["0"] == F(1, 2) + F(1, 2) * F(1, 36)  # a miss, or both dice jam
    assert hits["6"] == F(1, 2) * F(1, 36)
    assert sum(hits.values()) == 1
    # No Ammo roll: the to-hit die shows 1-3, or 4-5 with no jam.
    assert exact(answer, "p_ammo_roll") == 1 - (F(1, 2) + F(1, 3) * F(25, 36))


def test_single_shot_from_a_sustained_fire_weapon():
    answer = odds(weapon="heavy stubber", distance=10, sustained_fire_dice=0)
    assert "hits" not in answer
    assert exact(answer, "p_hit") == F(1, 2)


def test_shooting_into_hand_to_hand_shares_the_hit_and_pins_nobody():
    answer = odds(weapon="autogun", distance=6, hand_to_hand_opponents=2)
    assert exact(answer, "p_hit") == F(2, 3) * F(1, 3)
    assert exact(answer, "p_hit_other_fighter") == F(2, 3) * F(2, 3)
    assert exact(answer, "p_pinned") == 0


def test_spread_hits_leave_one_on_the_target():
    answer = odds(weapon="heavy stubber", distance=10, spread_hits=True)
    hits = {k: F(v) for k, v in answer["hits_exact"].items()}
    assert hits == {"0": F(1, 2) + F(1, 2) * F(1, 36), "1": F(1, 2) * F(35, 36)}


def test_bystanders_under_a_blast_marker():
    answer = shoot_odds(
        Query(
            {
                "shooter": {"BS": 3, "S": 3},
                "weapon": "frag grenade",
                "target": OPEN,
                "distance": 6,
                "bystanders": [{"T": 3, "under": "wholly"}, {"T": 3, "under": "partially"}],
            }
        )
    )
    wholly, partly = answer["bystanders"]
    assert F(wholly["p_hit_exact"]) == F(1, 2)
    assert F(partly["p_hit_exact"]) == F(1, 4)
    assert sum(F(v) for v in partly["outcome_exact"].values()) == 1


def test_bystanders_need_a_marker_or_template():
    with pytest.raises(RulesInputError) as err:
        odds(weapon="autogun", distance=6, bystanders=[{"T": 3}])
    assert err.value.field == "bystanders"


def test_stray_shot_needs_a_one_then_a_one():
    assert exact(odds(weapon="autogun", distance=6, friend_in_path=True), "p_stray_hit") == F(1, 36)


def test_exploding_weapon_hits_the_shooter_one_strength_lower():
    query = {"shooter": {"BS": 3, "T": 3}, "weapon": "boltgun", "target": OPEN, "distance": 6}
    answer = shoot_odds(Query(query))
    # S4 boltgun explodes as S3 against T3: wounds on 4+.
    assert F(answer["explosion_on_shooter_exact"]["no_wound"]) == F(1, 2)


def test_plasma_pistol_profile_by_name():
    low = odds(weapon="plasma pistol", profile="low power", target={"T": 4}, distance=4)
    high = odds(weapon="plasma pistol", profile="maximum power", target={"T": 4}, distance=4)
    assert exact(high, "p_wound") > exact(low, "p_wound")


def test_a_weapon_with_several_profiles_needs_one_named():
    with pytest.raises(RulesInputError) as err:
        odds(weapon="plasma pistol", distance=4)
    assert err.value.field == "profile"


def test_web_pistol_cannot_be_worked_out_as_wounds():
    with pytest.raises(RulesInputError) as err:
        odds(weapon="web pistol", distance=4)
    assert err.value.field == "weapon"


# --- roll --------------------------------------------------------------------------------------


def test_roll_reports_every_die():
    query = Query({"shooter": {"BS": 3}, "weapon": "laspistol", "target": OPEN, "distance": 12})
    dice = ScriptedDice([6, 4, 6, 1, 1])
    answer = shoot_roll(query, dice)
    assert answer["outcome"] == "out_of_action"
    assert answer["weapon_explodes"] is True
    assert [r.value for r in dice.rolls] == [6, 4, 6, 1, 1]
    assert [s["step"] for s in answer["steps"]] == ["to hit", "wound", "damage", "injury", "ammo roll"]


def test_roll_a_missed_frag_grenade_scatters():
    query = Query({"shooter": {"BS": 3, "S": 3}, "weapon": "frag grenade", "target": OPEN, "distance": 4})
    answer = shoot_roll(query, ScriptedDice([2, "arrow", 10]))
    assert answer["outcome"] == "miss"
    assert answer["steps"][-1]["inches"] == 5


def test_roll_hit_and_misfire_goes_to_the_misfire_table():
    query = Query({"shooter": {"BS": 3, "S": 3}, "weapon": "frag grenade", "target": OPEN, "distance": 4})
    answer = shoot_roll(query, ScriptedDice([2, "hit", "misfire", 6]))
    assert answer["steps"][-1]["misfire"]["result"] == "Dud"


@pytest.mark.parametrize(
    "fighters,rolls,who", [(2, [3], 1), (2, [4], 2), (3, [5], 3), (4, [5, 1], 1), (4, [6, 6, 4], 4), (5, [6, 5], 5)]
)
def test_who_is_hit_in_a_combat_rerolls_what_six_does_not_split(fighters, rolls, who):
    dice = ScriptedDice(rolls)
    assert _roll_who_is_hit(fighters, dice) == who
    assert dice.remaining == 0


# --- properties ---------------------------------------------------------------------------------

profiles = st.fixed_dictionaries(
    {
        "short_range": st.integers(0, 12),
        "long_range": st.integers(12, 30),
        "hit_short": st.integers(-1, 2),
        "hit_long": st.integers(-1, 1),
        "strength": st.integers(1, 9),
        "damage": st.sampled_from(["1", "D3", "D6"]),
        "save_mod": st.integers(-3, 0),
        "ammo_roll": st.sampled_from([None, "2+", "4+", "6+", "auto"]),
        "sustained_fire": st.integers(0, 2),
        "template": st.sampled_from([None, None, "blast", "flamer"]),
    }
)
profiles = profiles.map(lambda w: {**w, "sustained_fire": 0} if w["template"] == "flamer" else w)
queries = (
    st.fixed_dictionaries(
        {
            "shooter": st.fixed_dictionaries({"BS": st.integers(0, 10), "T": st.integers(1, 5)}),
            "weapon": profiles,
            "target": st.fixed_dictionaries(
                {
                    "T": st.integers(1, 8),
                    "wounds_left": st.integers(0, 3),
                    "save": st.sampled_from([None, 4, 5, 6]),
                    "WS": st.integers(1, 4),
                    "BS": st.integers(1, 4),
                    "flesh_wounds": st.integers(0, 2),
                }
            ),
            "distance": st.integers(0, 32),
            "cover": st.sampled_from(["none", "partial", "cover"]),
            "modifiers": st.lists(st.sampled_from(["rapid_moving", "overwatch_fleeting", "small_target"]), unique=True),
            "hand_to_hand_opponents": st.integers(0, 2),
            "friend_in_path": st.booleans(),
            "spread_hits": st.booleans(),
        }
    )
    .map(lambda q: {**q, "hand_to_hand_opponents": 0} if q["weapon"]["template"] == "flamer" else q)
    .map(lambda q: {**q, "bystanders": [{"T": 3, "under": "partially"}]} if q["weapon"]["template"] else q)
)


def _p(answer, key, outcome=None):
    if outcome is None:
        return F(answer[f"{key}_exact"])
    return F(answer[f"{key}_exact"][outcome])


@settings(max_examples=60, deadline=None)
@given(queries)
def test_outcome_sums_to_one(query):
    answer = shoot_odds(Query(query))
    assert sum(F(v) for v in answer["outcome_exact"].values()) == 1
    assert all(F(v) >= 0 for v in answer["outcome_exact"].values())
    for key in ("p_hit", "p_wound", "p_unsaved", "p_pinned", "p_ammo_roll", "p_weapon_fails", "p_explodes"):
        assert 0 <= _p(answer, key) <= 1


def _with(query, path, value):
    out = {k: dict(v) if isinstance(v, dict) else v for k, v in query.items()}
    section, field = path
    out[section][field] = value
    return out


@settings(max_examples=60, deadline=None)
@given(queries)
def test_monotonic_in_bs_strength_and_toughness(query):
    base = shoot_odds(Query(query))
    if query["shooter"]["BS"] < 10:
        better = shoot_odds(Query(_with(query, ("shooter", "BS"), query["shooter"]["BS"] + 1)))
        assert _p(better, "p_hit") >= _p(base, "p_hit")
        assert _p(better, "outcome", "out_of_action") >= _p(base, "outcome", "out_of_action")
    if query["weapon"]["strength"] < 9:
        stronger = shoot_odds(Query(_with(query, ("weapon", "strength"), query["weapon"]["strength"] + 1)))
        assert _p(stronger, "p_unsaved") >= _p(base, "p_unsaved")
    tougher = shoot_odds(Query(_with(query, ("target", "T"), query["target"]["T"] + 1)))
    assert _p(tougher, "p_unsaved") <= _p(base, "p_unsaved")


@settings(max_examples=80, deadline=None)
@given(queries, st.data())
def test_every_roll_lies_in_the_support_of_odds(drawn_dice, query, data):
    dice = drawn_dice(data)
    rolled = shoot_roll(Query(query), dice)
    answer = shoot_odds(Query(query))
    assert _p(answer, "outcome", rolled["outcome"]) > 0
    if rolled["weapon_explodes"]:
        assert _p(answer, "p_explodes") > 0
    if rolled["weapon_fails"]:
        assert _p(answer, "p_weapon_fails") > 0
    for rolled_outcome, odds_bystander in zip(rolled.get("bystanders", []), answer.get("bystanders", []), strict=True):
        assert F(odds_bystander["outcome_exact"][rolled_outcome]) > 0
    replay = shoot_roll(Query(query), ScriptedDice(dice.faces))
    assert replay == rolled


@pytest.mark.parametrize(
    ("wounds_left", "dice", "after"),
    [
        (2, [5, 6], {"wounds_left": 1, "flesh_wounds": 0, "down": False, "out_of_action": False, "pinned": True}),
        (1, [5, 6, 1], {"wounds_left": 0, "flesh_wounds": 1, "down": False, "out_of_action": False, "pinned": True}),
        (1, [5, 6, 3], {"wounds_left": 0, "flesh_wounds": 0, "down": True, "out_of_action": False, "pinned": False}),
        (1, [5, 6, 6], {"wounds_left": 0, "flesh_wounds": 0, "down": False, "out_of_action": True, "pinned": False}),
        (1, [4], {"wounds_left": 1, "flesh_wounds": 0, "down": False, "out_of_action": False, "pinned": False}),
    ],
)
def test_the_roll_answers_the_target_as_the_shot_left_him(wounds_left, dice, after):
    query = {
        "shooter": {"BS": 3},
        "weapon": "laspistol",
        "distance": 12,
        "target": {**OPEN, "wounds_left": wounds_left},
    }
    assert shoot_roll(Query(query), ScriptedDice(dice))["target_after"] == after
