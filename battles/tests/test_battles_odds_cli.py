"""The odds the assistant shows are the command line's for the same situation: the query the battle builds
from the fighters, piped to ``python -m rulebook odds``, answers exactly what the page shows."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from battles.selectors import action_odds, action_plan

ROOT = Path(__file__).resolve().parents[2]


def cli_odds(edition: str, rule: str, query: dict) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "rulebook", "odds", edition, rule],
        input=json.dumps(query),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    answer = json.loads(done.stdout)
    assert answer.pop("edition") == edition and answer.pop("action") == rule
    return answer


def fighters(battle):
    rows = list(battle.fighters.all())
    return [f for f in rows if f.side == "attacker"], [f for f in rows if f.side == "defender"]


def pistol(fighter):
    return next(f"{w['key']}:0" for w in fighter.profile["weapons"] if w["category"] == "pistol")


def melee(fighter):
    return next(f"{w['key']}:0" for w in fighter.profile["weapons"] if w["category"] in ("close_combat",))


SITUATIONS = {
    "classic": [
        (
            "shoot",
            lambda a, b: {
                "fighter": a[0],
                "target": b[1],
                "weapon": pistol(a[0]),
                "distance": 12,
                "cover": "partial",
                "modifiers": ["small_target"],
            },
        ),
        ("fight", lambda a, b: {"fighter": a[1], "target": b[0], "charging": True}),
        ("multi-fight", lambda a, b: {"fighter": a[0], "opponents": [b[0], b[1]]}),
        ("test", lambda a, b: {"test": "leadership", "fighter": a[1], "leader_near": True}),
        ("test", lambda a, b: {"test": "escape_pinning", "fighter": a[1], "friend_within_2": True}),
        ("test", lambda a, b: {"test": "fall", "fighter": b[1], "height": 4, "edge": "pinned_or_down"}),
        ("test", lambda a, b: {"test": "bottle", "side": "defender"}),
    ],
    "n18": [
        (
            "shoot",
            lambda a, b: {"fighter": a[0], "target": b[1], "weapon": pistol(a[0]), "distance": 8, "cover": "partial"},
        ),
        ("fight", lambda a, b: {"fighter": a[1], "target": b[0], "weapon": melee(a[1])}),
        ("fight", lambda a, b: {"fighter": a[1], "target": b[0], "weapon": melee(a[1]), "reaction": True}),
        ("test", lambda a, b: {"test": "nerve", "fighter": a[1]}),
        ("test", lambda a, b: {"test": "agility", "fighter": a[1], "modifier": 1}),
        ("test", lambda a, b: {"test": "fall", "fighter": a[1], "height": 4, "cause": "jump_down"}),
        ("test", lambda a, b: {"test": "bottle", "side": "attacker"}),
        ("scenario", lambda a, b: {"action": "loot-casket", "fighter": a[0]}),
        ("scenario", lambda a, b: {"action": "search-cache", "fighter": a[0]}),
    ],
}
CASES = [(edition, kind, i) for edition, rows in SITUATIONS.items() for i, (kind, _) in enumerate(rows)]


@pytest.mark.django_db
@pytest.mark.parametrize(("edition", "kind", "index"), CASES)
def test_odds_shown_equal_the_command_line(make_battle, edition, kind, index):
    battle = make_battle(edition, fighters=2)
    a, b = fighters(battle)
    params = SITUATIONS[edition][index][1](a, b)
    plan = action_plan(session=battle, kind=kind, params=params)
    shown = action_odds(session=battle, plan=plan)
    assert shown == cli_odds(edition, plan.rule, plan.query)
