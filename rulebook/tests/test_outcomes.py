"""Typed post-battle outcomes (rulebook.outcomes): a stable JSON form read back to the same object."""

import pytest

from rulebook.errors import RulesInputError
from rulebook.outcomes import OUTCOMES, LastingInjury, StatusChange, outcome, outcome_from_json


def test_each_outcome_reads_back_from_its_json():
    injury = LastingInjury("12", "head-wound", "Head Wound", 41, {"Ld": -1}, [], [], "Lasting Injury: 41", [])
    assert injury.as_json() == {"op": "injury", "fighter": "12", "code": "head-wound", "name": "Head Wound",
                                "roll": 41, "deltas": {"Ld": -1}, "skills": [], "notes": [],
                                "reason": "Lasting Injury: 41", "dice": []}  # fmt: skip
    assert outcome_from_json(injury.as_json()) == injury
    capture = outcome("status", fighter="7", status="captured", captured_by=3, reason="Captured", dice=[])
    assert isinstance(capture, StatusChange) and capture.captured_by == 3 and not capture.captive
    trade = outcome("trade", level=9, reason="Post-battle action: Trade", dice=[])
    assert outcome_from_json(trade.as_json()) == trade and trade.level == 9
    assert set(OUTCOMES) == {"xp", "credits", "reputation", "injury", "status", "recruit", "advance", "trade"}


def test_an_unknown_outcome_or_field_is_refused():
    with pytest.raises(RulesInputError, match="unknown outcome 'bounty'"):
        outcome("bounty", amount=250)
    with pytest.raises(RulesInputError, match="credits has no typed"):
        outcome("credits", amount=250, reason="Claim Bounties", typed=True)
