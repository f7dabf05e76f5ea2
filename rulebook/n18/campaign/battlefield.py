"""On the battlefield: set-up order, Reinforcements, Home Turf, loot caskets and the ammo cache.

Source: the club campaign guide "Playing Necromunda Games in Cycle 1 & 2", sections Battlefield
Setup, Reinforcements, Home Turf Advantage, Opening Loot Caskets, Ammo Cache, Smash & Grab's
own loot casket table, and Search & Destroy's Sweep and Clear (the weapon cache search). Seed note 2: the loot casket table is headed 2D6 but its rows (1, 2-3,
4-6) make it a D6 table.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulebook.dice import D6, DiceSource, Dist, combine
from rulebook.roster import roll_amount
from rulebook.tables import Row, Table

GUIDE = "club campaign guide 'Playing Necromunda Games in Cycle 1 & 2'"

# In order; "defender" means the scenario's defender, or the winner of a roll-off when it has none.
BATTLEFIELD_SETUP = (
    "Starting with the defender, players take turns placing terrain features; once one passes, the other may "
    "place one more.",
    "Again starting with the defender, players take turns placing obstacles and small terrain; once one passes, "
    "the other may place one more.",
    "Each player places one loot casket anywhere on the battlefield (unless the scenario says otherwise).",
)

REINFORCEMENT = Table(
    name="reinforcement",
    title="Reinforcement deployment",
    dice="D6",
    rows=(
        Row(1, 2, "Enemy deploys", {"deployed_by": "enemy"}),
        Row(3, 6, "Controlling player deploys", {"deployed_by": "controlling player"}),
    ),
    source=f"{GUIDE}, Reinforcements (a D6 for each model drawn)",
)

# Reinforcements arrive at the end of the End phase, drawn at random, on any edge, not within 6" of an enemy.
REINFORCEMENT_RULES = {
    "arrive": "at the end of the End phase, in the rounds and numbers the scenario gives",
    "drawn": "at random; a D6 for each model drawn: 3+ the controlling player deploys it, 1-2 the enemy does",
    "where": 'any battlefield edge, not within 6" of an enemy model, unless the scenario says otherwise',
}


# --- Home Turf Advantage ----------------------------------------------------------------------

HOME_TURF_RALLY_BONUS = 1
HOME_TURF = {
    "bottle": "roll two D6 for the Bottle check and discard the highest",
    "rally": f"+{HOME_TURF_RALLY_BONUS} to the result of Rally tests",
}


def home_turf_bottle_die() -> Dist:
    """The die a Home Turf gang uses in its Bottle check: the lower of two D6."""
    return combine(D6.distribution(), D6.distribution(), min)


def roll_home_turf_bottle_die(dice: DiceSource) -> int:
    first = dice.d6("Bottle check with Home Turf (first die)")
    second = dice.d6("Bottle check with Home Turf (second die, keep the lower)")
    return min(first, second)


# --- loot caskets ----------------------------------------------------------------------------------

LOOT_CASKET = Table(
    name="loot-casket",
    title="Loot casket",
    dice="D6",
    rows=(
        Row(
            1, 1, "Dangerous Goods", {"slug": "dangerous-goods", "effect": "booby-trapped: replace it with a frag trap"}
        ),
        Row(2, 3, "Nothing Much", {"slug": "nothing-much", "credits": "D6", "effect": "add D6 credits to the Stash"}),
        Row(4, 6, "Ammo Cache", {"slug": "ammo-cache", "effect": "replace the casket with an ammo cache"}),
    ),
    source=f"{GUIDE}, Opening Loot Caskets; seed note 2 (a D6 table despite its 2D6 heading)",
)

LOOT_CASKET_SMASH_AND_GRAB = Table(
    name="loot-casket-smash-and-grab",
    title="Loot casket (Smash & Grab, opened by the attacker)",
    dice="D6",
    rows=(
        Row(
            1,
            1,
            "Booby Trapped",
            {
                "slug": "booby-trapped",
                "effect": 'a 5" blast centred on the casket: each model under it takes a S4, AP -, D1 hit; '
                "then remove the casket",
                "hit": {"template": 'Blast (5")', "strength": 4, "ap": 0, "damage": 1},
            },
        ),
        Row(2, 5, "Valuable Goods", {"slug": "valuable-goods", "credits": "D6x10", "effect": "add D6x10 credits"}),
        Row(6, 6, "Jackpot", {"slug": "jackpot", "credits": "3D6x10", "effect": "add 3D6x10 credits"}),
    ),
    source=f"{GUIDE}, Smash & Grab: Loot Caskets",
)


def open_loot_casket(
    dice: DiceSource, *, smash_and_grab: bool = False, ignore_booby_trap: bool = False, opener: dict | None = None
) -> dict:
    """Open one casket: its table row and the credits it adds, every die shown.

    ``ignore_booby_trap`` is Smash & Grab's fleeing rule: when the defender flees, the attacker rolls
    for each casket left and a Booby Trapped result does nothing. ``opener`` (a shot's target query: T, W,
    save, state...) is the fighter opening it: a Booby Trapped casket's blast, centred on the casket, hits
    them (``trap``: the hit's wound, save and Damage dice, with ``target_after``); any other fighter under
    the 5" blast is the table's to say.
    """
    table = LOOT_CASKET_SMASH_AND_GRAB if smash_and_grab else LOOT_CASKET
    found = table.roll(dice)
    credits = roll_amount(found["credits"], dice, f"{found['result']}: credits") if "credits" in found else 0
    if ignore_booby_trap and found["slug"] == "booby-trapped":
        found = {**found, "effect": "ignored: the defending gang fled"}
    elif found["slug"] == "booby-trapped" and opener is not None:
        found = {**found, "trap": booby_trap_hit(opener, dice)}
    return {**found, "credits_gained": credits}


def booby_trap_hit(opener: dict, dice: DiceSource) -> dict:
    """Smash & Grab's Booby Trapped casket: a S4, AP -, D1 hit from a 5" blast centred on the casket, which
    the fighter opening it is under (so it hits without a hit roll), resolved as any other hit."""
    from rulebook.n18 import shooting  # the shot's rules; campaign rules build on them
    from rulebook.query import Query

    hit = LOOT_CASKET_SMASH_AND_GRAB.rows[0].details["hit"]
    query = {
        "shooter": {"BS": 6, "S": hit["strength"]},  # never read: a fighter under the marker is hit outright
        "weapon": {
            "name": "Booby Trapped casket",
            "long_range": 1,
            "strength": hit["strength"],
            "ap": hit["ap"],
            "damage": hit["damage"],
            "traits": [hit["template"]],
        },
        "target": {**opener, "under_marker": True},
        "distance": 0,
    }
    return shooting.roll(Query(query), dice)


# --- the ammo cache --------------------------------------------------------------------------

AMMO_CACHE_BONUS = 2


@dataclass(frozen=True)
class AmmoCacheTest:
    natural: int
    total: int
    passed: bool
    cache_exhausted: bool

    def as_json(self) -> dict:
        return {
            "natural": self.natural,
            "total": self.total,
            "passed": self.passed,
            "cache_exhausted": self.cache_exhausted,
        }


def ransack_ammo_cache(natural: int, ammo: int) -> AmmoCacheTest:
    """An Ammo test (D6 against the weapon's Ammo ``ammo``+) made while ransacking an ammo cache.

    The test gains +2; a natural 6 exhausts the cache, which is removed. (A fighter within 1" may also
    ignore the Scarce trait: that needs no dice.)
    """
    total = natural + AMMO_CACHE_BONUS
    return AmmoCacheTest(natural, total, total >= ammo, natural == 6)


def p_ransacked_ammo_test(ammo: int) -> Fraction:
    return sum((Fraction(1, 6) for face in D6.faces if ransack_ammo_cache(face, ammo).passed), Fraction(0))


# --- Search & Destroy: searching for a weapon cache --------------------------------------------------

CACHE_SEARCH_NEEDS = 5


def cache_found(natural: int) -> bool:
    """Search & Destroy, Sweep and Clear: in the End phase a searching fighter who is still Active finds the
    area's weapon cache on a D6 of 5 or more (gang with Priority first when both gangs search one area)."""
    return natural >= CACHE_SEARCH_NEEDS


def p_cache_found() -> Fraction:
    return sum((Fraction(1, 6) for face in D6.faces if cache_found(face)), Fraction(0))


def roll_cache_search(dice: DiceSource) -> dict:
    natural = dice.roll(D6, f"weapon cache search (needs {CACHE_SEARCH_NEEDS}+)")
    return {"roll": natural, "needed": CACHE_SEARCH_NEEDS, "found": cache_found(natural)}
