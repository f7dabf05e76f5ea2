"""What shooting offers the command line: the ``shoot`` action, its tables and its benchmarks."""

from rulebook.classic.blast import GRENADE_RANGE, MISFIRE_TABLE
from rulebook.classic.resolution import INJURY, WOUND_CHART
from rulebook.classic.shooting import SEVEN_PLUS, TO_HIT, shoot_odds
from rulebook.classic.shooting_roll import shoot_roll
from rulebook.editions import Action
from rulebook.tables import Chart

WOUND_CHART_TABLE = Chart(
    name="wound-chart",
    title="Wound chart",
    key="S",
    rows={s: {"T": {str(t): need for t, need in row.items()}} for s, row in WOUND_CHART.items()},
    source="1995 rulebook, Shooting: Wound Chart (D6 needed; null is N, no wound possible)",
)
SEVEN_PLUS_CHART = Chart(
    name="seven-plus",
    title="7+ to hit",
    key="score",
    rows={
        **{score: {"first": 6, "then": then} for score, then in SEVEN_PLUS.items()},
        10: {"first": None, "then": None},
    },
    source="1995 rulebook, Shooting: 7+ Hit (a 6, then this on a second D6; 10 cannot hit)",
)

ACTIONS = (
    Action(
        "shoot", "one shot: to hit, wound, save, injury, ammo, scatter (docs/rulebook-cli.md)", shoot_odds, shoot_roll
    ),
)
TABLES = (INJURY, MISFIRE_TABLE, GRENADE_RANGE, TO_HIT, SEVEN_PLUS_CHART, WOUND_CHART_TABLE)

_TARGET = {"T": 3, "wounds_left": 1, "save": None}
BENCHMARKS = [
    (
        "shoot: laspistol at long range",
        "shoot",
        {"shooter": {"BS": 3}, "weapon": "laspistol", "target": _TARGET, "distance": 12},
    ),
    (
        "shoot: heavy stubber, 2 sustained fire dice, 2-wound target in mesh",
        "shoot",
        {
            "shooter": {"BS": 3},
            "weapon": "heavy stubber",
            "target": {"T": 4, "wounds_left": 2, "save": 5},
            "distance": 24,
        },
    ),
    (
        "shoot: lascannon 2D6 wounds",
        "shoot",
        {"shooter": {"BS": 4}, "weapon": "lascannon", "target": {"T": 4, "wounds_left": 3, "save": 4}, "distance": 30},
    ),
    (
        "shoot: frag grenade into cover",
        "shoot",
        {"shooter": {"BS": 3, "S": 3}, "weapon": "frag grenade", "target": _TARGET, "distance": 6, "cover": "cover"},
    ),
]
BENCHMARK_TARGETS_MS = {label: 5 for label, _, _ in BENCHMARKS}
