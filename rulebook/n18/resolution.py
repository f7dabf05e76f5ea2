"""The 2018+ hit, wound and save rolls, and one attack resolved from its hit roll to its Damage.

Sources (numbers are facts; the wording here is ours):

- N1 a copy of the 2023 core rulebook text, N2 necrodamus.org / necrovox.org ("Resolve Hits"), N3 a research
  note that checked both against the 2023 book; compiled in the project's content facts, section 3.
- Trait effects on the dice (Power, Rending, Shock, Melta, Knockback, Gas, Toxin): BSData necromunda-gang-war
  ``Necromunda-Gang-War.gst`` shared rules (https://github.com/BSData/necromunda-gang-war) and
  https://necrovox.org/docs/gang-fighters-and-their-weaponry/weapon-traits.
- Graviton Pulse (the grav gun and pistol): no wound roll; the fighter rolls a D6 and shrugs the hit off on a roll
  equal to or under their Strength, a 6 always failing; otherwise they take the weapon's Damage with no armour save.
  Flash and Web make no wound here either: their effect (Blind, Webbed) is worked out by the Shoot action
  (:mod:`rulebook.n18.shooting`). The 2023 core rulebook's weapon traits, read through the copy in the public
  repository yakuzadave/necroman_v2, ``necrovox_docs_flat/3-gang-fighters-and-their-weaponry/6-weapon-traits.md``.

Every rule is written once as a function of the die faces (``hit_face_result``, ``wound_succeeds``,
``save_succeeds``, and ``apply_injury`` in :mod:`rulebook.n18.damage`), so exact odds (enumerating faces) and
a roll on a dice source (reading faces from it) share the same code. A hit is resolved from its natural hit face
(:func:`resolve_hit`, :func:`roll_hit_resolution`), so several hits from one hit roll (Rapid Fire) or from
several Attack dice share the steps after the hit.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rulebook.dice import D3, D6, DiceSource, Dist, certain, chain, map_dist, mix
from rulebook.errors import RulesInputError
from rulebook.n18.damage import (
    INJURY_DIE,
    Fighter,
    apply_injury,
    damage_outcomes,
    injury_dice_count,
    roll_damage,
    roll_injury_die,
)
from rulebook.query import Query

# --- hit, wound and save rolls ----------------------------------------------------------

MISS = "miss"


def target_roll(needed: int) -> Fraction:
    """Chance of a D6 roll of ``needed`` or more where a natural 1 always fails."""
    return Fraction(min(5, max(0, 7 - needed)), 6)


def hit_face_result(face: int, skill: int, modifier: int) -> bool:
    """A hit roll against a target number (BS or WS): the die plus modifiers must reach it; a 1 always misses."""
    return face != 1 and face + modifier >= skill


def hit_needed(skill: int, modifier: int) -> dict:
    """What the hit roll needs: ``{"needed": n, "then": None}``; ``needed`` 6 ``then`` BS for the improbable shot.

    Improbable shot (content facts section 3): when modifiers put a hit out of reach, a 6 lets the shooter
    roll again, hitting on the bare target number.
    """
    needed = max(2, skill - modifier)
    if needed <= 6:
        return {"needed": needed, "then": None, "modifier": modifier}
    return {"needed": 6, "then": skill, "modifier": modifier}


def hit_faces(skill: int, modifier: int, improbable: bool = True) -> Dist:
    """Distribution of the natural face of a hitting die (2-6), or ``MISS``."""
    need = hit_needed(skill, modifier)
    if need["then"] is None:
        return _faces_or_miss(lambda f: hit_face_result(f, skill, modifier))
    if not improbable:
        return certain(MISS)
    second = _faces_or_miss(lambda f: hit_face_result(f, skill, 0))
    return mix([(Fraction(5, 6), certain(MISS)), (Fraction(1, 6), second)])


def _faces_or_miss(hits) -> Dist:
    out: Dist = {}
    for face in D6.faces:
        key = face if hits(face) else MISS
        out[key] = out.get(key, 0) + Fraction(1, 6)
    return out


def roll_hit(dice: DiceSource, skill: int, modifier: int, purpose: str = "hit roll"):
    """Roll a hit: returns the natural face of the hitting die, or ``MISS``."""
    need = hit_needed(skill, modifier)
    if need["then"] is None:
        face = dice.d6(f"{purpose} (needs {need['needed']}+, a 1 always misses)")
        return face if hit_face_result(face, skill, modifier) else MISS
    if dice.d6(f"{purpose}: improbable shot, needs a 6 to roll again") != 6:
        return MISS
    face = dice.d6(f"{purpose}: improbable shot, second die needs {skill}+")
    return face if hit_face_result(face, skill, 0) else MISS


def wound_target(strength: int, toughness: int) -> int:
    """The D6 score a hit needs to wound: Strength against Toughness (content facts section 3)."""
    if strength >= 2 * toughness:
        return 2
    if strength > toughness:
        return 3
    if strength == toughness:
        return 4
    if 2 * strength <= toughness:
        return 6
    return 5


def wound_succeeds(face: int, strength: int, toughness: int) -> bool:
    return face >= wound_target(strength, toughness)


def save_target(save: int | None, ap: int = 0, modifier: int = 0) -> int | None:
    """The D6 score a save needs after AP (``ap`` <= 0) and other modifiers; None when no save is left."""
    if save is None:
        return None
    needed = save - ap - modifier
    return needed if needed <= 6 else None


def save_succeeds(face: int, save: int | None, ap: int = 0, modifier: int = 0) -> bool:
    """A save roll: a natural 1 always fails (content facts section 3)."""
    needed = save_target(save, ap, modifier)
    return needed is not None and face != 1 and face >= needed


def p_save(save: int | None, ap: int = 0, modifier: int = 0) -> Fraction:
    needed = save_target(save, ap, modifier)
    return Fraction(0) if needed is None else target_roll(needed)


# --- one attack ---------------------------------------------------------------------------

DAMAGE_DICE = {"D3": D3, "D6": D6}


@dataclass(frozen=True)
class Attack:
    """One hit roll's worth of attack: a weapon profile at a target, with the hit modifiers known.

    ``skill`` None means the attack hits without a roll (a template weapon).
    """

    skill: int | None
    hit_modifier: int
    strength: int
    ap: int
    damage: int | str  # an int, "D3" or "D6"
    save: int | None
    save_modifier: int = 0
    traits: frozenset = frozenset()
    melta: bool = False  # Melta at short range: Out of Action instead of an Injury roll
    knockback_blocked: int | None = None  # the target's Strength when Knockback cannot move them, else None
    target_strength: int | None = None  # the target's Strength, which a Graviton Pulse hit is rolled against
    gas_toughness: int = 0  # Toughness the target's wargear adds to a Gas roll (a respirator: rulebook.n18.wargear)

    def has(self, trait: str) -> bool:
        return trait in self.traits


def damage_distribution(damage: int | str) -> Dist:
    if isinstance(damage, int):
        return certain(damage)
    return DAMAGE_DICE[damage].distribution()


def roll_damage_value(damage: int | str, dice: DiceSource) -> int:
    if isinstance(damage, int):
        return damage
    return dice.roll(DAMAGE_DICE[damage], "Damage")


def extra_damage(attack: Attack, hit_face, wound_face) -> int:
    """Power: a natural 6 to hit adds 1 Damage; Rending: a 6 to wound adds 1 Damage; Knockback: a hit roll at
    or above the target's Strength, when a wall or another fighter stops them being moved, adds 1 Damage
    (BSData gst traits)."""
    knocked = attack.knockback_blocked is not None and hit_face != 0 and hit_face >= attack.knockback_blocked
    return int(attack.has("Power") and hit_face == 6) + int(attack.has("Rending") and wound_face == 6) + knocked


def save_allowed(attack: Attack, hit_face) -> bool:
    """Power: a natural 6 to hit allows no save (BSData gst, Power trait); Gas and Graviton Pulse allow no save."""
    return not (attack.has("Power") and hit_face == 6) and not attack.has("Gas") and not attack.has("Graviton Pulse")


NO_WOUND_EFFECTS = ("Flash", "Web")  # a hit makes no wound roll here; the Shoot action works out their effect


def resists_gravity(face: int, strength: int) -> bool:
    """Graviton Pulse: a D6 equal to or under the fighter's Strength shrugs the hit off; a 6 always fails."""
    return face != 6 and face <= strength


