"""Blast markers, scatter, grenades and misfires (1995 rulebook, Shooting: "Blast Weapons",
"Grenades", "Flamer Templates"; Advanced Rules: "Wild Grenades and Shells", Misfire Table).

A blast weapon that misses rolls the Scatter dice (direction) and the Artillery dice (2, 4, 6,
8 or 10 inches, or Misfire). A shell never scatters more than half the distance from shooter to
target (the Goliath's shotgun at 8" scatters at most 4"). A thrown grenade halves the Artillery
number and ignores that cap (a grenade thrown 2" can land 5" away). A Misfire is a dud, unless
the Scatter dice shows Hit as well: then the Misfire table is rolled. Fighters wholly under the
marker (or a flamer template) are hit; fighters partly under it are hit on a further 4+.
"""

from __future__ import annotations

from fractions import Fraction

from rulebook.dice import ARTILLERY, HIT, MISFIRE, SCATTER, map_dist
from rulebook.tables import Chart, Row, Table

PARTIAL_HIT = Fraction(1, 2)  # a further D6 of 4, 5 or 6 for a fighter partly under a marker or template

GRENADE_RANGE = Chart(
    name="grenade-range",
    title="Grenade range",
    key="S",
    rows={s: {"range": min(12, 2 + 2 * s)} for s in range(1, 11)},
    source='1995 rulebook, Shooting: Grenades (thrower\'s Strength 1 4", 2 6", 3 8", 4 10", 5 or more 12")',
)

MISFIRE_TABLE = Table(
    name="misfire",
    title="Misfire",
    dice="D6",
    rows=(
        Row(
            1, 1, "Explodes on the firer", {"effect": "the marker is centred on the thrower or shooter; work out hits"}
        ),
        Row(2, 2, "Goes wild", {"effect": 'lands 2D6" away in a random direction and explodes'}),
        Row(
            3,
            3,
            "Goes far wild",
            {"effect": 'grenade: as 2; shell: lands D6 x D6" away in a random direction and explodes'},
        ),
        Row(
            4,
            4,
            "Lands unexploded",
            {"effect": "lands as 3 but does not go off; from then on it explodes on a 4+ at the start of each turn"},
        ),
        Row(
            5,
            5,
            "Roof strike",
            {
                "effect": "brings debris down: each player rolls a D6 each turn; on a 1 a random fighter of his takes a S3 hit"
            },
        ),
        Row(6, 6, "Dud", {"effect": "drops at the firer's feet and fizzles out"}),
    ),
    source="1995 rulebook, Advanced Rules: Misfire Table",
)


def grenade_range(strength: int) -> int:
    return GRENADE_RANGE.rows[min(strength, 10)]["range"]


def _inches(value):
    """Whole inches as an int, halves as a float: the shape the answer prints."""
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)


def scatter_distance(artillery: int, distance, thrown: bool):
    """How far a missed shot lands from its target, in inches."""
    if thrown:
        return _inches(Fraction(artillery, 2))
    return _inches(min(Fraction(artillery), Fraction(distance) / 2))


def scatter_odds(distance, thrown: bool) -> dict:
    """For a missed blast shot: the distribution of where it lands, a dud, or the Misfire table."""
    p_misfire = ARTILLERY.distribution()[MISFIRE]
    p_table = p_misfire * SCATTER.distribution()[HIT]
    numbers = {face: p for face, p in ARTILLERY.distribution().items() if face != MISFIRE}
    return {
        "distance": map_dist(numbers, lambda a: scatter_distance(a, distance, thrown)),
        "p_dud": p_misfire - p_table,
        "p_misfire_table": p_table,
    }


def scatter_roll(dice, distance, thrown: bool) -> dict:
    """Roll the Scatter and Artillery dice (and the Misfire table if they show Hit and Misfire)."""
    direction = dice.roll(SCATTER, "scatter direction")
    artillery = dice.roll(ARTILLERY, "scatter distance")
    step = {"step": "scatter", "scatter_dice": direction, "artillery_dice": artillery}
    if artillery != MISFIRE:
        step["inches"] = scatter_distance(artillery, distance, thrown)
        step["result"] = f'lands {step["inches"]}" from the target'
    elif direction == HIT:
        step["misfire"] = MISFIRE_TABLE.roll(dice)
        step["result"] = "misfire table"
    else:
        step["result"] = "dud: no effect"
    return step
