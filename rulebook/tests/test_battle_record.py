"""The battle record's rules (rulebook.n18.campaign.record): who may open a casket, how many exist, what one
holds, and the fighter ends that contradict each other; each refusal names the fighter and the rule."""

import pytest

from rulebook.errors import RulesInputError
from rulebook.n18.campaign.record import (
    BattleRecord,
    Casket,
    FighterEnd,
    Problem,
    casket_words,
    check_record,
    validate_record,
)


def test_the_defender_cannot_open_a_smash_and_grab_casket():
    record = BattleRecord(
        "smash-and-grab", (FighterEnd("7", "Venom Queen", "defender"),), (Casket("defender", "jackpot", 130, "7"),)
    )
    with pytest.raises(RulesInputError, match=r"Venom Queen \(casket 1\): in Smash & Grab the defender cannot open"):
        check_record(record)


def test_no_more_caskets_than_the_scenario_places():
    fighter = FighterEnd("1", "Ripper", "attacker")
    six = tuple(Casket("attacker", "valuable-goods", 10, "1") for _ in range(6))
    with pytest.raises(RulesInputError, match="Smash & Grab has 5 loot caskets, not 6"):
        check_record(BattleRecord("smash-and-grab", (fighter,), six))
    three = tuple(Casket("attacker", "nothing-much", 3, "1") for _ in range(3))
    with pytest.raises(RulesInputError, match="has 2 loot caskets, not 3"):
        check_record(BattleRecord("the-trap", (fighter,), three))


def test_a_casket_holds_what_its_table_says():
    fighter = FighterEnd("1", "Ripper", "attacker")
    with pytest.raises(RulesInputError, match="Jackpot holds 30 to 180 credits, not 250"):
        check_record(BattleRecord("smash-and-grab", (fighter,), (Casket("attacker", "jackpot", 250, "1"),)))
    with pytest.raises(RulesInputError, match="not on the Loot casket table"):
        check_record(BattleRecord("the-trap", (fighter,), (Casket("attacker", "jackpot", 30, "1"),)))
    record = check_record(
        BattleRecord("smash-and-grab", (fighter,), (Casket("attacker", "Jackpot", 130, "1"),), winner="defender")
    )
    assert record.caskets[0].result == "jackpot"
    assert casket_words(record.caskets[0], "smash-and-grab") == "Jackpot (130 credits)"


def test_a_fighter_who_fled_was_taken_down_by_nobody():
    ends = (FighterEnd("1", "Ripper", "attacker"), FighterEnd("2", "Slag", "defender", "fled", by="1"))
    with pytest.raises(RulesInputError, match="Slag fled the battlefield: nobody took them down"):
        check_record(BattleRecord("the-trap", ends))


def test_a_capture_is_of_a_fighter_out_of_action_by_the_opposing_gang():
    gangs = {"attacker": 10, "defender": 20}
    ends = (FighterEnd("2", "Slag", "defender", "seriously_injured", captured_by=10),)
    with pytest.raises(RulesInputError, match="Slag: only a fighter taken Out of Action can be captured"):
        check_record(BattleRecord("the-trap", ends, gangs=gangs))
    ends = (FighterEnd("2", "Slag", "defender", "out_of_action", captured_by=20),)
    with pytest.raises(RulesInputError, match="Slag can only be captured by the opposing gang"):
        check_record(BattleRecord("the-trap", ends, gangs=gangs))


def test_the_record_has_a_stable_json_form():
    record = BattleRecord(
        "smash-and-grab",
        (FighterEnd("1", "Ripper", "attacker", "out_of_action", by="2"),),
        (Casket("attacker", "jackpot", 130, "1"),),
        bottled=("defender",),
        winner="attacker",
        gangs={"attacker": 1, "defender": 2},
    )
    data = record.as_json()
    assert data["caskets"] == [{"side": "attacker", "fighter": "1", "result": "jackpot", "credits": 130}]
    assert data["fighters"][0]["outcome"] == "out_of_action" and record.opened() == record.opened("attacker") == 1
    assert BattleRecord.from_json(data) == record


