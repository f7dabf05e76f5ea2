"""Gang composition, 2018+ advancement costs, starting experience and gang rating (rulebook.gang_rules)."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import gang_rules
from rulebook.dice import ScriptedDice, SeededDice
from rulebook.errors import RulesInputError

CLASSIC = gang_rules.HouseRules(
    name="Orlock",
    types=(
        gang_rules.TypeLimit("leader", "Leader", "leader", 1, 1),
        gang_rules.TypeLimit("heavy", "Heavy", "heavy", 0, 2),
        gang_rules.TypeLimit("ganger", "Ganger", "ganger"),
        gang_rules.TypeLimit("juve", "Juve", "juve"),
    ),
    min_fighters=3,
    share_rules=({"kind": "max_share", "categories": ["juve"], "share": "1/2"},),
)
N18 = gang_rules.HouseRules(
    name="Goliath",
    types=(
        gang_rules.TypeLimit("tyrant", "Forge Tyrant", "leader", 1, 1),
        gang_rules.TypeLimit("boss", "Forge Boss", "champion"),
        gang_rules.TypeLimit("bruiser", "Bruiser", "ganger"),
    ),
    share_rules=({"kind": "min_share", "categories": ["ganger"], "share": "1/2"},),
)


def rules(breaches):
    return [b.rule for b in breaches]


@pytest.mark.parametrize(
    ("roster", "hire", "broken", "words"),
    [
        (["leader"], "leader", ["max-leader"], "at most one Leader"),
        (["leader", "heavy", "heavy"], "heavy", ["max-heavy"], "at most 2 Heavies"),
        (["leader", "juve"], "juve", ["max-share-juve"], "Juves may be at most half of the gang (2 of 3 would be)"),
        (["leader", "ganger"], "juve", [], ""),
        (["leader", "heavy"], "heavy", [], ""),
        (["ganger"], "ganger", [], ""),
    ],
)
def test_classic_hire_refusals_name_the_rule(roster, hire, broken, words):
    breaches = gang_rules.hire_breaches(CLASSIC, roster, hire)
    assert rules(breaches) == broken
    if words:
        assert words in breaches[0].message


def test_minimums_are_reported_but_do_not_block_a_hire():
    assert rules(gang_rules.composition_breaches(CLASSIC, ["ganger"])) == ["min-leader", "min-fighters"]
    assert gang_rules.hire_breaches(CLASSIC, [], "ganger") == ()
    assert gang_rules.composition_breaches(CLASSIC, ["leader", "ganger", "juve"]) == ()


def test_n18_min_share_is_a_readiness_rule():
    breaches = gang_rules.composition_breaches(N18, ["tyrant", "boss", "boss", "bruiser"])
    assert rules(breaches) == ["min-share-ganger"]
    assert not breaches[0].maximum
    assert gang_rules.hire_breaches(N18, ["tyrant"], "boss") == ()


def test_unknown_types_and_rules_are_refused_with_the_field():
    with pytest.raises(RulesInputError) as error:
        gang_rules.composition_breaches(CLASSIC, ["ogryn"])
    assert error.value.field == "fighter_type"
    bad = gang_rules.HouseRules("X", CLASSIC.types, share_rules=({"kind": "odd", "categories": ["juve"]},))
    with pytest.raises(RulesInputError) as error:
        gang_rules.composition_breaches(bad, ["leader"])
    assert error.value.field == "composition_rules[0].kind"


@given(st.lists(st.sampled_from(["leader", "heavy", "ganger", "juve"]), max_size=12))
def test_a_hire_never_breaks_a_maximum_it_does_not_report(roster):
    for hire in ("leader", "heavy", "ganger", "juve"):
        reported = set(rules(gang_rules.hire_breaches(CLASSIC, roster, hire)))
        after = {
            b.rule for b in gang_rules.composition_breaches(CLASSIC, [*roster, hire]) if b.maximum and hire in b.types
        }
        assert reported == after
        juves = [*roster, hire].count("juve")
        assert ("max-share-juve" in reported) == (hire == "juve" and Fraction(juves, len(roster) + 1) > Fraction(1, 2))


@pytest.mark.parametrize(
    ("stat", "category", "taken", "xp", "value"),
    [
        ("Wil", "leader", 0, 3, 5),
        ("Cl", "champion", 0, 4, 10),
        ("M", "leader", 0, 5, 10),
        ("BS", "champion", 0, 6, 20),
        ("S", "leader", 0, 8, 30),
        ("W", "leader", 0, 12, 45),
        ("A", "champion", 2, 16, 45),
        ("BS", "juve", 3, 6, 20),
        ("BS", "prospect", 1, 6, 20),
    ],
)
def test_n18_characteristic_costs(stat, category, taken, xp, value):
    cost = gang_rules.n18_characteristic_cost(stat, category=category, times_taken=taken)
    assert (cost.xp, cost.value) == (xp, value)


@pytest.mark.parametrize(
    ("access", "random", "xp", "value"),
    [("primary", False, 9, 20), ("secondary", False, 12, 35), ("primary", True, 6, 20), ("secondary", True, 9, 35)],
)
def test_n18_skill_costs(access, random, xp, value):
    cost = gang_rules.n18_skill_cost(access=access, random=random, category="leader")
    assert (cost.xp, cost.value) == (xp, value)


def test_n18_gangers_are_refused_and_target_numbers_improve_downwards():
    with pytest.raises(RulesInputError, match="Gangers do not buy Advancements"):
        gang_rules.n18_characteristic_cost("BS", category="ganger", times_taken=0)
    assert gang_rules.n18_improved("BS", 4) == 3
    assert gang_rules.n18_improved("S", 3) == 4


def test_random_skill_rolls_again_for_a_known_skill():
    skills = ["a", "b", "c", "d", "e", "f"]
    dice = ScriptedDice([1, 1, 2])
    assert gang_rules.n18_random_skill("Brawn", skills, ["a"], dice) == "b"
    with pytest.raises(RulesInputError):
        gang_rules.n18_random_skill("Brawn", skills, skills, ScriptedDice([]))


@pytest.mark.parametrize(("expr", "dice", "xp"), [("60+D6", [4], 64), ("20+D6", [6], 26), ("0", [], 0), ("D3", [2], 2)])
def test_starting_experience(expr, dice, xp):
    assert gang_rules.roll_starting_experience(expr, ScriptedDice(dice), "start") == xp


def test_bad_starting_experience_names_the_field():
    with pytest.raises(RulesInputError) as error:
        gang_rules.roll_starting_experience("60+", SeededDice(1), "start")
    assert error.value.field == "starting_xp"


def test_gang_rating_by_edition_leaves_out_dead_and_retired():
    fighters = [
        gang_rules.RatedFighter(cost=120, equipment=40, experience=62, advancements=0),
        gang_rules.RatedFighter(cost=50, equipment=25, experience=23, advancements=20),
        gang_rules.RatedFighter(cost=50, equipment=100, experience=30, on_roster=False),
    ]
    assert gang_rules.gang_rating("classic", fighters) == 120 + 40 + 62 + 50 + 25 + 23
    assert gang_rules.gang_rating("n18", fighters) == 120 + 40 + 50 + 25 + 20


def test_max_count_rule_over_categories():
    house = gang_rules.HouseRules(
        "Goliath", N18.types, share_rules=({"kind": "max_count", "categories": ["leader", "champion"], "count": 2},)
    )
    assert gang_rules.hire_breaches(house, ["tyrant"], "boss") == ()
    breaches = gang_rules.hire_breaches(house, ["tyrant", "boss"], "boss")
    assert rules(breaches) == ["max-count-leader-champion"]
    assert breaches[0].message == "at most 2 Leaders and Champions (the gang would have 3)"


def test_brutes_advance_as_specialists_and_hangers_on_never():
    from rulebook.errors import RulesInputError
    from rulebook.gang_rules import n18_characteristic_cost, n18_skill_cost

    assert n18_characteristic_cost("WS", category="brute", times_taken=1).xp == 8
    assert n18_skill_cost(access="primary", random=False, category="brute").xp == 9
    for category in ("hanger_on", "hired_gun"):
        with pytest.raises(RulesInputError, match="never gain Experience or Advancements"):
            n18_skill_cost(access="primary", random=False, category=category)


# --- Hangers-on, Brutes and Hired Guns (2023 Core Rulebook, Gang Additions) ---


@pytest.mark.parametrize(
    "reputation, cap", [(0, 0), (1, 1), (4, 1), (5, 2), (9, 2), (10, 3), (14, 3), (15, 4), (19, 4), (20, 5), (45, 5)]
)
def test_reputation_table(reputation, cap):
    assert gang_rules.hangers_on_cap(reputation) == cap


def test_addition_breaches_name_the_type_limit_and_the_cap():
    doc = gang_rules.TypeLimit("rogue-doc", "Rogue Doc", "hanger_on", 0, 2)
    ambot = gang_rules.TypeLimit("ambot", "Ambot", "brute", 0, 2)
    assert gang_rules.addition_hire_breaches(doc, [doc], reputation=5) == ()
    (cap,) = gang_rules.addition_hire_breaches(ambot, [doc, doc], reputation=5)
    assert (
        cap.rule == "reputation-cap"
        and cap.message == "Reputation 5 allows 2 Hangers-on and Brutes (the gang would have 3)"
    )
    rules = {b.rule for b in gang_rules.addition_hire_breaches(doc, [doc, doc], reputation=20)}
    assert rules == {"max-rogue-doc"}


@pytest.mark.parametrize(
    "category, rules, picked",
    [
        ("ganger", [], True),
        ("brute", ["Loyal"], True),
        ("hanger_on", ["Patch Up"], False),
        ("hanger_on", ["Part of the Crew: picked for crews like a Ganger"], True),
        ("hired_gun", ["You Get What You Pay For"], False),
    ],
)
def test_who_is_picked_for_a_crew(category, rules, picked):
    assert gang_rules.fights_in_crews(category, rules) is picked


ENFORCERS = gang_rules.HouseRules(
    name="Palanite Enforcers",
    types=(
        gang_rules.TypeLimit("palanite-captain", "Palanite Captain", "leader"),
        gang_rules.TypeLimit("subjugator-captain", "Subjugator Captain", "leader"),
        gang_rules.TypeLimit("sergeant", "Sergeant", "champion"),
        gang_rules.TypeLimit("patrolman", "Patrolman", "ganger"),
        gang_rules.TypeLimit("neophyte", "Neophyte", "ganger"),
        gang_rules.TypeLimit("aberrant", "Aberrant", "ganger"),
    ),
    share_rules=(
        {"kind": "min_count", "categories": ["leader"], "count": 1},
        {"kind": "max_count", "categories": ["leader"], "count": 1},
    ),
)


def test_one_leader_among_several_leader_types():
    assert rules(gang_rules.composition_breaches(ENFORCERS, [])) == ["min-count-leader"]
    assert gang_rules.composition_breaches(ENFORCERS, ["subjugator-captain"]) == ()
    (breach,) = gang_rules.hire_breaches(ENFORCERS, ["palanite-captain"], "subjugator-captain")
    assert breach.message == "at most 1 Leaders (the gang would have 2)" and breach.maximum


def test_not_fewer_compares_two_groups_by_category_or_type_and_blocks_play_only():
    house = gang_rules.HouseRules(
        "Cult",
        ENFORCERS.types,
        share_rules=(
            {"kind": "not_fewer", "types": ["neophyte"], "than_categories": ["leader"], "than_types": ["aberrant"]},
        ),
    )
    (breach,) = gang_rules.composition_breaches(house, ["palanite-captain", "aberrant", "neophyte"])
    assert breach.message == "Neophyte may never be fewer than Leaders and Aberrant (1 against 2)"
    assert not breach.maximum
    assert gang_rules.hire_breaches(house, ["palanite-captain", "neophyte"], "aberrant") == ()
    assert gang_rules.composition_breaches(house, ["palanite-captain", "aberrant", "neophyte", "neophyte"]) == ()


@pytest.mark.parametrize(
    ("gang_fighters", "champions", "refused"),
    [(0, 2, False), (0, 3, True), (6, 2, False), (9, 3, False), (9, 4, True), (12, 4, False)],
)
def test_max_per_allows_a_floor_or_one_for_every_n(gang_fighters, champions, refused):
    house = gang_rules.HouseRules(
        "Outcasts",
        ENFORCERS.types,
        share_rules=(
            {"kind": "max_per", "categories": ["champion"], "per_categories": ["ganger"], "per": 3, "at_least": 2},
        ),
    )
    roster = ["palanite-captain"] + ["patrolman"] * gang_fighters + ["sergeant"] * (champions - 1)
    breaches = gang_rules.hire_breaches(house, roster, "sergeant")
    assert bool(breaches) == refused
    if refused:
        limit = max(2, gang_fighters // 3)
        assert breaches[0].message == (
            f"at most {limit} Champions (2, or one for every 3 Gangers; the gang would have {champions})"
        )
