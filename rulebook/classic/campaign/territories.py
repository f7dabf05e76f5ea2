"""The classic Territory table (D66) and working a territory for income after a battle.

The territories, their D66 bands and incomes are read from the content file
``rulebook/data/classic/territories.json``, which cites its sources: R1 the scan of the 1995 rulebook
pp94-95 (https://www.yumpu.com/en/document/view/15156036/necromunda-rulebook-games-workshop/94),
R2 gregwoodio/Hivemind.NET, R3 Remiswl/necromunda_symfony; rows R1 does not show are marked there.

Working a territory (S3 p92 of the same scan): each fighter who did not go out of action may work
one territory; incomes are fixed credits or dice (D6x10, 2D6x10, 2D6 credits). The dice the special
rules look at are rolled one by one and shown: Chem Pit pays nothing on a double or any 6 and leaves
the fighter scarred (he causes fear); a Gambling Den loses the amount on a double; a Spore Cave's
double 1 gives the fighter spore sickness. A territory without an income in the file pays nothing.
"""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache
from importlib import resources
from itertools import product

from rulebook.dice import D6, DiceSource, Dist, ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.tables import Row, Table

SOURCE = (
    "rulebook/data/classic/territories.json (R1 1995 rulebook scan pp94-95; R2 Hivemind.NET; R3 necromunda_symfony)"
)


@cache
def territories() -> dict[str, dict]:
    text = resources.files("rulebook").joinpath("data/classic/territories.json").read_text(encoding="utf-8")
    return {t["slug"]: t for t in json.loads(text)["territories"]}


def _band(roll: str) -> tuple[int, int]:
    low, _, high = roll.partition("-")
    return int(low), int(high or low)


TERRITORY = Table(
    name="territory",
    title="Territory",
    dice="D66",
    rows=tuple(
        Row(*_band(t["roll"]), t["name"], {"slug": t["slug"], "income": t["income"] or None, "sources": t["sources"]})
        for t in territories().values()
        if t["roll"]
    ),
    source=SOURCE,
)


def work_territory(slug: str, dice: DiceSource) -> dict:
    """One fighter works the territory ``slug``: the credits it brings (negative for a lost bet), every die
    shown, and what else happened."""
    if slug not in territories():
        raise RulesInputError("territory", f"unknown territory {slug!r}; use one of {', '.join(territories())}")
    territory = territories()[slug]
    income = territory["income"]
    mark = len(dice.rolls)
    faces: list[int] = []
    if not income:
        credits, effect = 0, "no income"
    elif "D6" not in income:
        credits, effect = int(income), None
    else:
        count, _, times = income.partition("D6")
        faces = [dice.roll(D6, f"{territory['name']} income ({income})") for _ in range(int(count or 1))]
        credits = sum(faces) * int(times.lstrip("x") or 1)
        credits, effect = _special(slug, faces, credits)
    return {
        "territory": territory["name"],
        "slug": slug,
        "income": income or None,
        "credits": credits,
        "effect": effect,
        "dice": [r.as_json() for r in dice.rolls[mark:]],
    }


def _special(slug: str, faces: list[int], credits: int) -> tuple[int, str | None]:
    double = len(faces) == 2 and faces[0] == faces[1]
    if slug == "chem-pit" and (double or 6 in faces):
        return 0, "fell into the pit: no income, and the fighter causes fear from now on"
    if slug == "gambling-den" and double:
        return -credits, "a double: the gang loses the amount instead"
    if slug == "spore-cave" and faces == [1, 1]:
        return credits, "double 1: the fighter catches spore sickness"
    return credits, None


def income_distribution(slug: str) -> Dist:
    """Exact credits one fighter brings from ``slug``, by enumerating every face of the dice it rolls."""
    income = territories()[slug]["income"]
    count = int(income.partition("D6")[0] or 1) if "D6" in income else 0
    out: Dist = {}
    for faces in product(D6.faces, repeat=count):
        credits = work_territory(slug, ScriptedDice(faces))["credits"]
        out[credits] = out.get(credits, 0) + Fraction(1, 6**count)
    return out
