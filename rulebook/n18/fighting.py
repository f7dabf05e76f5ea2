"""The 2018+ close combat attacks of one fighter against one enemy, and the enemy's Reaction attacks.

Sources (numbers are facts; the wording here is ours):

- Attack dice (the Attacks characteristic, +1 when charging), hit rolls against WS with "a 1 always misses",
  the weapon's Accuracy applying to Melee weapons but not to pistols (Sidearm), unarmed attacks at the
  fighter's own Strength, AP -, Damage 1, and Reaction attacks by an enemy still Standing and Engaged once
  the attacks are resolved: the 2023 core rulebook, https://necrovox.org/docs/the-rules/close-combat (read
  through the copy in the public repository yakuzadave/necroman_v2,
  ``necrovox_docs_flat/6-the-rules/13-close-combat.md``); the wound, save, Damage and Injury steps from the
  project's content facts section 3 (N1-N3).
- Parry: after the attacks are rolled, a fighter with a Parry weapon makes the attacker re-roll one
  successful hit (two with two Parry weapons); Power attacks are parried only by Power weapons. Disarm: a
  natural 6 to hit leaves the target only unarmed Reaction attacks. Power, Shock, Rending and Knockback as in
  ``rulebook.n18.resolution``. BSData necromunda-gang-war ``Necromunda-Gang-War.gst`` shared rules
  (https://github.com/BSData/necromunda-gang-war).
- Weapon profiles from ``rulebook/data/n18/trading_post.json``.

The query: ``attacker`` {``WS``, ``A``, ``S``, ``charging``; ``T``, ``W``, ``save`` when the target strikes
back}, ``weapon`` (and ``profile``; none for unarmed), ``modifiers``, ``target`` {``T``, ``W``,
``flesh_wounds``, ``state``, ``save``, ``weapon`` (its Parry counts), ``S`` with ``knockback_blocked``; ``WS``,
``A``, ``S``, ``modifiers`` when it strikes back} and ``reaction`` (true: the target's Reaction attacks).

Choices the rules leave to the players, fixed here and named in each answer: the parrying fighter always
parries and makes the attacker re-roll their best hit (the highest natural face); hits are resolved highest
face first; the target, if still Standing, makes Reaction attacks only when the query asks (``reaction``).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rulebook.dice import D6, DiceSource, Dist, certain, chain, combine, map_dist, mix
from rulebook.errors import RulesInputError
from rulebook.n18 import trading_post
from rulebook.n18.damage import Fighter, classify, fighter_json, read_fighter
from rulebook.n18.resolution import (
    MISS,
    Attack,
    canonical_face,
    fighter_after_hits,
    hit_face_result,
    hit_needed,
    read_modifiers,
    read_save,
    roll_hit_resolution,
    target_number,
)
from rulebook.output import dist, prob
from rulebook.query import Query

UNARMED = {"weapon": "Unarmed", "name": "", "strength": "S", "ap": 0, "damage": 1, "traits": ["Melee"]}
OUTCOMES = ("unharmed", "wound_lost", "flesh_wound", "seriously_injured", "out_of_action")
RESOLVED = frozenset({"Power", "Rending", "Shock", "Toxin", "Pulverise"})
MODELLED = RESOLVED | {"Parry", "Disarm", "Knockback", "Melee"}  # a pistol's one-Attack-dice limit is not
CLOSE_COMBAT = {"Melee", "Pistol", "Sidearm", "Versatile"}
ASSUMPTIONS = (
    "a fighter with a Parry weapon always parries, making the attacker re-roll the hit with the highest face; "
    "hits are resolved highest face first; a pistol (Pistol, Sidearm) is used with every Attack dice, though the "
    "2023 rules allow it one and the rest are unarmed"
)


# --- one side's attacks -----------------------------------------------------------------------------


class Side:
    """One fighter's close combat attacks: Attack dice, weapon and its traits, read from a query."""

    def __init__(self, fighter: Query, weapon_query: Query, profile_field: str) -> None:
        self.skill = target_number(fighter, "WS")
        self.dice = fighter.int("A", 1, 10) + fighter.bool("charging")
        self.strength = fighter.int("S", 1, 10)
        self.profile = close_combat_weapon(weapon_query, profile_field)
        self.field = weapon_query.field("weapon")
        self.traits = trading_post.trait_names(self.profile)

    @property
    def accuracy(self) -> int:
        """A Melee weapon's Accuracy applies in close combat; a pistol's does not."""
        if self.traits & {"Pistol", "Sidearm"}:
            return 0
        return self.profile.get("acc_short") or self.profile.get("acc_long") or 0

    @property
    def parries(self) -> int:
        return int("Parry" in self.traits)

    def attack(self, modifier: int, save: int | None, knockback_blocked: int | None, unarmed: bool = False) -> Attack:
        profile = UNARMED if unarmed else self.profile
        traits = trading_post.trait_names(profile)
        if (profile["strength"] is None or profile["damage"] is None) and "Toxin" not in traits:
            raise RulesInputError(self.field, f"{profile['weapon']} needs a Strength and Damage, or the Toxin trait")
        return Attack(
            skill=self.skill,
            hit_modifier=modifier + (0 if unarmed else self.accuracy),
            strength=trading_post.resolve_strength(profile["strength"], self.strength, self.field),
            ap=profile["ap"],
            damage=profile["damage"] or 0,
            save=save,
            traits=frozenset(traits & RESOLVED),
            knockback_blocked=knockback_blocked if "Knockback" in traits else None,
        )


