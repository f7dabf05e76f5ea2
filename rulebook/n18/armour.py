"""2018+ armour worn together: a fighter's save against one attack, from everything they wear.

Sources (numbers are facts; the wording here is ours): the 2023 core rulebook's Armour and Personal Equipment
pages as necrovox.org publishes them (https://necrovox.org/docs/armoury/armour and /personal-equipment, read
through the copy in the public repository yakuzadave/necroman_v2,
``necrovox_docs/Necromunda_Docs/12-armoury/11-armour.md`` and ``16-personal-equipment.md``):

- One suit of armour at a time; its save, and its better save against Blast markers and Flame templates (flak
  6+/5+, layered flak 5+/4+) or against attacks from its front vision arc (heavy carapace 4+/3+, plate mail and
  furnace plates 6+/5+; plate mail 5+ against Blasts too). A Prone fighter has no facing: the front save never
  applies to them.
- Hardened flak reduces an attack's AP by 1, to no better than -1 (AP -2 counts as -1; AP -1 stays -1).
- An armoured undersuit is worn with any armour and improves its save by 1 (flak and undersuit: 5+, 4+ against
  Blasts); worn alone it gives 6+.
- Shields (the weapons with the Shield trait: assault shield, energy shield) add 1 to the save against ranged
  attacks and 2 against close combat attacks from the bearer's front. A scrap shield adds nothing against
  ranged attacks, and 1 against Reaction attacks while its bearer stands Engaged.

Every record is read from the rules data (``trading_post.json`` armour and wargear, ``gang_armoury.json`` and
``houses.json`` armour, the Shield weapons of the Trading Post, gang armoury and house lists): ``save``,
``save_vs_blast``, ``save_front``, ``ap_reduction``, ``save_bonus``, ``reaction_bonus``.

In a query a fighter's ``armour`` is one name or a list of names (slugs or names, ``flak`` will do);
``front_arc`` says the attack comes from inside their front vision arc (checked before they go Prone).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from rulebook.errors import RulesInputError
from rulebook.n18.resolution import target_number
from rulebook.query import Query

DATA = Path(__file__).resolve().parent.parent / "data" / "n18"
SHIELD_RANGED = 1  # a Shield weapon against ranged attacks from the front
SHIELD_MELEE = 2  # and against close combat attacks from the front
ALONE = 7  # "improved by 1" from no save at all is a 6+
BEST_AP_AFTER_HARDENING = -1


@dataclass(frozen=True)
class Worn:
    """One item a fighter wears or carries that changes their save."""

    slug: str
    name: str
    save: int | None = None  # a suit of armour's own save
    save_vs_blast: int | None = None
    save_front: int | None = None
    ap_reduction: int = 0
    save_bonus: int = 0  # an undersuit
    reaction_bonus: int = 0  # a scrap shield
    shield: bool = False  # a Shield weapon

    @property
    def is_suit(self) -> bool:
        return self.save is not None


def _worn(record: dict, shield: bool = False) -> Worn:
    return Worn(
        slug=record["slug"],
        name=record["name"],
        save=record.get("save"),
        save_vs_blast=record.get("save_vs_blast"),
        save_front=record.get("save_front"),
        ap_reduction=record.get("ap_reduction", 0),
        save_bonus=record.get("save_bonus", 0),
        reaction_bonus=record.get("reaction_bonus", 0),
        shield=shield,
    )


@cache
def known() -> dict[str, Worn]:
    """Every item that changes a save, by slug, name and short name (``flak``)."""
    records: list[Worn] = []
    for name in ("trading_post", "gang_armoury", "houses"):
        with (DATA / f"{name}.json").open(encoding="utf-8") as fh:
            document = json.load(fh)
        lists = document.get("equipment", document)
        records += [_worn(r) for r in lists.get("armour", [])]
        records += [_worn(r) for r in lists.get("wargear", []) if r.get("save_bonus")]
        records += [
            _worn(r, shield=True)
            for r in lists.get("weapons", [])
            if any("Shield" in p.get("traits", []) for p in r.get("profiles", []))
        ]
    index: dict[str, Worn] = {}
    for item in records:
        for key in (item.slug, item.name, item.name.lower().removesuffix(" armour")):
            index.setdefault(_key(key), item)
    return index


def _key(text: str) -> str:
    return " ".join(text.lower().replace("-", " ").replace("_", " ").split())


def find(name: str, field: str) -> Worn:
    item = known().get(_key(name))
    if item is None:
        raise RulesInputError(field, f"{name!r} is not armour, an undersuit or a shield the rules data holds")
    return item


def is_known(name: str) -> bool:
    return _key(name) in known()


def read_worn(fighter: Query) -> tuple[Worn, ...]:
    """The items named in ``armour`` (one name or a list); at most one suit of armour."""
    raw = fighter.raw("armour")
    names = [raw] if isinstance(raw, str) else raw
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise RulesInputError(fighter.field("armour"), "must be a name or a list of names")
    items = tuple(find(n, f"{fighter.field('armour')}") for n in names)
    if sum(i.is_suit for i in items) > 1:
        raise RulesInputError(fighter.field("armour"), "a fighter wears one suit of armour at a time")
    return items


@dataclass(frozen=True)
class Situation:
    """What an attack is, for the save: ranged or close combat, a Blast marker or Flame template, a Reaction
    attack, from the wearer's front arc, and its AP."""

    area: bool = False
    melee: bool = False
    reaction: bool = False
    front: bool = False
    engaged: bool = False
    ap: int = 0


