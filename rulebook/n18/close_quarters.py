"""The 2018+ actions around a fight: Charge, Coup de Grace, and the Blaze condition.

Sources (numbers are facts; the wording here is ours):

- Charge (Double) and Coup de Grace (Simple): the 2023 core rulebook, Fighter Actions
  (https://necrovox.org/docs/the-rules/fighter-actions, read through the copy in the public repository
  yakuzadave/necroman_v2, ``necrovox_docs_flat/6-the-rules/7-fighter-actions.md``). A charge moves the
  fighter's Movement plus D3"; a fighter who ends it Engaged makes a free Fight action with one more Attack
  dice (Close Combat step 3; ``charging`` in the ``fight`` action), at -1 to hit if they could not see the
  enemy when they charged; with a Versatile weapon the charge need only end within its reach (Weapon Traits:
  Versatile). A fighter under Obscura has a Movement of D6" (the 2023 book's Chems, ``rulebook.n18.kit``): their
  charge covers D6 + D3" (``movement_d6``). A Coup de Grace, by a fighter engaged with no one else, takes a Prone and
  Seriously Injured enemy within 1" Out of Action: no dice.
- Blaze: after an attack with the Blaze trait hits a fighter and does not take them Out of Action, a D6 of
  4+ sets them ablaze. When they are next activated they take a Strength 3, AP -1, Damage 1 hit; a Pinned
  fighter stands up; a Standing fighter not Engaged moves 2D6" in a random direction and may then drop
  Prone and Pinned; then, at the end of that activation, they try to put the fire out: a D6, +1 for each
  other Active friend within 1", +2 if Pinned or Seriously Injured, 6 or more puts it out
  (https://necrovox.org/docs/gang-fighters-and-their-weaponry/weapon-traits; the same numbers in the
  "Necromunda Complete Weapon Trait List" at https://scribd.com/document/732355033).
"""

from __future__ import annotations

from fractions import Fraction

from rulebook.dice import D3, D6, DiceSource, Dist, chain, combine, map_dist, probability
from rulebook.errors import RulesInputError
from rulebook.n18.armour import Defence
from rulebook.n18.damage import Fighter, classify, fighter_json, read_fighter
from rulebook.n18.fighting import outcome_dist
from rulebook.n18.resolution import Attack, resolve, roll_attack
from rulebook.output import dist, prob
from rulebook.query import Query

# --- Charge -------------------------------------------------------------------------------------------

CHARGE_UNSEEN_MODIFIER = -1


def charge_move(movement: int, movement_d6: bool = False) -> Dist:
    """The inches a charge covers: Movement + D3", or D6 + D3" for a Movement of D6" (Obscura)."""
    if movement_d6:
        return combine(D6.distribution(), D3.distribution(), lambda a, b: a + b)
    return map_dist(D3.distribution(), lambda extra: movement + extra)


def charge_reaches(movement: int, distance: float, movement_d6: bool = False) -> Fraction:
    """Chance a charge of Movement + D3" (D6 + D3" with ``movement_d6``) covers ``distance`` inches."""
    return probability(charge_move(movement, movement_d6), lambda move: move >= distance)


def _charge(query: Query) -> tuple[int, float, bool, bool]:
    """Movement, the distance the charge must cover, whether the enemy was out of sight and whether Movement is D6"
    (``movement_d6``). With a Versatile weapon (``reach``, its Long range) the charger need only come within its
    reach of the enemy (2023 core rulebook, Weapon Traits: Versatile)."""
    movement, distance = query.int("M", 1, 12), query.number("distance", 0, 100)
    reach = query.int("reach", 0, 12, default=0)
    return movement, max(0, distance - reach), query.bool("unseen"), query.bool("movement_d6")


def charge_odds(query: Query) -> dict:
    movement, distance, unseen, movement_d6 = _charge(query)
    return {
        "move": {str(move): str(p) for move, p in sorted(charge_move(movement, movement_d6).items())},
        **prob("p_reaches", charge_reaches(movement, distance, movement_d6)),
        "attack_dice_bonus": 1,
        "hit_modifier": CHARGE_UNSEEN_MODIFIER if unseen else 0,
    }


def charge_roll(query: Query, dice: DiceSource) -> dict:
    movement, distance, unseen, movement_d6 = _charge(query)
    if movement_d6:
        movement = dice.d6('Charge: Movement D6" (Obscura)')
    extra = dice.roll(D3, f'Charge: D3" added to Movement {movement}"')
    return {
        "move": movement + extra,
        "reaches": movement + extra >= distance,
        "attack_dice_bonus": 1,
        "hit_modifier": CHARGE_UNSEEN_MODIFIER if unseen else 0,
    }


