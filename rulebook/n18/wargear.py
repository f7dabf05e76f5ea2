"""2018+ wargear that changes a roll the engine resolves, and why every other item is left to the table.

Sources (numbers are facts; the wording here is ours): the 2023 core rulebook's Personal Equipment page as
necrovox.org publishes it (https://necrovox.org/docs/armoury/personal-equipment, read through the copy in the public
repository yakuzadave/necroman_v2, ``necrovox_docs/Necromunda_Docs/12-armoury/16-personal-equipment.md``):

- **Respirator**: a fighter hit by a Gas weapon counts their Toughness 2 higher for the roll that decides whether
  the gas takes effect.
- **Filter plugs**: the same, 1 higher. They are used up by the battle they are used in (struck off the card
  after it), but work for all of that battle.
- **Industrial respirator**: the same, 3 higher (4 with a hazard suit); once a battle its air supply, declared when
  the fighter activates, makes them immune to Gas until their next activation.
- **Photo-goggles**: a fighter hit by a Flash weapon adds 1 to the Initiative test that decides whether they are
  Blind. They also let the wearer attack through smoke clouds and see further under the Visibility (X") rule.

Our reading: Toughness bonuses of items worn together add up (the page says nothing against it), and the raised
Toughness is only the Gas roll's: the fighter's Toughness for anything else is unchanged; a natural 6 still takes
effect (:func:`rulebook.n18.resolution.poison_takes`).

In a Shoot query the target's ``wargear`` is a list of names (slugs or names) of the items above (:func:`read`).
Every other item changes something the engine does not resolve (a move, an action of its own, a condition the
table keeps, the first Injury roll of a battle): :func:`not_applied` says why, for the battle assistant's card.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.errors import RulesInputError
from rulebook.query import Query

# Toughness added for the roll that decides whether a Gas hit takes effect.
GAS_TOUGHNESS = {"respirator": 2, "filter-plugs": 1, "industrial-respirator": 3}
# Added to the Initiative test a Flash hit calls for (failed: Blind).
FLASH_TEST = {"photo-goggles": 1}
MODELLED = frozenset(GAS_TOUGHNESS) | frozenset(FLASH_TEST)
# What a modelled item does beyond the roll the engine changes (the table plays it).
ALSO = {
    "photo-goggles": 'attacking through smoke clouds and the Visibility (X") rule (its +1 against Blind is applied)',
    "industrial-respirator": "its once-a-battle air supply and the +4 with a hazard suit (its +3 against Gas is "
    "applied)",
}
NOT_MODELLED = "the engine does not model this item: play it at the table"
# Weapon accessories change their weapon, whose profile is sent as the Trading Post prints it.
WEAPON_ACCESSORIES = ("telescopic-sight", "mono-sight", "las-projector", "hotshot-las-pack", "gunshroud", "suspensor")
ACCESSORY = "a weapon accessory: its weapon is sent without it (give a sight's bonus as a modifier)"
# Booby traps are markers on the battlefield, not a fighter's kit: nobody carries them into a shot or a fight.
BOOBY_TRAPS = ("frag-trap", "gas-trap", "melta-trap")
BOOBY_TRAP = "a booby trap: a marker placed before deployment, set off and resolved at the table"
# Items the battle assistant's players meet often, each with what keeps it at the table.
REASONS = {
    "bio-booster": "one Injury dice fewer (or two, one discarded) on the fighter's first Injury roll of the battle: "
    "the assistant does not track which roll is the first, so roll it at the table",
    "infra-sight": "shooting through smoke and darkness: the engine does not model smoke clouds or low light",
    "photo-lumen": 'the Visibility (X") rule: the engine does not model low light',
    "photo-lumens": 'the Visibility (X") rule: the engine does not model low light',
    "cameleoline-cloak": "-2 to hit with ranged attacks only if the wearer did not move: give it as a modifier",
    "holochromatic-field": "-2 to hit (ranged) and -1 (melee) until a 1 drains it: give it as a modifier",
    "medicae-kit": "an extra Injury dice when assisting a Recovery test: roll it at the table",
    "web-solvent": "an extra Injury dice on a Webbed fighter's Recovery: roll it at the table",
    "grav-chute": "no damage from a fall or a jump down: do not roll the fall",
    "chem-synth": "after a passed Intelligence test its Gas and Toxin attacks count the target's Toughness 1 lower: "
    "play it at the table",
    "stimm-slug-stash": "once a battle, +2 Movement, Strength and Toughness for the round: play it at the table",
    "servo-harness-partial": "its Strength, Toughness, Movement and Initiative changes are not in the stat line",
    "servo-harness-full": "its Strength and Toughness changes are not in the stat line",
    "magnacles": "an Attack action of its own (the target's Initiative test, then no moving or shooting and -2 to hit "
    "in melee): the engine keeps no such condition, play it at the table",
    "strip-kit": "+2 to the Intelligence test of a door terminal or a loot casket: the engine rolls no such test",
    **dict.fromkeys(BOOBY_TRAPS, BOOBY_TRAP),
    **dict.fromkeys(WEAPON_ACCESSORIES, ACCESSORY),
}
CATEGORY_REASONS = {
    "exotic_beast": "an Exotic Beast: the assistant does not field it, play its card at the table",
    "status": "a status item: the engine does not model it, play it at the table",
}


@dataclass(frozen=True)
class Wargear:
    """What a fighter's wargear changes in a Shoot: the Toughness added to the Gas roll and the modifier to the
    Flash Initiative test."""

    gas_toughness: int = 0
    flash_test: int = 0


def _key(text: str) -> str:
    return "-".join(text.lower().replace("_", " ").replace("-", " ").split())


def is_modelled(name: str) -> bool:
    return _key(name) in MODELLED


def read(fighter: Query) -> Wargear:
    """The ``wargear`` of a fighter (a list of names, or none)."""
    raw = fighter.raw("wargear", [])
    if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
        raise RulesInputError(fighter.field("wargear"), "must be a list of names")
    slugs = {_key(n) for n in raw}
    unknown = sorted(slugs - MODELLED)
    if unknown:
        raise RulesInputError(
            fighter.field("wargear"),
            f"{unknown[0]!r} is not wargear the engine applies here ({', '.join(sorted(MODELLED))})",
        )
    return Wargear(
        gas_toughness=sum(GAS_TOUGHNESS.get(s, 0) for s in slugs),
        flash_test=sum(FLASH_TEST.get(s, 0) for s in slugs),
    )


def not_applied(slug: str, category: str = "") -> str | None:
    """Why the engine does not apply (all of) this item, or None when it applies all of it."""
    if slug in MODELLED:
        return ALSO.get(slug)
    return REASONS.get(slug) or CATEGORY_REASONS.get(category) or NOT_MODELLED