def save_and_modifier(items: tuple[Worn, ...], situation: Situation) -> tuple[int | None, int]:
    """The save (a D6 target, None for none) and the modifier to it that the items give against this attack.

    The modifier holds the undersuit's and shields' bonuses and hardened flak's AP reduction (an AP of -2
    reduced to -1 is one better on the save), so ``save - ap - modifier`` is the score needed."""
    suit = next((i for i in items if i.is_suit), None)
    save = None
    if suit is not None:
        save = suit.save
        if situation.area and suit.save_vs_blast:
            save = min(save, suit.save_vs_blast)
        if situation.front and suit.save_front:
            save = min(save, suit.save_front)
    modifier = 0
    bonus = sum(i.save_bonus for i in items)
    if bonus:
        save = (save or ALONE) - bonus
    if situation.front:
        shields = any(i.shield for i in items)
        modifier += (SHIELD_MELEE if situation.melee else SHIELD_RANGED) * shields
    if situation.reaction and situation.engaged:
        modifier += max((i.reaction_bonus for i in items), default=0)
    reduction = max((i.ap_reduction for i in items), default=0)
    if reduction and situation.ap < BEST_AP_AFTER_HARDENING:
        modifier += min(reduction, BEST_AP_AFTER_HARDENING - situation.ap)
    if modifier and save is None:
        save = ALONE
    return save, modifier


class Defence:
    """A fighter's save against attacks of one kind, read once from a query: ``against(ap)`` gives the save and
    its modifier for an attack with that AP (only hardened flak makes the AP matter here)."""

    def __init__(self, fighter: Query, *, area: bool = False, melee: bool = False, reaction: bool = False) -> None:
        front = fighter.bool("front_arc")
        self.items: tuple[Worn, ...] | None = None
        self.save = None
        if fighter.has("armour"):
            if fighter.has("save"):
                raise RulesInputError(fighter.field("armour"), "give the armour or the save, not both")
            self.items = read_worn(fighter)
        elif fighter.has("save"):
            self.save = target_number(fighter, "save", 2, 6)
        state = fighter.raw("state", "standing")
        # A Prone fighter has no facing: nothing that works from the front arc helps them.
        self.situation = Situation(
            area=area,
            melee=melee,
            reaction=reaction,
            front=front and state in ("standing", "engaged"),
            engaged=state == "engaged",
        )

    def against(self, ap: int = 0) -> tuple[int | None, int]:
        if self.items is None:
            return self.save, 0
        return save_and_modifier(self.items, replace(self.situation, ap=ap or 0))