def close_combat_weapon(query: Query, profile_field: str) -> dict:
    """The weapon a fighter uses in close combat (``weapon``), or an unarmed attack when none is named."""
    if not query.has("weapon"):
        return UNARMED
    profile = trading_post.read_profile(query, "weapon", profile_field)
    if profile["long_range"] != "E" and not trading_post.trait_names(profile) & CLOSE_COMBAT:
        raise RulesInputError(query.field("weapon"), f"{profile['weapon']} is not a Melee weapon or a pistol")
    return profile


def can_parry(attack: Attack, parry_has_power: bool) -> bool:
    """Power attacks are parried only by Power weapons."""
    return not attack.has("Power") or parry_has_power


def hit_face_dist(attack: Attack) -> Dist:
    """One Attack dice: its natural face when it hits, else ``MISS``."""
    out: Dist = {}
    for face in D6.faces:
        key = face if hit_face_result(face, attack.skill, attack.hit_modifier) else MISS
        out[key] = out.get(key, 0) + Fraction(1, 6)
    return out


@lru_cache(maxsize=1024)
def hit_faces(attack: Attack, dice: int, parries: int) -> Dist:
    """Exact distribution of the hitting faces (a tuple, highest first) after the defender's parries."""
    one = hit_face_dist(attack)
    rolled: Dist = certain(((), ()))  # (hits not re-rolled, hits already re-rolled)
    for _ in range(dice):
        rolled = combine(rolled, one, lambda state, face: state if face == MISS else (_add(state[0], face), ()))
    for _ in range(parries):
        rolled = chain(rolled, lambda state: _parry(state, one))
    return map_dist(rolled, lambda state: tuple(sorted(state[0] + state[1], reverse=True)))


def _add(faces: tuple, face) -> tuple:
    return tuple(sorted((*faces, face), reverse=True))


def _parry(state: tuple, one: Dist) -> Dist:
    """Re-roll the best hit that has not been re-rolled yet."""
    fresh, rerolled = state
    if not fresh:
        return certain(state)
    rest = fresh[1:]
    return map_dist(one, lambda face: (rest, rerolled if face == MISS else _add(rerolled, face)))


