"""The report and the odds read well at 412 px (issue 22): awards in plain words (never ``wounding_hits ×3``),
each fighter's end with who did it, gang by gang; odds as percentages with the exact fractions on request; the
outcomes in the order the game reaches them."""

from battles.display import award_words, odds_rows, report_rows


def test_awards_are_plain_words():
    assert award_words("wounding_hits", 3) == "3 wounding hits"
    assert award_words("wounding_hits", 1) == "1 wounding hit"
    assert award_words("out_of_action", 2) == "took 2 enemies Out of Action"
    assert award_words("a_new_award", 2) == "a new award (2)"


def test_report_rows_say_who_and_group_by_gang():
    report = {
        "sides": {"attacker": {"name": "Red"}, "defender": {"name": "Blue"}},
        "fighters": [
            {"name": "Vex", "side": "defender", "outcome": "ok", "by_name": "", "awards": {"wounding_hits": 3}},
            {"name": "Kal", "side": "attacker", "outcome": "out_of_action", "by_name": "Vex", "awards": {}},
        ],
    }
    rows = report_rows(report)
    assert [r["name"] for r in rows] == ["Kal", "Vex"]
    assert rows[0]["outcome"] == "Out of Action, by Vex" and rows[1]["awards"] == "3 wounding hits"
    assert "×" not in str(rows) and "_" not in rows[1]["awards"]


def test_outcomes_in_the_order_the_game_reaches_them():
    odds = {
        "outcome": {
            "flesh_wound": 0.1,
            "miss": 0.3,
            "no_wound": 0.2,
            "out_of_action": 0.1,
            "saved": 0.2,
            "seriously_injured": 0.05,
            "wound_lost": 0.05,
        },
        "outcome_exact": {"miss": "3/10"},
    }
    names = [name for name, _, _ in odds_rows(odds)["outcome"]]
    assert names == ["Miss", "No wound", "Saved", "Wound lost", "Flesh wound", "Seriously injured", "Out of action"]
