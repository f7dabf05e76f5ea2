"""The ``fight``, ``multi-fight`` and ``break-off`` actions: JSON queries read into fighters.

``fight``: ``{"attacker": FIGHTER, "defender": FIGHTER}`` (docs/rulebook-cli.md, "classic fight").
``multi-fight``: ``{"fighter": FIGHTER, "opponents": [FIGHTER, ...]}``, opponents in the order
they fight. ``break-off``: ``{"fighter": FIGHTER, "opponent": FIGHTER}``, the fighter breaking.
A FIGHTER::

    {"WS": 3, "A": 1, "I": 3, "S": 3, "weapons": ["sword"], "charging": true}

WS and BS are current values (flesh wounds already taken off); ``BS`` is only needed for the
rule that a fighter at WS 0 and BS 0 is out of action.
``WS`` and ``I`` are required; ``A`` defaults to 1, ``S`` and ``T`` to 3, ``wounds_left`` (or
``W``) to 1, ``save`` to none. ``weapons`` holds up to two pistols or hand-to-hand weapons, by
name or as ``{"name": "plasma pistol", "profile": "low power"}``; none means the knife every
fighter carries. Flags: ``charging``, ``higher_up``, ``encumbered``, ``obstacle``,
``carries_basic_weapon`` (no extra die for two weapons), ``frenzied``, ``hatred`` (first turn
of the fight), ``broken``, ``no_attack_dice`` (a stupid fighter's 1-3), ``extra_dice`` and
``bonus`` (a later opponent in a multiple combat). ``parry`` is ``true``, ``false`` or
``"auto"``; ``hate_reroll`` is ``true`` (all dice), ``false``, ``"auto"``, or in ``roll`` a list
of die positions (1 = first die rolled).
"""

from __future__ import annotations

from rulebook.classic import armoury
from rulebook.classic.combat import break_off_odds, fight_odds_json, multi_fight_odds
from rulebook.classic.combat_roll import break_off_roll, fight_roll, multi_fight_roll
from rulebook.classic.combat_score import AUTO, MAX_DICE, Combatant, HandWeapon
from rulebook.classic.resolution import DAMAGE
from rulebook.dice import DiceSource
from rulebook.editions import Action
from rulebook.errors import RulesInputError
from rulebook.numbers import whole_number
from rulebook.query import Query

HAND_CATEGORIES = ("hand_to_hand", "pistol")
FLAGS = (
    "charging",
    "higher_up",
    "encumbered",
    "obstacle",
    "carries_basic_weapon",
    "frenzied",
    "hatred",
    "broken",
    "no_attack_dice",
)


def _user_strength(text: str, field: str) -> int:
    """``"user"`` → 0, ``"user+2"`` → 2 (the bonus over the fighter's own Strength)."""
    rest = text.strip().lower().removeprefix("user")
    if not rest:
        return 0
    bonus = whole_number(rest[1:]) if rest.startswith("+") else None
    if bonus is not None and bonus >= 0:
        return bonus
    raise RulesInputError(field, f"strength must be a number, 'user' or 'user+N', not {text!r}")


def hand_weapon(value, field: str) -> HandWeapon:
    """A weapon named in a query (looked up in the Armoury) or spelled out as a profile."""
    if isinstance(value, str):
        value = {"name": value}
    if not isinstance(value, dict):
        raise RulesInputError(field, "must be a weapon name or an object")
    q = Query(value, field)
    if "strength" in value:
        return _spelled_out(q)
    found, profile = _armoury_profile(q)
    refused = refusal(found, profile)
    if refused:
        raise RulesInputError(q.field("name"), f"{found.name}: {refused}")
    parry = any(rule.lower() == "parry" for rule in found.special_rules + profile.special_rules)
    return _weapon(found.name, profile.strength, profile.damage, profile.save_mod, parry, q.field("name"))


def refusal(found: armoury.Weapon, profile: armoury.Profile) -> str | None:
    """Why an Armoury weapon's profile cannot fight here, or None."""
    if found.category not in HAND_CATEGORIES:
        return f"a {found.category} weapon: only pistols and hand-to-hand weapons fight"
    if profile.strength is None:
        return "it strikes no blows that wound, and its special effect is not resolved by the assistant yet; roll it at the table"
    return None


def hand_weapon_refusal(value) -> str | None:
    """:func:`refusal` for a hand weapon as a fight query gives it (a profile spelled out is always read)."""
    if isinstance(value, dict) and "strength" in value:
        return None
    return refusal(*_armoury_profile(Query({"name": value} if isinstance(value, str) else value, "weapon")))


def _armoury_profile(q: Query) -> tuple[armoury.Weapon, armoury.Profile]:
    found = armoury.weapon(q.str("name"), q.field("name"))
    return found, found.profile(q.str("profile", default=None), q.field("profile"))


def _spelled_out(q: Query) -> HandWeapon:
    raw = q.raw("strength")
    raw = raw.strip() if isinstance(raw, str) else q.int("strength", 1, 10)
    return _weapon(
        q.str("name", default="weapon"),
        raw,
        q.choice("damage", DAMAGE, default="1"),
        q.int("save_mod", -6, 0, default=0),
        q.bool("parry", default=False),
        q.field("strength"),
    )