# --- Coup de Grace ------------------------------------------------------------------------------------


def _coup_de_grace(query: Query) -> Fighter:
    target_q = query.sub("target")
    target, state = read_fighter(target_q)
    target_q.accept("save")  # no save against a Coup de Grace
    if state != "seriously_injured":
        raise RulesInputError("target.state", "a Coup de Grace needs a Prone and Seriously Injured target")
    if query.bool("engaged_with_others"):
        raise RulesInputError("engaged_with_others", "a fighter engaged with another enemy cannot make a Coup de Grace")
    return target


def coup_de_grace_odds(query: Query) -> dict:
    _coup_de_grace(query)
    return {**prob("p_out_of_action", Fraction(1)), "dice": 0}


def coup_de_grace_roll(query: Query, dice: DiceSource) -> dict:
    target = _coup_de_grace(query)
    after = Fighter(target.toughness, 0, target.flesh_wounds, True, out_of_action=True)
    return {"outcome": "out_of_action", "target_after": fighter_json(after)}


# --- Blaze --------------------------------------------------------------------------------------------

BLAZE_CATCHES = 4
BURN = {"skill": None, "hit_modifier": 0, "strength": 3, "ap": -1, "damage": 1}
FLAMES_OUT = 6
PRONE_BONUS = 2


class Blaze:
    """A fighter ablaze at their activation: the burn, then the roll to put the fire out."""

    def __init__(self, query: Query) -> None:
        target_q = query.sub("target")
        self.fighter, self.state = read_fighter(target_q)
        save, save_modifier = Defence(target_q).against(BURN["ap"])
        self.burn = Attack(**BURN, save=save, save_modifier=save_modifier)
        self.friends = query.int("friends_within_1", 0, 10, default=0)
        # A Standing fighter who is not Engaged moves 2D6" and may then drop Prone and Pinned (as a Pinned one
        # stands up and does): the player's choice, asked here.
        self.moves = self.state in ("standing", "prone")
        self.goes_prone = query.bool("goes_prone")
        if self.goes_prone and not self.moves:
            raise RulesInputError("goes_prone", "only a fighter who moves while ablaze can drop Prone afterwards")

    def modifier(self, after: Fighter) -> int:
        return self.friends + (PRONE_BONUS if after.seriously_injured or self.goes_prone else 0)

    def puts_out(self, face: int, after: Fighter) -> bool:
        return face + self.modifier(after) >= FLAMES_OUT


def blaze_odds(query: Query) -> dict:
    step = query.choice("step", ("catch", "activation"), default="activation")
    if step == "catch":
        query.accept("target", "friends_within_1", "goes_prone")
        return {"step": step, **prob("p_catches_fire", probability(D6.distribution(), lambda f: f >= BLAZE_CATCHES))}
    blaze = Blaze(query)
    burnt = map_dist(resolve(blaze.burn, blaze.fighter), lambda r: r[2])

    def put_out(after: Fighter) -> Dist:
        if after.out_of_action:
            return {"out_of_action": Fraction(1)}
        return map_dist(D6.distribution(), lambda f: "flames_out" if blaze.puts_out(f, after) else "still_ablaze")

    ends = chain(burnt, put_out)
    return {
        "step": step,
        "burn": {"strength": 3, "ap": -1, "damage": 1},
        **dist("outcome", outcome_dist(blaze.fighter, burnt)),
        "moves": '2D6" in a random direction' if blaze.moves else None,
        **prob("p_flames_out", ends.get("flames_out", 0)),
        **prob("p_still_ablaze", ends.get("still_ablaze", 0)),
    }


def blaze_roll(query: Query, dice: DiceSource) -> dict:
    step = query.choice("step", ("catch", "activation"), default="activation")
    if step == "catch":
        query.accept("target", "friends_within_1", "goes_prone")
        face = dice.d6(f"Blaze: catches fire on {BLAZE_CATCHES}+")
        return {"step": step, "score": face, "catches_fire": face >= BLAZE_CATCHES}
    blaze = Blaze(query)
    _, _, after = roll_attack(blaze.burn, blaze.fighter, dice)
    answer = {
        "step": step,
        "outcome": "unharmed" if after == blaze.fighter else classify(blaze.fighter, after),
        "target_after": fighter_json(after),
    }
    if blaze.moves and not after.out_of_action:
        answer["move"] = sum(dice.two_d6('Blaze: moves 2D6" in a random direction'))
    if after.out_of_action:
        return {**answer, "flames_out": None}
    face = dice.d6(f"Blaze: put the fire out (needs {FLAMES_OUT - blaze.modifier(after)}+)")
    return {**answer, "score": face, "flames_out": blaze.puts_out(face, after)}
