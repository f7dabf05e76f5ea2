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
- Blind (2023 core rulebook, Conditions, ``necrovox_docs_flat/4-general-principles/10-conditions.md`` in the same
  copy): a Blind fighter, until next activated, makes only Reaction attacks and they hit only on a natural 6,
  whatever the fighter's WS, the weapon's Accuracy or other modifiers.
- Weapon profiles from ``rulebook/data/n18/trading_post.json``.

- Choosing weapons and Attack dice (2023 core rulebook, Close Combat steps 2-3, same copy): up to two Melee
  or Sidearm weapons (one if Unwieldy), +1 Attack dice for two, the dice split as evenly as possible; a
  Sidearm (the 2018 books' Pistol trait) takes only one Attack dice, the rest going to a Melee weapon or,
  with none, to unarmed attacks; each weapon's dice are rolled with its own profile.

The query: ``attacker`` {``WS``, ``A``, ``S``, ``charging``, ``skills`` (Berserker, ``rulebook.n18.skills``); ``T``, ``W``, ``save`` when the target strikes
back}, ``weapon`` (and ``profile``; none for unarmed), ``second_weapon`` (and ``second_profile``) for a
fighter using two weapons, ``modifiers``, ``target`` {``T``, ``W``, ``flesh_wounds``, ``state``, ``save``,
``weapon`` and ``second_weapon`` (each Parry weapon re-rolls a hit; ``weapon_profile``,
``second_weapon_profile``), ``S`` with ``knockback_blocked``; ``WS``, ``A``, ``S``, ``modifiers`` when it
strikes back, ``blind`` (Flash: until next activated, its Reaction attacks hit only on a natural 6)}, ``reaction`` (true: the target's Reaction attacks) and ``distance`` (inches between the fighters, 0
for base contact: beyond it only Versatile weapons whose reach covers it attack, and the target strikes back only
with one). Every field not listed is refused.

Choices the rules leave to the players, fixed here and named in each answer: the parrying fighter always
parries and makes the attacker re-roll their best hit (the highest natural face); hits are resolved highest
face first; the target, if still Standing, makes Reaction attacks only when the query asks (``reaction``).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rulebook.dice import D6, DiceSource, Dist, certain, chain, combine, map_dist, mix
from rulebook.errors import RulesInputError
from rulebook.n18 import skills, trading_post
from rulebook.n18.armour import Defence
from rulebook.n18.damage import Fighter, classify, fighter_json, read_fighter
from rulebook.n18.resolution import (
    MISS,
    Attack,
    canonical_face,
    fighter_after_hits,
    hit_face_result,
    hit_needed,
    read_modifiers,
    roll_hit_resolution,
    target_number,
)
from rulebook.output import dist, prob
from rulebook.query import Query

UNARMED = {"weapon": "Unarmed", "name": "", "strength": "S", "ap": 0, "damage": 1, "traits": ["Melee"]}
OUTCOMES = ("unharmed", "wound_lost", "flesh_wound", "seriously_injured", "out_of_action")
RESOLVED = frozenset({"Power", "Rending", "Shock", "Toxin", "Pulverise"})
SIDEARM = frozenset({"Pistol", "Sidearm"})  # the 2018 books call the trait Pistol, the 2023 book Sidearm
MODELLED = RESOLVED | SIDEARM | {"Parry", "Disarm", "Knockback", "Melee", "Unwieldy"}
CLOSE_COMBAT = {"Melee", "Versatile"} | SIDEARM
ASSUMPTIONS = (
    "a fighter with a Parry weapon always parries, making the attacker re-roll the hit with the highest face "
    "(among the hits that weapon can parry); hits are resolved weapon by weapon, highest face first; with two "
    "weapons an odd Attack dice goes to the first weapon unless a Sidearm can take only one"
)


# --- one side's attacks -----------------------------------------------------------------------------


class Side:
    """One fighter's close combat attacks, read from a query: Attack dice split between up to two weapons.

    Choose Weapons and Determine Attack Dice (2023 core rulebook, Close Combat steps 2-3): up to two weapons
    with the Melee or Sidearm trait (one if it is Unwieldy); Attack dice are the Attacks characteristic, +1
    with two such weapons, +1 when charging; two weapons split the dice as evenly as possible; a Sidearm
    takes only one Attack dice, and the rest go to a Melee weapon or, with none, are unarmed attacks.
    """

    def __init__(
        self,
        fighter: Query,
        weapon_query: Query,
        profile_field: str,
        second_field: str,
        second_profile_field: str,
        charging: bool | None = None,
    ) -> None:
        self.skill = target_number(fighter, "WS")
        self.natural_sixes = False  # Blind: each Attack dice hits only on a natural 6
        self.attacks = fighter.int("A", 1, 10)
        self.charging = fighter.bool("charging") if charging is None else charging
        # The dice a charge adds (one, two with Berserker: rulebook.n18.skills).
        self.charge_dice = skills.charge_dice(fighter.choices("skills", skills.FIGHT_SKILLS), self.charging)
        self.strength = fighter.int("S", 1, 10)
        self.field = weapon_query.field("weapon")
        self.profile = close_combat_weapon(weapon_query, "weapon", profile_field)
        self.second = None
        if weapon_query.has(second_field):
            if not weapon_query.has("weapon"):
                raise RulesInputError(weapon_query.field(second_field), "name the first weapon too")
            self.second = close_combat_weapon(weapon_query, second_field, second_profile_field)
            if "Unwieldy" in trading_post.trait_names(self.profile) | trading_post.trait_names(self.second):
                raise RulesInputError(weapon_query.field(second_field), "an Unwieldy weapon is used on its own")
        self.traits = trading_post.trait_names(self.profile)
        self.dice = self.attacks + self.charge_dice + (self.second is not None)
        self.groups = allocate(self.dice, self.profile, self.second)

    @property
    def weapons(self) -> list[dict]:
        return [self.profile] + ([self.second] if self.second else [])

    @property
    def parry_weapons(self) -> tuple[bool, ...]:
        """One entry per Parry weapon held (at most two): whether it is a Power weapon, which alone parries
        Power attacks."""
        return tuple(
            "Power" in trading_post.trait_names(w) for w in self.weapons if "Parry" in trading_post.trait_names(w)
        )

    def attack(self, profile: dict, modifier: int, defence: Defence, knockback_blocked: int | None) -> Attack:
        traits = trading_post.trait_names(profile)
        save, save_modifier = defence.against(profile["ap"])
        skill, hit_modifier = (6, 0) if self.natural_sixes else (self.skill, modifier + accuracy(profile))
        return Attack(
            skill=skill,
            hit_modifier=hit_modifier,
            strength=trading_post.resolve_strength(profile["strength"], self.strength, self.field),
            ap=profile["ap"],
            damage=profile["damage"] or 0,
            save=save,
            save_modifier=save_modifier,
            traits=frozenset(traits & RESOLVED),
            knockback_blocked=knockback_blocked if "Knockback" in traits else None,
        )

    def attacks_for(
        self, modifier: int, save: Defence, knockback_blocked: int | None, unarmed: bool = False
    ) -> tuple[tuple[Attack, int, bool], ...]:
        """(attack, Attack dice, Disarm) for each weapon used; disarmed, only unarmed attacks on the
        characteristic's dice (no second-weapon dice)."""
        if unarmed:
            return ((self.attack(UNARMED, modifier, save, None), self.attacks + self.charge_dice, False),)
        return tuple(
            (self.attack(p, modifier, save, knockback_blocked), n, "Disarm" in trading_post.trait_names(p))
            for p, n in self.groups
        )


def allocate(dice: int, first: dict, second: dict | None) -> tuple[tuple[dict, int], ...]:
    """Attack dice per weapon: an even split with the odd one to the first weapon; a Sidearm takes one and
    passes the rest to a Melee weapon, else to unarmed attacks (2023 core rulebook, Pistols at Close Quarters)."""
    if second is None:
        if is_sidearm(first) and dice > 1:
            return ((first, 1), (UNARMED, dice - 1))
        return ((first, dice),)
    shares = [dice - dice // 2, dice // 2]
    weapons = [first, second]
    for i in (0, 1):
        other = 1 - i
        if is_sidearm(weapons[i]) and shares[i] > 1:
            spare = shares[i] - 1
            shares[i] = 1
            if is_sidearm(weapons[other]):
                out = [(weapons[0], shares[0]), (weapons[1], shares[1]), (UNARMED, spare)]
                return tuple(g for g in out if g[1])
            shares[other] += spare
    return tuple((w, n) for w, n in zip(weapons, shares, strict=True) if n)


def is_sidearm(profile: dict) -> bool:
    """A weapon with the Sidearm (Pistol) trait and no Melee trait: one Attack dice in close combat."""
    traits = trading_post.trait_names(profile)
    return bool(traits & SIDEARM) and "Melee" not in traits


def accuracy(profile: dict) -> int:
    """A Melee weapon's Accuracy applies in close combat; a Sidearm's does not."""
    if trading_post.trait_names(profile) & SIDEARM:
        return 0
    return profile.get("acc_short") or profile.get("acc_long") or 0


def close_combat_weapon(query: Query, field: str, profile_field: str) -> dict:
    """The weapon a fighter uses in close combat (``field``), or an unarmed attack when none is named."""
    if not query.has(field):
        query.accept(profile_field)
        return UNARMED
    profile = trading_post.read_profile(query, field, profile_field)
    refused = refusal(profile)
    if refused:
        raise RulesInputError(query.field(field), f"{profile['weapon']}: {refused}")
    return profile


def is_close_combat(profile: dict) -> bool:
    """A profile for close combat: Engagement range, or a Melee, Versatile or Sidearm trait."""
    return profile["long_range"] == "E" or bool(trading_post.trait_names(profile) & CLOSE_COMBAT)


def refusal(profile: dict) -> str | None:
    """Why this weapon profile cannot be used in close combat (no Melee or Sidearm trait, or an effect not
    resolved), or None."""
    if not is_close_combat(profile):
        return "it has no Melee or Sidearm trait, so it is not used in close combat"
    return trading_post.unresolved_effect(profile, poisons={"Toxin"})


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
def hit_faces(groups: tuple, parries: tuple) -> Dist:
    """Exact distribution of the hitting faces of each weapon (a tuple per weapon, highest first) after the
    defender's parries. ``groups`` is ((attack, dice), ...); ``parries`` one Power flag per Parry weapon."""
    rolled: Dist = certain(tuple(((), ()) for _ in groups))  # per weapon: (hits not re-rolled, re-rolled)
    for g, (attack, dice) in enumerate(groups):
        one = hit_face_dist(attack)
        for _ in range(dice):
            rolled = combine(rolled, one, lambda state, face, g=g: state if face == MISS else _add_hit(state, g, face))
    for power in parries:
        rolled = chain(rolled, lambda state, power=power: _parry(state, groups, power))
    return map_dist(rolled, lambda state: tuple(tuple(sorted(f + r, reverse=True)) for f, r in state))


def _add_hit(state: tuple, g: int, face) -> tuple:
    fresh, rerolled = state[g]
    return (*state[:g], (tuple(sorted((*fresh, face), reverse=True)), rerolled), *state[g + 1 :])


def _parry(state: tuple, groups: tuple, power: bool) -> Dist:
    """Re-roll the best hit not yet re-rolled, among the weapons this Parry weapon can parry."""
    choices = [g for g, (fresh, _) in enumerate(state) if fresh and can_parry(groups[g][0], power)]
    if not choices:
        return certain(state)
    g = max(choices, key=lambda g: (state[g][0][0], -g))
    fresh, rerolled = state[g]
    rest = fresh[1:]

    def again(face) -> tuple:
        kept = rerolled if face == MISS else tuple(sorted((*rerolled, face), reverse=True))
        return (*state[:g], (rest, kept), *state[g + 1 :])

    return map_dist(hit_face_dist(groups[g][0]), again)


def side_results(attacks: tuple, parries: tuple, fighter: Fighter) -> Dist:
    """Exact distribution of (hits, a natural 6 with a Disarm weapon, fighter after) for one side's attacks."""
    groups = tuple((a, n) for a, n, _ in attacks)
    disarms = tuple(d for _, _, d in attacks)

    def summary(faces: tuple) -> tuple:
        canonical = tuple(tuple(canonical_face(groups[g][0], f) for f in fs) for g, fs in enumerate(faces))
        six = any(disarms[g] and 6 in fs for g, fs in enumerate(faces))
        return sum(map(len, faces)), six, canonical

    def after(k: tuple) -> Dist:
        states: Dist = certain(fighter)
        for g, faces in enumerate(k[2]):
            states = chain(states, lambda f, g=g, faces=faces: fighter_after_hits(groups[g][0], f, faces))
        return map_dist(states, lambda a: (k[0], k[1], a))

    return chain(map_dist(hit_faces(groups, parries), summary), after)


def usable_parries(parries: tuple) -> tuple:
    """A fighter who parries with two Parry weapons re-rolls two hits (Parry trait, BSData gst)."""
    return parries[:2]


# --- reading a fight ---------------------------------------------------------------------------------


class Fight:
    """A fight query read once: the attacker's attacks, the target, its parries and its Reaction attacks."""

    def __init__(self, query: Query) -> None:
        attacker_q, target_q = query.sub("attacker"), query.sub("target")
        self.attacker = Side(attacker_q, query, "profile", "second_weapon", "second_profile")
        self.distance = query.number("distance", 0, 12, default=0)
        if self.distance:
            out_of_reach(self.attacker, self.distance, query.field("distance"))
        self.target, _ = read_fighter(target_q)
        blocked = target_q.int("S", 1, 10) if target_q.bool("knockback_blocked") else None
        self.attacks = self.attacker.attacks_for(read_modifiers(query), Defence(target_q, melee=True), blocked)
        self.defender = (
            Side(target_q, target_q, "weapon_profile", "second_weapon", "second_weapon_profile", charging=False)
            if query.bool("reaction")
            else None
        )
        # Attacked from beyond base contact, the target strikes back only with a Versatile weapon that reaches.
        self.out_of_reach = self.defender and self.distance and out_of_reach(self.defender, self.distance, None)
        if self.out_of_reach:
            self.defender = None
        if self.defender is None:
            # Known fields, used only when one side strikes back at the other.
            target_q.accept("WS", "A", "S", "modifiers", "charging", "skills", "blind")
            attacker_q.accept("T", "W", "save", "armour", "front_arc", "flesh_wounds", "state")
            self.parries = usable_parries(_defender_parries(target_q))
            self.reaction = None
            return
        self.parries = usable_parries(self.defender.parry_weapons)
        self.defender.natural_sixes = target_q.bool("blind")
        self.attacker_fighter, _ = read_fighter(attacker_q)
        save = Defence(attacker_q, melee=True, reaction=True)
        self.reaction = self.defender.attacks_for(read_modifiers(target_q), save, None)
        self.reaction_unarmed = self.defender.attacks_for(read_modifiers(target_q), save, None, unarmed=True)
        self.reaction_parries = usable_parries(self.attacker.parry_weapons)

    @property
    def attack(self) -> Attack:
        return self.attacks[0][0]


def out_of_reach(side: Side, distance: float, field: str | None) -> str | None:
    """Why a fighter ``distance`` inches from their enemy (0: base contact) cannot attack with their weapons, or
    None: every weapon used must be Versatile with a reach that covers it (2023 core rulebook, Weapon Traits:
    Versatile). With a ``field``, the reason is raised as a refusal of that field instead."""
    short = [w for w in side.weapons if trading_post.reach(w) < distance]
    if not short:
        return None
    named = ", ".join(f'{w["weapon"]} reaches {trading_post.reach(w)}"' for w in short)
    reason = f'{distance:g}" from the enemy, only a Versatile weapon whose reach covers it attacks ({named})'
    if field is not None:
        raise RulesInputError(field, reason)
    return reason


def _defender_parries(target_q: Query) -> tuple:
    weapons = [close_combat_weapon(target_q, "weapon", "weapon_profile")]
    if target_q.has("second_weapon"):
        weapons.append(close_combat_weapon(target_q, "second_weapon", "second_weapon_profile"))
    return tuple("Power" in trading_post.trait_names(w) for w in weapons if "Parry" in trading_post.trait_names(w))


def reacts(fighter: Fighter) -> bool:
    """A fighter still Standing (not Seriously Injured nor Out of Action) strikes back."""
    return not (fighter.out_of_action or fighter.seriously_injured)


def outcome_dist(before: Fighter, states: Dist) -> dict:
    """The distribution of fighters after an attack, named by what happened to them."""
    out = dict.fromkeys(OUTCOMES, Fraction(0))
    for after, p in states.items():
        out["unharmed" if after == before else classify(before, after)] += p
    return out


def _named(side: Side, attacks: tuple) -> list[dict]:
    names = [p["weapon"] for p, _ in side.groups] if len(attacks) == len(side.groups) else ["Unarmed"]
    return [
        {"weapon": name, "attack_dice": n, "to_hit": hit_needed(a.skill, a.hit_modifier)}
        for name, (a, n, _) in zip(names, attacks, strict=True)
    ]


# --- exact odds -----------------------------------------------------------------------------------------


def odds(query: Query) -> dict:
    fight = Fight(query)
    attack = fight.attack
    found = side_results(fight.attacks, fight.parries, fight.target)
    hits = map_dist(found, lambda r: r[0])
    answer = {
        "weapon": fight.attacker.profile["weapon"],
        "to_hit": hit_needed(attack.skill, attack.hit_modifier),
        "attack_dice": fight.attacker.dice,
        "weapons": _named(fight.attacker, fight.attacks),
        "parries": len(fight.parries),
        **dist("hits", hits),
        **prob("p_any_hit", 1 - hits.get(0, 0)),
        **dist("outcome", outcome_dist(fight.target, map_dist(found, lambda r: r[2]))),
        "traits_not_modelled": _unmodelled(fight.attacker),
        "assumptions": ASSUMPTIONS,
    }
    if fight.reaction is not None:
        answer["reaction"] = reaction_odds(fight, found)
    answer.update(_reach(fight))
    return answer


def _reach(fight: Fight) -> dict:
    """With a ``distance`` beyond base contact, how far the attack reaches and whether the target can strike back."""
    if not fight.distance:
        return {}
    reach = {"distance": fight.distance}
    if fight.out_of_reach:
        reach["no_reaction"] = fight.out_of_reach
    return {"reach": reach}


def _unmodelled(side: Side) -> list:
    return sorted({t for w in side.weapons for t in trading_post.unmodelled(w, MODELLED)})


def reaction_odds(fight: Fight, found: Dist) -> dict:
    """The target's Reaction attacks against the attacker, when the target is still Standing."""
    p_armed = sum((p for (_, six, after), p in found.items() if reacts(after) and not six), Fraction(0))
    p_unarmed = sum((p for (_, six, after), p in found.items() if reacts(after) and six), Fraction(0))
    before = fight.attacker_fighter

    def back(attacks: tuple) -> Dist:
        return map_dist(side_results(attacks, fight.reaction_parries, before), lambda r: r[2])

    states = mix(
        [
            (1 - p_armed - p_unarmed, certain(before)),
            (p_armed, back(fight.reaction)),
            (p_unarmed, back(fight.reaction_unarmed)),
        ]
    )
    first = fight.reaction[0][0]
    return {
        "weapon": fight.defender.profile["weapon"],
        "to_hit": hit_needed(first.skill, first.hit_modifier),
        "attack_dice": fight.defender.dice,
        "weapons": _named(fight.defender, fight.reaction),
        "parries": len(fight.reaction_parries),
        **prob("p_reacts", p_armed + p_unarmed),
        **prob("p_disarmed", p_unarmed),
        **dist("attacker_outcome", outcome_dist(before, states)),
        "traits_not_modelled": _unmodelled(fight.defender),
    }


# --- one roll -------------------------------------------------------------------------------------------


def roll_side(attacks: tuple, parries: tuple, fighter: Fighter, dice: DiceSource, who: str):
    """Roll one side's Attack dice (weapon by weapon), the parries and each hit.

    Returns (hits, a natural 6 with a Disarm weapon, steps, fighter after). ``steps`` has one entry per Attack
    dice in the order rolled (``attack``, ``weapon``, ``face``, ``result``, ``injury_dice``, and
    ``parried``/``reroll`` for a parried hit); each weapon's hits are resolved highest face first.
    """
    steps, rolled = [], []  # rolled: (step index, weapon index)
    for g, (attack, count, _) in enumerate(attacks):
        need = hit_needed(attack.skill, attack.hit_modifier)["needed"]
        for _ in range(count):
            face = dice.d6(f"{who} Attack dice {len(steps) + 1} (hits on {need}+, a 1 always misses)")
            steps.append({"attack": len(steps) + 1, "weapon": g + 1, "face": face, "result": MISS, "injury_dice": 0})
            rolled.append((len(steps) - 1, g))
    landed = {
        n: steps[n]["face"]
        for n, g in rolled
        if hit_face_result(steps[n]["face"], attacks[g][0].skill, attacks[g][0].hit_modifier)
    }
    weapon_of = dict(rolled)
    fresh = set(landed)
    for power in parries:
        choices = [n for n in fresh if can_parry(attacks[weapon_of[n]][0], power)]
        if not choices:
            continue
        n = max(choices, key=lambda n: (landed[n], -weapon_of[n], -n))
        fresh.discard(n)
        attack = attacks[weapon_of[n]][0]
        again = dice.d6(f"{who}: parried hit ({landed[n]}) re-rolled")
        steps[n].update(parried=True, reroll=again)
        if hit_face_result(again, attack.skill, attack.hit_modifier):
            landed[n] = again
        else:
            del landed[n]
    six = any(attacks[weapon_of[n]][2] and face == 6 for n, face in landed.items())
    for n in sorted(landed, key=lambda n: (weapon_of[n], -landed[n])):
        if fighter.out_of_action:
            break
        step, injuries, fighter = roll_hit_resolution(attacks[weapon_of[n]][0], fighter, dice, landed[n])
        steps[n].update(result=step, injury_dice=injuries)
    return len(landed), six, steps, fighter


def roll(query: Query, dice: DiceSource) -> dict:
    fight = Fight(query)
    hits, six, steps, after = roll_side(fight.attacks, fight.parries, fight.target, dice, "attacker")
    answer = {
        "weapon": fight.attacker.profile["weapon"],
        "weapons": _named(fight.attacker, fight.attacks),
        "attack_dice": [s["face"] for s in steps],
        "attacks": steps,
        "hits": hits,
        "outcome": "unharmed" if after == fight.target else classify(fight.target, after),
        "target_after": fighter_json(after),
        "traits_not_modelled": _unmodelled(fight.attacker),
        **_reach(fight),
    }
    if fight.reaction is not None:
        answer["reaction"] = {"made": reacts(after)}
        if reacts(after):
            attacks = fight.reaction_unarmed if six else fight.reaction
            back = roll_side(attacks, fight.reaction_parries, fight.attacker_fighter, dice, "target")
            answer["reaction"].update(
                {
                    "attack_dice": [s["face"] for s in back[2]],
                    "attacks": back[2],
                    "hits": back[0],
                    "outcome": "unharmed"
                    if back[3] == fight.attacker_fighter
                    else classify(fight.attacker_fighter, back[3]),
                    "attacker_after": fighter_json(back[3]),
                }
            )
    return answer
