"""Typed post-battle outcomes (rulebook.outcomes): a stable JSON form read back to the same object."""

import pytest

from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.n18.campaign.lasting_injury import LASTING_INJURY_RULES
from rulebook.outcomes import (
    OUTCOMES,
    ExperienceAward,
    LastingInjury,
    StatusChange,
    injury_outcomes,
    outcome,
    outcome_from_json,
)
from rulebook.roster import FighterSnapshot


def test_each_outcome_reads_back_from_its_json():
    injury = LastingInjury("12", "head-wound", "Head Wound", 41, {"Ld": -1}, [], [], "Lasting Injury: 41", [])
    assert injury.as_json() == {
        "op": "injury",
        "fighter": "12",
        "code": "head-wound",
        "name": "Head Wound",
        "roll": 41,
        "deltas": {"Ld": -1},
        "skills": [],
        "notes": [],
        "reason": "Lasting Injury: 41",
        "dice": [],
    }
    assert outcome_from_json(injury.as_json()) == injury
    capture = outcome("status", fighter="7", status="captured", captured_by=3, reason="Captured", dice=[])
    assert isinstance(capture, StatusChange) and capture.captured_by == 3 and not capture.captive
    trade = outcome("trade", level=9, reason="Post-battle action: Trade", dice=[])
    assert outcome_from_json(trade.as_json()) == trade and trade.level == 9
    used = outcome("chem", fighter="7", chem="stinger-mould", reason="Lasting Injury: 44, set aside", dice=[])
    assert outcome_from_json(used.as_json()) == used and used.as_json()["op"] == "chem"
    assert set(OUTCOMES) == {
        "xp",
        "credits",
        "reputation",
        "injury",
        "status",
        "recruit",
        "advance",
        "chem",
        "trade",
    }


def test_an_unknown_outcome_or_field_is_refused():
    with pytest.raises(RulesInputError, match="unknown outcome 'bounty'"):
        outcome("bounty", amount=250)
    with pytest.raises(RulesInputError, match="credits has no typed"):
        outcome("credits", amount=250, reason="Claim Bounties", typed=True)


def test_an_injury_reads_as_typed_outcomes_with_its_rows_code_and_roll():
    """The sequence and the fighter's record share this reading: code and roll come with the table result, not
    out of its account line; a Captured result names its captor."""
    fighter = FighterSnapshot(characteristics={"BS": 4, "Int": 8, "Wil": 8}, xp=0, status="active")
    eye = injury_outcomes(
        "5", LASTING_INJURY_RULES.apply(fighter, 44, ScriptedDice([])), rule="Lasting Injury", how="entered"
    )
    assert [type(o) for o in eye] == [LastingInjury, StatusChange]
    assert (eye[0].code, eye[0].roll, eye[0].deltas) == ("eye-injury", 44, {"BS": 1})
    assert eye[0].reason == "Lasting Injury: Eye Injury (44) (entered)"
    assert (eye[1].status, eye[1].captured_by) == ("recovery", None)
    captured = injury_outcomes("5", LASTING_INJURY_RULES.apply(fighter, 55, ScriptedDice([])), rule="LI", captured_by=9)
    assert [(o.status, o.captured_by) for o in captured] == [("captured", 9)]
    lesson = injury_outcomes("5", LASTING_INJURY_RULES.apply(fighter, 11, ScriptedDice([3])), rule="LI")
    assert [o.amount for o in lesson if isinstance(o, ExperienceAward)] == [3]