def test_webbed_is_for_a_fighter_out_of_action_and_not_killed_and_kept_in_the_json_form():
    for end in (
        FighterEnd("2", "Slag", "defender", "seriously_injured", webbed=True),
        FighterEnd("2", "Slag", "defender", "out_of_action", killed=True, webbed=True),
    ):
        with pytest.raises(RulesInputError, match="Slag: only a fighter taken Out of Action .* Webbed D6"):
            check_record(BattleRecord("the-trap", (end,)))
    record = check_record(
        BattleRecord("the-trap", (FighterEnd("2", "Slag", "defender", "out_of_action", webbed=True),))
    )
    assert record.as_json()["fighters"][0]["webbed"] is True
    assert BattleRecord.from_json(record.as_json()) == record


@pytest.mark.parametrize(("face", "result"), [(1, "out-cold"), (4, "out-cold"), (5, "captured"), (6, "captured")])
def test_the_webbed_d6_is_out_cold_on_1_to_4_and_captured_on_5_or_6(face, result):
    from rulebook.dice import ScriptedDice
    from rulebook.n18.campaign.lasting_injury import roll_webbed

    dice = ScriptedDice([face])
    webbed = roll_webbed(dice)
    assert (webbed.roll, webbed.result) == (face, result)
    assert [(r.die, r.value) for r in dice.rolls] == [("D6", face)]  # one die, recorded


# --- the scenario's own checks, which the hand report and the assistant's end of battle both run (issue 21) ------


def test_the_result_must_be_the_one_the_scenarios_facts_decide():
    """Smash & Grab: three caskets opened win the attacker the battle (the guide's Victory)."""
    ripper = FighterEnd("1", "Ripper", "attacker")
    three = tuple(Casket("attacker", "valuable-goods", 10, "1") for _ in range(3))
    names = {"attacker": "Venom Queens", "defender": "Iron Dogs"}
    record, problems = validate_record(BattleRecord("smash-and-grab", (ripper,), three, winner="defender"), names=names)
    assert problems == [
        Problem(
            "result",
            "By the scenario's facts Venom Queens wins (3 loot caskets opened (3 win)); change the result or the facts.",
        )
    ]
    assert check_record(BattleRecord("smash-and-grab", (ripper,), three, winner="attacker")).winner == "attacker"
    # No casket count given at all: the facts decide nothing, the players say who won.
    assert validate_record(BattleRecord("smash-and-grab", (ripper,), winner="attacker"))[1] == []


def test_search_and_destroy_hides_four_caches_and_only_the_attacker_destroys_them():
    ends = (
        FighterEnd("1", "Ripper", "attacker", awards={"caches_destroyed": 3}),
        FighterEnd("2", "Slag", "defender", awards={"caches_recovered": 2}),
    )
    with pytest.raises(RulesInputError, match=r"Search & Destroy hides 4 weapon caches, not 5 \(club campaign guide"):
        check_record(BattleRecord("search-and-destroy", ends, winner="defender"))
    wrong = (FighterEnd("2", "Slag", "defender", awards={"caches_destroyed": 1}),)
    with pytest.raises(RulesInputError, match="Slag: in Search & Destroy the defender destroys no weapon cache"):
        check_record(BattleRecord("search-and-destroy", wrong))
    # The counts follow from the fighters named.
    one = (FighterEnd("1", "Ripper", "attacker", awards={"caches_destroyed": 1}),)
    record = check_record(BattleRecord("search-and-destroy", one, winner="attacker"))
    assert (record.caches_destroyed, record.caches_recovered) == (1, None)


def test_a_relic_is_defiled_once_by_a_fighter_named():
    ends = tuple(FighterEnd(str(n), name, "attacker", awards={"relic_defiled": 1}) for n, name in ((1, "A"), (2, "B")))
    with pytest.raises(RulesInputError, match="the defender's relic can only be defiled once, not by A and B"):
        check_record(BattleRecord("border-dispute", ends))
    with pytest.raises(RulesInputError, match="Say which of the attacker's fighters defiled the defender's relic"):
        check_record(BattleRecord("border-dispute", (), relic_defiled={"defender": True}))
    record = check_record(BattleRecord("border-dispute", ends[:1], winner="attacker"))
    assert record.relic_defiled == {"attacker": False, "defender": True}


