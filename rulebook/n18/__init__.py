"""The n18 edition (the 2018+ rules): its actions, tables and benchmarks for the command line and the apps.

Each table and action is defined in the module that implements its rule and registered here.
"""

from rulebook.editions import Action
from rulebook.n18 import campaign, checks, close_quarters, fighting, kit, movement, shooting
from rulebook.n18.advancement import GANGER_ADVANCEMENT
from rulebook.n18.damage import INJURY_DICE

CORE_ACTIONS = (
    Action(
        "shoot", "a Shoot action at one fighter: hit, wound, save, Damage and Injury dice", shooting.odds, shooting.roll
    ),
    Action("fight", "one fighter's close combat Attack dice against one enemy", fighting.odds, fighting.roll),
    Action("test", "characteristic, Nerve, Rally, Flee, Bottle, Recovery and Ammo tests", checks.odds, checks.roll),
    Action(
        "charge",
        'a Charge: Movement + D3" to reach the enemy, +1 Attack dice',
        close_quarters.charge_odds,
        close_quarters.charge_roll,
    ),
    Action(
        "coup-de-grace",
        "a Coup de Grace on a Prone and Seriously Injured enemy",
        close_quarters.coup_de_grace_odds,
        close_quarters.coup_de_grace_roll,
    ),
    Action(
        "blaze",
        "the Blaze condition: catching fire, the burn and putting it out",
        close_quarters.blaze_odds,
        close_quarters.blaze_roll,
    ),
    Action(
        "agility",
        "an Agility test (4+, natural 1 fails, natural 6 passes)",
        movement.agility_odds,
        movement.agility_roll,
    ),
    Action(
        "move-cost",
        "the Movement a path over terrain uses, and the tests it asks for",
        movement.move_cost_odds,
        movement.move_cost_roll,
    ),
    Action("fall", "falling, being forced off a ledge, or jumping down", movement.fall_odds, movement.fall_roll),
    Action(
        "chem",
        "a chem's roll: wearing off (Spur, Obscura, Kalma), Ghast's D6, Icrotic Slime's checks",
        kit.odds,
        kit.roll,
    ),
)

ACTIONS: dict = {action.name: action for action in (*CORE_ACTIONS, *campaign.ACTIONS)}
TABLES: dict = {table.name: table for table in (INJURY_DICE, GANGER_ADVANCEMENT, *campaign.TABLES)}

BENCHMARKS: list = [
    (
        "n18 shoot: BS 4+ lasgun at a T3 W1 5+ fighter in partial cover",
        "shoot",
        {
            "shooter": {"BS": 4},
            "weapon": "lasgun",
            "target": {"T": 3, "W": 1, "save": 5},
            "distance": 12,
            "cover": "partial",
        },
    ),
    (
        "n18 shoot: BS 3+ plasma gun at maximal power at a T4 W2 4+ fighter",
        "shoot",
        {
            "shooter": {"BS": 3},
            "weapon": "plasma gun",
            "profile": "maximal power",
            "target": {"T": 4, "W": 2, "save": 4},
            "distance": 10,
        },
    ),
    (
        "n18 shoot: BS 3+ heavy stubber, Rapid Fire (2), at a T3 W2 fighter in flak",
        "shoot",
        {"shooter": {"BS": 3}, "weapon": "heavy stubber", "target": {"T": 3, "W": 2, "armour": "flak"}, "distance": 18},
    ),
    (
        "n18 fight: WS 3+ A3 S4 power hammer against a T4 W2 5+ fighter",
        "fight",
        {"attacker": {"WS": 3, "A": 3, "S": 4}, "weapon": "power hammer", "target": {"T": 4, "W": 2, "save": 5}},
    ),
    (
        "n18 fight: charging power sword against a chainsword that parries and strikes back",
        "fight",
        {
            "attacker": {"WS": 3, "A": 2, "S": 3, "T": 3, "W": 2, "save": 5, "charging": True},
            "weapon": "power sword",
            "reaction": True,
            "target": {"T": 3, "W": 2, "save": 5, "WS": 4, "A": 2, "S": 3, "weapon": "chainsword"},
        },
    ),
    (
        "n18 fight: charging A3 with a sword and a laspistol against a sword and a chainsword, striking back",
        "fight",
        {
            "attacker": {"WS": 3, "A": 3, "S": 3, "T": 3, "W": 2, "save": 5, "charging": True},
            "weapon": "sword",
            "second_weapon": "laspistol",
            "reaction": True,
            "target": {
                "T": 3,
                "W": 2,
                "save": 5,
                "WS": 3,
                "A": 2,
                "S": 3,
                "weapon": "sword",
                "second_weapon": "chainsword",
            },
        },
    ),
]