def poisons(attack: Attack) -> bool:
    """Gas and Toxin: no wound roll; a D6 against Toughness decides whether an Injury roll is made
    (https://necrovox.org/docs/gang-fighters-and-their-weaponry/weapon-traits)."""
    return attack.has("Gas") or attack.has("Toxin")


def poison_takes(face: int, toughness: int) -> bool:
    """The Gas or Toxin roll: a D6 at or above the target's Toughness, or a natural 6."""
    return face == 6 or face >= toughness


def poison_toughness(attack: Attack, toughness: int) -> int:
    """The Toughness a Gas or Toxin roll is made against: the target's, raised against Gas by their respirator or
    filter plugs (``gas_toughness``, nought for Toxin)."""
    return toughness + attack.gas_toughness


def auto_wounds(attack: Attack, hit_face) -> bool:
    """Shock: a natural 6 to hit wounds without a wound roll (BSData gst, Shock trait)."""
    return attack.has("Shock") and hit_face == 6


def attack_faces(attack: Attack) -> Dist:
    return certain(0) if attack.skill is None else hit_faces(attack.skill, attack.hit_modifier)


def resolve(attack: Attack, fighter: Fighter) -> Dist:
    """Exact distribution of (step, Injury dice rolled, fighter after) for one attack.

    ``step`` is ``miss``, ``no_wound``, ``saved`` or ``unsaved``.
    """

    def after_hit(face) -> Dist:
        return certain((MISS, 0, fighter)) if face == MISS else resolve_hit(attack, fighter, face)

    return chain(attack_faces(attack), after_hit)


