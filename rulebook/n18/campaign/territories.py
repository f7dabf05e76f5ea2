"""The 2018+ territories' boons: income, who may collect it, Reputation while held, recruits.

Facts from ``rulebook/data/n18/territories.json`` (each territory's ``boon``; sources there): the club
campaign guide's Home Settlement (C1) and the Dominion campaign territories of the Necromunda Core Rulebook
(2023), as the necrovox copy in yakuzadave/necroman_v2 lists them (N6). A territory of a house (Bone Shrine
(Cawdor) ...) gives that house's gangs its enhanced boon, which replaces the base values it names.

Decisions where the book is silent (docs/campaigns.md, "Territories"):

- A gang is Outlaw when its house list says it always is (a gang rule named "Outlaw ..."); every other gang
  is Law-abiding (the guide's Cycles 1-2 have no way to become Outlaw).
- "Income ... when collecting income" is rolled in the post-battle sequence of each battle the gang fought,
  as the Home Settlement's is (the guide: after a battle, each gang collects income from each territory).
- A double on a territory's income dice (Collapsed Dome, Refuse Drift) picks the fighter it strikes at random
  among the gang's fighters on the roster, with D6s (``pick_index``).
- Corpse Farm counts the fighters of either side killed during the battle (the record says so) and the
  gang's own fighters its post-battle sequence has found dead by then: the opponent's Lasting Injuries are
  rolled in their own sequence and cannot be waited for.
- Gambling Den draws its card with dice (one of 54 cards, ``pick_index``); the chosen suit is asked for; a
  Joker's forfeit of the sequence's income to a random gang is left to the arbitrator (a line says so).
- Mine Workings counts every captive the gang holds as working the mine.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.roster.amounts import pick_index, roll_amount

DATA = Path(__file__).resolve().parent.parent.parent / "data" / "n18" / "territories.json"
SOURCE = "Necromunda Core Rulebook (2023), Dominion campaign territories (necrovox copy, yakuzadave/necroman_v2)"
SUITS = ("Hearts", "Diamonds", "Clubs", "Spades")
RED = ("Hearts", "Diamonds")
CARD_VALUES = tuple(range(2, 15))  # 2 to 10, Jack 11, Queen 12, King 13, Ace 14


@cache
def data() -> dict:
    with DATA.open(encoding="utf-8") as fh:
        return json.load(fh)


@cache
def _records() -> dict[str, dict]:
    return {t["slug"]: t for t in data()["territories"]}


@dataclass(frozen=True)
class Boon:
    """What holding a territory gives one gang (base or enhanced), as the sequence applies it."""

    slug: str
    name: str
    enhanced: bool = False
    income: str = ""  # an amount rulebook.roster.amounts rolls ("D6x10")
    collects: str = ""  # "outlaw": only an Outlaw gang collects the income
    law_abiding_recruit: str = ""  # the Hanger-on a Law-abiding gang may recruit for free instead
    reputation: int = 0  # while held
    recruit_roll: bool = False  # two D6 after every battle: a 6 a free Juve, double 6 a free Ganger
    per_dome_runner: bool = False  # +1 to the D3 for each Dome Runner
    double: str = ""  # a double on the income dice: "lasting-injury" (no income) or "miss-next-battle"
    choose_dice: tuple[int, int] | None = None  # the player picks how many D6 (Collapsed Dome)
    times: int = 10
    per_fighter_deleted: str = ""  # Corpse Farm
    per_captive: str = ""  # Mine Workings
    card_draw: bool = False  # Gambling Den
    sources: tuple[str, ...] = field(default_factory=tuple)

    @property
    def has_income(self) -> bool:
        return bool(self.income or self.choose_dice or self.per_fighter_deleted or self.card_draw)


def _house_matches(house: str, record_house: str) -> bool:
    return record_house.lower() in (house or "").lower()


def is_outlaw(gang_rule_names: Iterable[str]) -> bool:
    """An Outlaw gang: its house list says it is always Outlaw (Corpse Grinder Cult, Helot Chaos Cult, Ash
    Wastes Nomads, Slave Ogryns: a gang rule named "Outlaw ..."). Every other gang is Law-abiding."""
    return any(name.lower().startswith("outlaw") for name in gang_rule_names)


def boon(slug: str, *, house: str = "", held: Iterable[str] = ()) -> Boon | None:
    """The boon ``slug`` gives a gang of ``house`` that holds the territories ``held`` (for "if the gang also
    controls ..."); None for a territory the file does not know."""
    record = _records().get(slug)
    if record is None:
        return None
    values = dict(record.get("boon") or {})
    enhanced = values.pop("enhanced", None)
    is_enhanced = bool(enhanced) and _house_matches(house, enhanced["house"])
    if is_enhanced:
        values.update({k: v for k, v in enhanced.items() if k not in ("house", "with")})
        with_other = enhanced.get("with")
        if with_other and with_other["territory"] in set(held):
            values["income"] = with_other["income"]
    if "choose_dice" in values:
        values["choose_dice"] = tuple(values["choose_dice"])
    return Boon(
        slug=slug, name=record["name"], enhanced=is_enhanced, sources=tuple(record.get("sources", ())), **values
    )


def reputation_while_held(slug: str, house: str) -> int:
    """The Reputation a gang of ``house`` adds while it holds ``slug`` (0 for none or an unknown territory)."""
    found = boon(slug, house=house)
    return found.reputation if found else 0


@dataclass(frozen=True)
class Collected:
    """One territory's income after a battle: the credits, what the dice said, and what else it decided."""

    credits: int
    text: str
    struck: int | None = None  # index of the fighter a double strikes (into the ``fighters`` given)
    consequence: str = ""  # "lasting-injury" or "miss-next-battle"
    law_abiding_recruit: str = ""

    def as_json(self) -> dict:
        return {
            "credits": self.credits,
            "text": self.text,
            "struck": self.struck,
            "consequence": self.consequence,
            "law_abiding_recruit": self.law_abiding_recruit,
        }


def _is_double(values: list[int]) -> bool:
    return len(values) != len(set(values))


def collect(
    found: Boon,
    dice: DiceSource,
    *,
    outlaw: bool,
    fighters: int = 0,
    dome_runners: int = 0,
    dice_count: int | None = None,
    deleted: int = 0,
    captives: int = 0,
    suit: str = "",
) -> Collected:
    """Roll ``found``'s income for one gang. ``fighters``: how many fighters a double may strike (picked with
    dice among them); ``dice_count``: the player's choice for Collapsed Dome; ``suit``: for the Gambling Den."""
    name = found.name
    if found.collects == "outlaw" and not outlaw:
        recruit = found.law_abiding_recruit
        return Collected(
            0,
            f"no income: only an Outlaw gang collects it; a Law-abiding gang may recruit a Hanger-on "
            f"for free instead ({recruit})",
            law_abiding_recruit=recruit,
        )
    if found.choose_dice:
        low, high = found.choose_dice
        count = dice_count if dice_count is not None else low
        if not low <= count <= high:
            raise RulesInputError(f"dice_count_{found.slug}", f"{name}: roll between {low} and {high} dice")
        values = [dice.d6(f"{name} income ({count}D6x{found.times})") for _ in range(count)]
        return _double(found, dice, values, sum(values) * found.times, fighters)
    if found.card_draw:
        return _card(found, dice, suit)
    if found.per_fighter_deleted:
        total = sum(
            roll_amount(found.per_fighter_deleted, dice, f"{name} income, fighter {i + 1} deleted")
            for i in range(deleted)
        )
        return Collected(total, f"{found.per_fighter_deleted} for each of {deleted} fighters deleted = {total} credits")
    if not found.income:
        return Collected(0, "no income")
    if found.per_dome_runner:
        die = dice.d3(f"{name} income (D3 +1 for each of {dome_runners} Dome Runners, x10)")
        total = (die + dome_runners) * 10
        return Collected(total, f"income D3 {die} + {dome_runners} Dome Runners, x10 = {total} credits")
    mark = len(dice.rolls)
    total = roll_amount(found.income, dice, f"{name} income")
    text = f"income {found.income} = {total} credits"
    if found.per_captive and captives:
        extra = sum(
            roll_amount(found.per_captive, dice, f"{name}: captive {i + 1} working the mine") for i in range(captives)
        )
        total += extra
        text += f"; {captives} captives work the mine: {found.per_captive} each = {extra} more, {total} credits"
    if found.double:
        return _double(found, dice, [r.value for r in dice.rolls[mark:]], total, fighters, text=text)
    return Collected(total, text)


def _double(found: Boon, dice: DiceSource, values: list[int], total: int, fighters: int, text: str = "") -> Collected:
    text = text or f"income {len(values)}D6x{found.times} = {total} credits"
    if not found.double or not _is_double(values):
        return Collected(total, text)
    struck = pick_index(fighters, dice, f"{found.name}: the fighter the double strikes") if fighters else None
    if found.double == "lasting-injury":
        return Collected(
            0,
            f"{text}, but a double: no income, and a random fighter rolls on the Lasting Injury table",
            struck,
            "lasting-injury",
        )
    return Collected(
        total,
        f"{text}; a double: a random fighter meets a waste-lurker and misses the next battle",
        struck,
        "miss-next-battle",
    )


def _card(found: Boon, dice: DiceSource, suit: str) -> Collected:
    if suit not in SUITS:
        raise RulesInputError(f"suit_{found.slug}", f"{found.name}: choose a suit ({', '.join(SUITS)})")
    deck = [(value, s) for s in SUITS for value in CARD_VALUES] + [(0, "Joker"), (0, "Joker")]
    value, drawn = deck[pick_index(len(deck), dice, f"{found.name}: the card drawn")]
    if drawn == "Joker":
        return Collected(
            0,
            "a Joker: the gang pays all its income of this post-battle sequence to a random gang of "
            "the campaign, as the arbitrator decides",
        )
    same_colour = (drawn in RED) == (suit in RED)
    per = 10 if drawn == suit else 5 if same_colour else 0
    return Collected(value * per, f"drew the {value} of {drawn} (chose {suit}): {value} x{per} = {value * per} credits")