def side_results(attack: Attack, dice: int, parries: int, fighter: Fighter) -> Dist:
    """Exact distribution of (hits, a natural 6 among them, fighter after) for one side's attacks."""
    faces = map_dist(
        hit_faces(attack, dice, parries),
        lambda f: (len(f), 6 in f, tuple(canonical_face(attack, face) for face in f)),
    )
    return chain(
        faces, lambda k: map_dist(fighter_after_hits(attack, fighter, k[2]), lambda after: (k[0], k[1], after))
    )


# --- reading a fight ---------------------------------------------------------------------------------


class Fight:
    """A fight query read once: the attacker's attacks, the target, its parries and its Reaction attacks."""

    def __init__(self, query: Query) -> None:
        attacker_q, target_q = query.sub("attacker"), query.sub("target")
        self.attacker = Side(attacker_q, query, "profile")
        self.target, _ = read_fighter(target_q)
        defender_weapon = close_combat_weapon(target_q, "weapon_profile")
        blocked = target_q.int("S", 1, 10) if target_q.bool("knockback_blocked") else None
        self.attack = self.attacker.attack(read_modifiers(query), read_save(target_q), blocked)
        parry_traits = trading_post.trait_names(defender_weapon)
        self.parries = int("Parry" in parry_traits) if can_parry(self.attack, "Power" in parry_traits) else 0
        self.reaction = None
        if query.bool("reaction"):
            self.defender = Side(target_q, target_q, "weapon_profile")
            self.attacker_fighter, _ = read_fighter(attacker_q)
            save = read_save(attacker_q)
            self.reaction = self.defender.attack(read_modifiers(target_q), save, None)
            self.reaction_unarmed = self.defender.attack(read_modifiers(target_q), save, None, unarmed=True)
            own = self.attacker.traits
            self.reaction_parries = int("Parry" in own) if can_parry(self.reaction, "Power" in own) else 0


def reacts(fighter: Fighter) -> bool:
    """A fighter still Standing (not Seriously Injured nor Out of Action) strikes back."""
    return not (fighter.out_of_action or fighter.seriously_injured)


def disarmed(fight: Fight, six: bool) -> bool:
    """Disarm: a natural 6 to hit leaves the target only unarmed Reaction attacks."""
    return "Disarm" in fight.attacker.traits and six


def _outcome(before: Fighter, states: Dist) -> dict:
    out = dict.fromkeys(OUTCOMES, Fraction(0))
    for after, p in states.items():
        out["unharmed" if after == before else classify(before, after)] += p
    return out


# --- exact odds -----------------------------------------------------------------------------------------


def odds(query: Query) -> dict:
    fight = Fight(query)
    attack = fight.attack
    found = side_results(attack, fight.attacker.dice, fight.parries, fight.target)
    hits = map_dist(found, lambda r: r[0])
    answer = {
        "weapon": fight.attacker.profile["weapon"],
        "to_hit": hit_needed(attack.skill, attack.hit_modifier),
        "attack_dice": fight.attacker.dice,
        "parries": fight.parries,
        **dist("hits", hits),
        **prob("p_any_hit", 1 - hits.get(0, 0)),
        **dist("outcome", _outcome(fight.target, map_dist(found, lambda r: r[2]))),
        "traits_not_modelled": trading_post.unmodelled(fight.attacker.profile, MODELLED),
        "assumptions": ASSUMPTIONS,
    }
    if fight.reaction is not None:
        answer["reaction"] = reaction_odds(fight, found)
    return answer