def canonical_face(attack: Attack, face):
    """A hit face standing for every face that resolves the same way, so equal cases are worked out once.

    Only a natural 6 (Power, Shock) and a face at or above a blocked target's Strength (Knockback) change
    what happens after the hit; any other hit is resolved like a hit without a roll (face 0).
    """
    if face in (MISS, 0):
        return face
    if face == 6 and (attack.has("Power") or attack.has("Shock")):
        return 6
    if attack.knockback_blocked is not None and face >= attack.knockback_blocked:
        return attack.knockback_blocked
    return 0


@lru_cache(maxsize=8192)
def resolve_hit(attack: Attack, fighter: Fighter, hit_face) -> Dist:
    """Exact distribution of (step, Injury dice, fighter after) for a hit scored with the natural ``hit_face``
    (0 for a hit without a roll): the wound roll, the save and the Damage."""
    toughness = fighter.current_toughness

    def after_wound(wound_face) -> Dist:
        if wound_face is not None and not wound_succeeds(wound_face, attack.strength, toughness):
            return certain(("no_wound", 0, fighter))
        extra = extra_damage(attack, hit_face, wound_face)
        unsaved = chain(damage_distribution(attack.damage), lambda d: unsaved_hit(d + extra))
        if not save_allowed(attack, hit_face):
            return unsaved
        saved = p_save(attack.save, attack.ap, attack.save_modifier)
        return mix([(saved, certain(("saved", 0, fighter))), (1 - saved, unsaved)])

    def unsaved_hit(damage: int) -> Dist:
        dice = injury_dice_count(fighter, damage)
        outcomes = damage_outcomes(fighter, damage, attack.melta, attack.has("Pulverise"))
        return map_dist(outcomes, lambda f: ("unsaved", dice, f))

    def after_poison(face: int) -> Dist:
        if not poison_takes(face, poison_toughness(attack, toughness)):
            return certain(("no_wound", 0, fighter))
        # One Injury roll whatever the fighter's Wounds, after a save if the trait allows one.
        injured = map_dist(INJURY_DIE, lambda r: ("unsaved", 1, apply_injury(fighter, r, attack.melta)))
        saved = p_save(attack.save, attack.ap, attack.save_modifier) if save_allowed(attack, hit_face) else 0
        return mix([(saved, certain(("saved", 0, fighter))), (1 - saved, injured)])

    def after_gravity(face: int) -> Dist:
        if resists_gravity(face, attack.target_strength):
            return certain(("no_wound", 0, fighter))
        return chain(damage_distribution(attack.damage), unsaved_hit)

    if fighter.out_of_action or any(attack.has(t) for t in NO_WOUND_EFFECTS):
        return certain(("no_wound", 0, fighter))
    if attack.has("Graviton Pulse"):
        return chain(D6.distribution(), after_gravity)
    if poisons(attack):
        return chain(D6.distribution(), after_poison)
    wound_faces: Dist = certain(None) if auto_wounds(attack, hit_face) else D6.distribution()
    return chain(wound_faces, after_wound)


STEP_ORDER = {MISS: 0, "no_wound": 1, "saved": 2, "unsaved": 3}


def later_step(a: str, b: str) -> str:
    """Of two hits' steps, the one that went further (a wound that got through beats a saved one)."""
    return a if STEP_ORDER[a] >= STEP_ORDER[b] else b