def test_reinforcements_come_only_where_the_scenario_sends_them_and_not_from_the_starting_crew():
    slag, ripper = FighterEnd("2", "Slag", "defender"), FighterEnd("1", "Ripper", "attacker")
    with pytest.raises(RulesInputError, match="Slag: in The Trap the defender receives no Reinforcements"):
        check_record(BattleRecord("the-trap", (slag,), reinforcements=("2",)))
    # Search & Destroy reinforces the defender only; Border Dispute both gangs.
    with pytest.raises(RulesInputError, match="Ripper: in Search & Destroy the attacker receives no Reinforcements"):
        check_record(BattleRecord("search-and-destroy", (ripper, slag), reinforcements=("1",)))
    with pytest.raises(RulesInputError, match="Slag was in the defender's starting crew"):
        check_record(BattleRecord("border-dispute", (slag,), reinforcements=("2",), crews={"defender": ("2", "3")}))
    with pytest.raises(RulesInputError, match="a Reinforcement takes part in the battle"):
        check_record(BattleRecord("border-dispute", (slag,), reinforcements=("9",)))
    record = check_record(BattleRecord("border-dispute", (ripper, slag), reinforcements=("1", "2")))
    assert record.reinforcements == ("1", "2")


def test_the_json_form_carries_the_scenarios_facts_and_an_older_record_reads_as_none():
    record = BattleRecord(
        "border-dispute",
        (FighterEnd("2", "Slag", "defender"),),
        relic_defiled={"attacker": True},
        victory_points={"attacker": 3},
        reinforcements=("2",),
        crews={"defender": ("4",)},
    )
    data = record.as_json()
    assert (data["reinforcements"], data["crews"]) == (["2"], {"defender": ["4"]})
    assert BattleRecord.from_json(data) == record
    older = {key: value for key, value in data.items() if key not in ("reinforcements", "crews", "relic_defiled")}
    assert BattleRecord.from_json(older).reinforcements == ()


def test_a_captive_is_freed_by_one_of_the_rescuers_who_took_part():
    """2023 Core Rulebook, Rescue Mission: Free Captive is an attacking fighter's action; the freer is named."""
    ends = (FighterEnd("1", "Ripper", "attacker"), FighterEnd("2", "Slag", "defender"))
    freed = check_record(BattleRecord("rescue-mission", ends, captives_freed=("9",), freed_by={"9": "1"}))
    assert freed.freed_by == {"9": "1"}
    with pytest.raises(RulesInputError, match="Slag fights for the captors"):
        check_record(BattleRecord("rescue-mission", ends, captives_freed=("9",), freed_by={"9": "2"}))
    with pytest.raises(RulesInputError, match="captive 8 was not freed"):
        check_record(BattleRecord("rescue-mission", ends, captives_freed=("9",), freed_by={"8": "1"}))
    with pytest.raises(RulesInputError, match="freed by a fighter who did not take part"):
        check_record(BattleRecord("rescue-mission", ends, captives_freed=("9",), freed_by={"9": "5"}))
    # A captive who broke their bonds, or was freed when the captors fled, was freed by nobody.
    assert check_record(BattleRecord("rescue-mission", ends, captives_freed=("9",))).freed_by == {}


def test_who_freed_whom_is_in_the_json_form_and_older_records_read_without_it():
    record = BattleRecord("rescue-mission", captives_freed=("9",), freed_by={"9": "1"})
    assert record.as_json()["freed_by"] == {"9": "1"}
    assert BattleRecord.from_json(record.as_json()) == record
    old = {k: v for k, v in record.as_json().items() if k != "freed_by"}
    assert BattleRecord.from_json(old).freed_by == {}