def reaction_odds(fight: Fight, found: Dist) -> dict:
    """The target's Reaction attacks against the attacker, when the target is still Standing."""
    p_armed = sum(
        (p for (_, six, after), p in found.items() if reacts(after) and not disarmed(fight, six)), Fraction(0)
    )
    p_unarmed = sum((p for (_, six, after), p in found.items() if reacts(after) and disarmed(fight, six)), Fraction(0))
    before = fight.attacker_fighter

    def back(attack: Attack) -> Dist:
        return map_dist(side_results(attack, fight.defender.dice, fight.reaction_parries, before), lambda r: r[2])

    states = mix(
        [(1 - p_armed - p_unarmed, certain(before)), (p_armed, back(fight.reaction)),
         (p_unarmed, back(fight.reaction_unarmed))]
    )  # fmt: skip
    return {
        "weapon": fight.defender.profile["weapon"],
        "to_hit": hit_needed(fight.reaction.skill, fight.reaction.hit_modifier),
        "attack_dice": fight.defender.dice,
        "parries": fight.reaction_parries,
        **prob("p_reacts", p_armed + p_unarmed),
        **prob("p_disarmed", p_unarmed),
        **dist("attacker_outcome", _outcome(before, states)),
        "traits_not_modelled": trading_post.unmodelled(fight.defender.profile, MODELLED),
    }


# --- one roll -------------------------------------------------------------------------------------------


def roll_side(attack: Attack, dice_count: int, parries: int, fighter: Fighter, dice: DiceSource, who: str):
    """Roll one side's Attack dice, the parries and each hit; returns (faces, hits, steps, fighter after).

    ``steps`` has one entry per Attack dice in the order rolled (``attack``, ``face``, ``result``,
    ``injury_dice``, and ``parried``/``reroll`` for a parried hit); hits are resolved highest face first.
    """
    need = hit_needed(attack.skill, attack.hit_modifier)["needed"]
    faces = [dice.d6(f"{who} Attack dice {n + 1} (hits on {need}+, a 1 always misses)") for n in range(dice_count)]
    steps = [{"attack": n + 1, "face": face, "result": MISS, "injury_dice": 0} for n, face in enumerate(faces)]
    hitting = sorted(
        (n for n, face in enumerate(faces) if hit_face_result(face, attack.skill, attack.hit_modifier)),
        key=lambda n: -faces[n],
    )
    landed = {n: faces[n] for n in hitting}
    for n in hitting[:parries]:
        again = dice.d6(f"{who}: parried hit ({faces[n]}) re-rolled")
        steps[n].update(parried=True, reroll=again)
        if hit_face_result(again, attack.skill, attack.hit_modifier):
            landed[n] = again
        else:
            del landed[n]
    for n in sorted(landed, key=lambda n: -landed[n]):
        if fighter.out_of_action:
            break
        step, injuries, fighter = roll_hit_resolution(attack, fighter, dice, landed[n])
        steps[n].update(result=step, injury_dice=injuries)
    return faces, sorted(landed.values(), reverse=True), steps, fighter


def roll(query: Query, dice: DiceSource) -> dict:
    fight = Fight(query)
    faces, hits, steps, after = roll_side(fight.attack, fight.attacker.dice, fight.parries, fight.target, dice,
                                          "attacker")  # fmt: skip
    answer = {
        "weapon": fight.attacker.profile["weapon"],
        "attack_dice": faces,
        "attacks": steps,
        "hits": len(hits),
        "outcome": "unharmed" if after == fight.target else classify(fight.target, after),
        "target_after": fighter_json(after),
        "traits_not_modelled": trading_post.unmodelled(fight.attacker.profile, MODELLED),
    }
    if fight.reaction is not None:
        answer["reaction"] = {"made": reacts(after)}
        if reacts(after):
            attack = fight.reaction_unarmed if disarmed(fight, 6 in hits) else fight.reaction
            back = roll_side(attack, fight.defender.dice, fight.reaction_parries, fight.attacker_fighter, dice,
                             "target")  # fmt: skip
            answer["reaction"].update({
                "attack_dice": back[0], "attacks": back[2], "hits": len(back[1]),
                "outcome": "unharmed" if back[3] == fight.attacker_fighter else classify(fight.attacker_fighter, back[3]),
                "attacker_after": fighter_json(back[3]),
            })  # fmt: skip
    return answer