@lru_cache(maxsize=8192)
def fighter_after_hits(attack: Attack, fighter: Fighter, faces: tuple) -> Dist:
    """Exact distribution of the fighter after hits with these natural faces, resolved in the order given."""
    if not faces:
        return certain(fighter)
    before = fighter_after_hits(attack, fighter, faces[:-1])
    return chain(before, lambda f: map_dist(resolve_hit(attack, f, faces[-1]), lambda r: r[2]))


def roll_attack(attack: Attack, fighter: Fighter, dice: DiceSource) -> tuple[str, int, Fighter]:
    """One attack rolled on a dice source: the same steps as :func:`resolve`."""
    hit_face = 0 if attack.skill is None else roll_hit(dice, attack.skill, attack.hit_modifier)
    if hit_face == MISS:
        return MISS, 0, fighter
    return roll_hit_resolution(attack, fighter, dice, hit_face)


def roll_hit_resolution(attack: Attack, fighter: Fighter, dice: DiceSource, hit_face) -> tuple[str, int, Fighter]:
    """A hit scored with the natural ``hit_face``, rolled on a dice source: the same steps as :func:`resolve_hit`."""
    if fighter.out_of_action or any(attack.has(t) for t in NO_WOUND_EFFECTS):
        return "no_wound", 0, fighter
    toughness = fighter.current_toughness
    if attack.has("Graviton Pulse"):
        strength = attack.target_strength
        if resists_gravity(dice.d6(f"Graviton Pulse: {strength} or under resists, a 6 always fails"), strength):
            return "no_wound", 0, fighter
        damage = roll_damage_value(attack.damage, dice)
        return "unsaved", injury_dice_count(fighter, damage), roll_damage(fighter, damage, dice, attack.melta)
    if poisons(attack):
        needed = poison_toughness(attack, toughness)
        face = dice.d6(f"{'Gas' if attack.has('Gas') else 'Toxin'} roll (needs {needed}+ or a 6)")
        if not poison_takes(face, needed):
            return "no_wound", 0, fighter
        if roll_save(attack, hit_face, dice):
            return "saved", 0, fighter
        return "unsaved", 1, apply_injury(fighter, roll_injury_die(dice), attack.melta)
    wound_face = None
    if not auto_wounds(attack, hit_face):
        needed = wound_target(attack.strength, toughness)
        wound_face = dice.d6(f"wound roll (S{attack.strength} against T{toughness} needs {needed}+)")
        if not wound_succeeds(wound_face, attack.strength, toughness):
            return "no_wound", 0, fighter
    if roll_save(attack, hit_face, dice):
        return "saved", 0, fighter
    damage = roll_damage_value(attack.damage, dice) + extra_damage(attack, hit_face, wound_face)
    after = roll_damage(fighter, damage, dice, attack.melta, attack.has("Pulverise"))
    return "unsaved", injury_dice_count(fighter, damage), after


def roll_save(attack: Attack, hit_face, dice: DiceSource) -> bool:
    """A save roll on a dice source, when one is allowed and possible: True if saved."""
    if not save_allowed(attack, hit_face):
        return False
    needed = save_target(attack.save, attack.ap, attack.save_modifier)
    if needed is None:
        return False
    face = dice.d6(f"save roll (needs {needed}+, a 1 always fails)")
    return save_succeeds(face, attack.save, attack.ap, attack.save_modifier)


# --- reading inputs -------------------------------------------------------------------------


def target_number(query: Query, name: str, low: int = 2, high: int = 6, default=None) -> int:
    """A 2018+ target-number characteristic such as BS 4+ (given as 4 or "4+")."""
    raw = query.raw(name, default)
    if isinstance(raw, str) and raw.strip().endswith("+"):
        raw = raw.strip()[:-1]
    return Query({name: raw}, query.path).int(name, low, high)


def read_save(query: Query, name: str = "save") -> int | None:
    """An armour save such as 5 for 5+ (or "5+"), or null for none."""
    if not query.has(name):
        return None
    return target_number(query, name, 2, 6)


def read_modifiers(query: Query, name: str = "modifiers") -> int:
    """The sum of a list of whole-number modifiers (``[-1, 1]``)."""
    raw = query.raw(name, [])
    if not isinstance(raw, list):
        raise RulesInputError(query.field(name), "must be a list of whole numbers, e.g. [-1]")
    return sum(Query({"m": m}, f"{query.field(name)}[{i}]").int("m", -6, 6) for i, m in enumerate(raw))