def _weapon(name: str, strength, damage: str, save_mod: int, parry: bool, field: str) -> HandWeapon:
    if isinstance(strength, str):
        return HandWeapon(name, None, _user_strength(strength, field), damage, save_mod, parry)
    return HandWeapon(name, strength, 0, damage, save_mod, parry)


def _choice(q: Query, name: str, allow_positions: bool):
    value = q.raw(name, AUTO)
    if value in (True, False, AUTO):
        return value
    if (
        allow_positions
        and isinstance(value, list)
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return tuple(value)
    allowed = 'true, false or "auto"' + (" or a list of die positions" if allow_positions else "")
    raise RulesInputError(q.field(name), f"must be {allowed}, not {value!r}")


def combatant(q: Query, rolling: bool = False) -> Combatant:
    names = q.raw("weapons", None)
    if names is not None and not isinstance(names, list):
        raise RulesInputError(q.field("weapons"), "must be a list of weapon names or objects")
    names = names or ["knife"]
    if len(names) > 2:
        raise RulesInputError(q.field("weapons"), "a fighter fights with at most two weapons, one in each hand")
    weapons = tuple(hand_weapon(w, f"{q.field('weapons')}[{i}]") for i, w in enumerate(names))
    wounds_field = "W" if "W" in q.data and "wounds_left" not in q.data else "wounds_left"
    q.accept("W", "wounds_left")  # either spelling of the wounds a fighter has left
    save = q.int("save", 2, 6, default=None) if q.has("save") else None
    fighter = Combatant(
        WS=q.int("WS", 0, 10),
        A=q.int("A", 0, 10, default=1),
        I=q.int("I", 0, 10),
        S=q.int("S", 1, 10, default=3),
        weapons=weapons,
        T=q.int("T", 1, 10, default=3),
        wounds_left=q.int(wounds_field, 0, 10, default=1),
        save=save,
        BS=q.int("BS", 0, 10, default=None) if q.has("BS") else None,
        extra_dice=q.int("extra_dice", 0, MAX_DICE, default=0),
        bonus=q.int("bonus", 0, 10, default=0),
        parry=_choice(q, "parry", False),
        hate_reroll=_choice(q, "hate_reroll", rolling),
        **{flag: q.bool(flag) for flag in FLAGS},
    )
    if fighter.dice > MAX_DICE:
        raise RulesInputError(q.field("A"), f"{fighter.dice} Attack dice is more than the {MAX_DICE} supported")
    return fighter


def fight_odds_action(q: Query) -> dict:
    return fight_odds_json(combatant(q.sub("attacker")), combatant(q.sub("defender")))


def fight_roll_action(q: Query, dice: DiceSource) -> dict:
    return fight_roll(combatant(q.sub("attacker"), True), combatant(q.sub("defender"), True), dice)


def _multi(q: Query, rolling: bool) -> tuple[Combatant, list[Combatant]]:
    opponents = [combatant(item, rolling) for item in q.items("opponents")]
    if len(opponents) > 6:
        raise RulesInputError(q.field("opponents"), "at most 6 opponents")
    return combatant(q.sub("fighter"), rolling), opponents


def multi_fight_odds_action(q: Query) -> dict:
    return multi_fight_odds(*_multi(q, False))


def multi_fight_roll_action(q: Query, dice: DiceSource) -> dict:
    return multi_fight_roll(*_multi(q, True), dice)


def _break_off(q: Query, rolling: bool) -> tuple[Combatant, Combatant]:
    return combatant(q.sub("opponent"), rolling), combatant(q.sub("fighter"), rolling)


def break_off_odds_action(q: Query) -> dict:
    return break_off_odds(*_break_off(q, False))


def break_off_roll_action(q: Query, dice: DiceSource) -> dict:
    return break_off_roll(*_break_off(q, True), dice)


ACTIONS = (
    Action("fight", "one-on-one hand-to-hand: winner, hits and injuries", fight_odds_action, fight_roll_action),
    Action(
        "multi-fight",
        "an outnumbered fighter against each opponent in turn",
        multi_fight_odds_action,
        multi_fight_roll_action,
    ),
    Action(
        "break-off",
        "the automatic hit a fighter takes as he breaks from hand-to-hand",
        break_off_odds_action,
        break_off_roll_action,
    ),
)

_FOUR_DICE_PARRY = "fight: 4 Attack dice a side, sword parry"
BENCHMARKS = (
    (
        "fight: ganger vs charging juve",
        "fight",
        {"attacker": {"WS": 3, "A": 1, "I": 3, "S": 3}, "defender": {"WS": 2, "A": 1, "I": 3, "charging": True}},
    ),
    (
        _FOUR_DICE_PARRY,
        "fight",
        {
            "attacker": {"WS": 4, "A": 3, "I": 4, "S": 3, "weapons": ["sword", "laspistol"], "charging": True},
            "defender": {"WS": 3, "A": 3, "I": 3, "S": 4, "T": 4, "weapons": ["club", "knife"], "save": 5},
        },
    ),
    (
        "fight: 2 swords vs 4 dice",
        "fight",
        {
            "attacker": {"WS": 4, "A": 2, "I": 4, "weapons": ["sword", "sword"]},
            "defender": {"WS": 4, "A": 3, "I": 3, "weapons": ["chain", "knife"], "hatred": True},
        },
    ),
)
BENCHMARK_TARGETS_MS = {_FOUR_DICE_PARRY: 50}
