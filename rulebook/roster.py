"""Fighters between battles: a frozen snapshot of a roster entry, and injury tables that change it.

Both editions end a battle the same way: a fighter who went Out of Action rolls on a D66 table
(the 1995 Serious Injuries chart, the 2018+ Lasting Injury table) whose rows lower characteristics,
add skills or experience, set a status (dead, captured, in Recovery ...), record an injury that a
later roll may ask about ("a second time", "only once") or send the fighter back to the table with
some results re-rolled (Multiple Injuries). This module holds what the two tables share:

- :class:`FighterSnapshot`, the roster entry the web app hands in (characteristics, skills,
  injuries, experience, status), and :class:`Change`, one line of what a rule changed and why;
- :class:`InjuryRules`, which applies a table's rows. Each row's ``details`` carry its effects as
  data (see :meth:`InjuryRules.apply` for the vocabulary), so the same engine reads both tables;
- :func:`roll_amount`, for the rewards written as dice ("D6x10", "3D6x10", "D3").

Nothing here decides a rule of its own: the rows, their sources and the way a characteristic gets
worse (a lower number, or a higher target number in the 2018+ rules) come from the edition.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from rulebook.dice import D3, D6, DiceSource, Dist, certain, map_dist, sum_of
from rulebook.errors import RulesInputError
from rulebook.query import Query
from rulebook.tables import Row, Table

ACTIVE = "active"


@dataclass(frozen=True)
class FighterSnapshot:
    """A fighter as the roster has them between battles.

    ``characteristics`` maps a characteristic's short name (``"BS"``, ``"Cl"``) to its number; for
    the 2018+ target-number characteristics that is the number before the ``+`` (BS 4+ is 4).
    ``injuries`` lists the slugs of recorded injuries, a repeat appearing twice.
    """

    characteristics: Mapping[str, int]
    skills: tuple[str, ...] = ()
    injuries: tuple[str, ...] = ()
    xp: int = 0
    status: str = ACTIVE
    id: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "characteristics", MappingProxyType(dict(self.characteristics)))
        object.__setattr__(self, "skills", tuple(self.skills))
        object.__setattr__(self, "injuries", tuple(self.injuries))

    def __hash__(self) -> int:
        # The characteristics mapping is read-only but not hashable itself.
        return hash(
            (tuple(sorted(self.characteristics.items())), self.skills, self.injuries, self.xp, self.status, self.id)
        )

    def characteristic(self, name: str) -> int:
        if name not in self.characteristics:
            raise RulesInputError(f"fighter.characteristics.{name}", "is required by this result")
        return self.characteristics[name]

    def with_characteristic(self, name: str, value: int) -> FighterSnapshot:
        return replace(self, characteristics={**self.characteristics, name: value})

    def has_skill(self, skill: str) -> bool:
        return skill in self.skills

    def has_injury(self, slug: str) -> bool:
        return slug in self.injuries

    def as_json(self) -> dict:
        out = {
            "characteristics": dict(self.characteristics),
            "skills": list(self.skills),
            "injuries": list(self.injuries),
            "xp": self.xp,
            "status": self.status,
        }
        if self.id is not None:
            out = {"id": self.id, **out}
        return out

    @classmethod
    def from_query(cls, q: Query, statuses: Iterable[str]) -> FighterSnapshot:
        """Read a fighter from a query object, naming the field that is wrong."""
        chars = q.sub("characteristics", default={})
        characteristics = {name: chars.int(name, low=0, high=20) for name in chars.data}
        return cls(
            characteristics=characteristics,
            skills=tuple(_strings(q, "skills")),
            injuries=tuple(_strings(q, "injuries")),
            xp=q.int("xp", low=0, default=0),
            status=q.choice("status", list(statuses), default=ACTIVE),
            id=str(q.raw("id")) if q.has("id") else None,
        )


def _strings(q: Query, name: str) -> list[str]:
    value = q.raw(name, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise RulesInputError(q.field(name), "must be a list of names")
    return [v.strip() for v in value]


@dataclass(frozen=True)
class Change:
    """One thing a rule changed on a fighter: what, from and to, why, and the dice it took."""

    what: str
    before: object
    after: object
    why: str
    dice: tuple[dict, ...] = ()

    def as_json(self) -> dict:
        return {"what": self.what, "before": self.before, "after": self.after, "why": self.why, "dice": list(self.dice)}


@dataclass(frozen=True)
class InjuryOutcome:
    """A fighter after an injury roll: the new snapshot, every change, the results applied in order.

    ``attacker_xp`` is experience owed to the enemy fighter who caused the injury (Memorable Death).
    """

    fighter: FighterSnapshot
    changes: tuple[Change, ...]
    results: tuple[str, ...]
    attacker_xp: int = 0

    def as_json(self) -> dict:
        return {
            "results": list(self.results),
            "fighter": self.fighter.as_json(),
            "changes": [c.as_json() for c in self.changes],
            "attacker_xp": self.attacker_xp,
        }


# --- amounts written as dice ------------------------------------------------------------------

_AMOUNT = re.compile(r"^(-?)(?:(\d*)D([36])|(\d+))(?:\+(\d+))?(?:x(\d+))?$")


def _parse_amount(expr: str) -> tuple[int, int, int, int, int]:
    """``"3D6x10"`` → (count 3, die 6, fixed 0, plus 0, times 10); a leading ``-`` makes ``times`` negative."""
    match = _AMOUNT.match(expr.replace(" ", "").replace("×", "x"))
    if not match:
        raise RulesInputError("amount", f"{expr!r} is not a dice amount such as D6x10, D3+3 or -1")
    sign, count, sides, fixed, plus, times = match.groups()
    times = int(times or 1) * (-1 if sign else 1)
    if sides:
        return int(count or 1), int(sides), 0, int(plus or 0), times
    return 0, 6, int(fixed), int(plus or 0), times


def roll_amount(expr: str, dice: DiceSource, purpose: str) -> int:
    """Roll an amount such as ``"D6x10"``, ``"3D6x10"``, ``"D3+3"``, ``"-D3"`` or ``"8"``."""
    count, sides, fixed, plus, times = _parse_amount(expr)
    die = D3 if sides == 3 else D6
    total = fixed + sum(dice.roll(die, f"{purpose} ({expr})") for _ in range(count))
    return (total + plus) * times


def amount_dice(expr: str) -> int:
    """How many dice an amount rolls (``"4D6x10"`` → 4)."""
    return _parse_amount(expr)[0]


def amount_distribution(expr: str) -> Dist:
    count, sides, fixed, plus, times = _parse_amount(expr)
    base = sum_of(D3 if sides == 3 else D6, count) if count else certain(fixed)
    return map_dist(base, lambda total: (total + plus) * times)


# --- random picks with ordinary dice ----------------------------------------------------------


def pick_index(count: int, dice: DiceSource, purpose: str) -> int:
    """Pick one of ``count`` things uniformly with D6s, every die shown.

    Roll as many D6 as needed to cover ``count`` (one die up to 6, two read as a D66 up to 36 ...),
    read them as one number, split its range into ``count`` equal bands and re-roll a result that
    falls past the last whole band. With 4 things one D6 is read 1-4, re-rolling 5 and 6; with 3
    things 1-2 is the first, 3-4 the second, 5-6 the third. One thing needs no die.
    """
    if count < 1:
        raise RulesInputError("fighters", "there is nothing to pick from")
    if count == 1:
        return 0
    digits, span = 1, 6
    while span < count:
        digits, span = digits + 1, span * 6
    band = span // count
    while True:
        value = 0
        for digit in range(digits):
            label = f" (die {digit + 1} of {digits})" if digits > 1 else ""
            value = value * 6 + dice.d6(f"{purpose}{label}") - 1
        if value < band * count:
            return value // band


# --- injury tables as data -----------------------------------------------------------------------


def injury_row(low: int, high: int, name: str, slug: str, summary: str, effects: list, **options) -> Row:
    """One row of an injury table: its slug, a summary in our words, and effects and options as
    :meth:`InjuryRules.apply` reads them."""
    return Row(low, high, name, {"slug": slug, "summary": summary, "effects": effects, **options})


def status_effect(status: str) -> dict:
    return {"kind": "status", "status": status}


def worsen_effects(*characteristics: str) -> list[dict]:
    """One step worse for each characteristic named."""
    return [{"kind": "characteristic", "characteristic": name, "change": "worsen"} for name in characteristics]


def note_effect(text: str) -> dict:
    return {"kind": "note", "text": text}


@dataclass(frozen=True)
class InjuryRules:
    """An edition's injury table and how its effects land on a fighter.

    ``step(characteristic, change)`` gives the amount a characteristic's number moves for one step of
    ``"worsen"`` or ``"improve"``. ``status_rank`` orders statuses: a fighter keeps the worst one.
    """

    table: Table
    step: Callable[[str, str], int]
    status_rank: Mapping[str, int]

    def row_for_slug(self, slug: str):
        return next(r for r in self.table.rows if r.details["slug"] == slug)

    def apply(
        self, fighter: FighterSnapshot, roll, dice: DiceSource, *, caused_by_attack_action: bool = False
    ) -> InjuryOutcome:
        """Apply the result ``roll`` (already rolled or entered) to ``fighter``.

        Effects a row may carry in ``details["effects"]`` (each a dict with a ``kind``):

        - ``status``: the fighter takes ``status`` unless they already have a worse one;
        - ``characteristic``: one step of ``change`` (``worsen``/``improve``) to ``characteristic``;
        - ``experience``: ``dice`` (``"D3"``, ``"D6"``) or ``amount`` experience;
        - ``skill``: the fighter gains ``skill``;
        - ``sub_roll``: roll ``die`` and read ``bands`` (``{"1-3": "left", ...}``) to say which
          (which arm, whom the fighter hates);
        - ``roll_again``: roll ``dice`` more times on the table, re-rolling results in ``reroll``;
        - ``attacker_experience``: ``amount`` experience for the enemy who caused the injury;
        - ``note``: a lasting rule the roster shows but that changes nothing now.

        Row options: ``record_injury`` (the slug goes on the fighter's injuries), ``repeat_effects``
        (used instead of ``effects`` when the fighter already has this injury) and ``treat_as``
        (``{"slug": ..., "if": [{"has_injury": ...} | {"has_skill": ...}]}``: read as another row).
        """
        value = self.table.check_roll(roll)
        entered = ({"die": self.table.dice, "for": f"{self.table.title} table (entered)", "value": value},)
        run = _Run(self, fighter, dice, caused_by_attack_action)
        run.apply_row(value, entered, reroll=())
        return run.outcome()

    def roll(
        self,
        fighter: FighterSnapshot,
        dice: DiceSource,
        *,
        reroll: Iterable[str] = (),
        caused_by_attack_action: bool = False,
        purpose: str | None = None,
    ) -> InjuryOutcome:
        """Roll the table for ``fighter`` (re-rolling results whose slug is in ``reroll``) and apply it."""
        run = _Run(self, fighter, dice, caused_by_attack_action)
        run.roll_and_apply(tuple(reroll), purpose or f"{self.table.title} table")
        return run.outcome()

    def apply_or_roll(
        self, fighter: FighterSnapshot, roll, dice: DiceSource, *, caused_by_attack_action: bool = False
    ) -> InjuryOutcome:
        """Apply the result a player entered (``roll``), or roll the table when ``roll`` is None."""
        if roll is None:
            return self.roll(fighter, dice, caused_by_attack_action=caused_by_attack_action)
        return self.apply(fighter, roll, dice, caused_by_attack_action=caused_by_attack_action)


class _Run:
    """One resolution of an injury table: the fighter as it changes and the account of it."""

    def __init__(self, rules: InjuryRules, fighter: FighterSnapshot, dice: DiceSource, caused_by_attack: bool):
        self.rules = rules
        self.fighter = fighter
        self.dice = dice
        self.caused_by_attack = caused_by_attack
        self.changes: list[Change] = []
        self.results: list[str] = []
        self.attacker_xp = 0

    def outcome(self) -> InjuryOutcome:
        return InjuryOutcome(self.fighter, tuple(self.changes), tuple(self.results), self.attacker_xp)

    def _since(self, mark: int) -> tuple[dict, ...]:
        return tuple(r.as_json() for r in self.dice.rolls[mark:])

    def effective_row(self, value: int):
        """The row a result is read as, after its ``treat_as`` conditions."""
        row = self.rules.table.row(value)
        treat = row.details.get("treat_as")
        if treat and any(self._holds(cond) for cond in treat["if"]):
            return row, self.rules.row_for_slug(treat["slug"])
        return row, row

    def _holds(self, condition: dict) -> bool:
        if "has_injury" in condition:
            return self.fighter.has_injury(condition["has_injury"])
        return self.fighter.has_skill(condition["has_skill"])

    def roll_and_apply(self, reroll: tuple[str, ...], purpose: str) -> None:
        mark = len(self.dice.rolls)
        while True:
            value = self._roll_table(purpose)
            _, row = self.effective_row(value)
            if row.details["slug"] not in reroll:
                break
            purpose = f"{self.rules.table.title} table (re-roll of {row.result})"
        self.apply_row(value, self._since(mark), reroll)

    def _roll_table(self, purpose: str) -> int:
        if self.rules.table.dice == "D66":
            return self.dice.d66(purpose)
        return self.dice.d6(purpose)

    def apply_row(self, value: int, dice_used: tuple[dict, ...], reroll: tuple[str, ...]) -> None:
        rolled, row = self.effective_row(value)
        why = f"{row.result} ({value})" if rolled is row else f"{rolled.result} ({value}), read as {row.result}"
        self.results.append(row.result)
        self.changes.append(Change("result", None, row.result, why, dice_used))
        repeat = row.details.get("record_injury") and self.fighter.has_injury(row.details["slug"])
        effects = row.details.get("repeat_effects", row.details["effects"]) if repeat else row.details["effects"]
        for effect in effects:
            getattr(self, f"_effect_{effect['kind']}")(effect, why)
        if row.details.get("record_injury"):
            before = list(self.fighter.injuries)
            self.fighter = replace(self.fighter, injuries=(*self.fighter.injuries, row.details["slug"]))
            self.changes.append(Change("injuries", before, list(self.fighter.injuries), why))

    def _effect_status(self, effect: dict, why: str) -> None:
        rank = self.rules.status_rank
        new = effect["status"]
        if rank[new] > rank[self.fighter.status]:
            self.changes.append(Change("status", self.fighter.status, new, why))
            self.fighter = replace(self.fighter, status=new)

    def _effect_characteristic(self, effect: dict, why: str) -> None:
        name = effect["characteristic"]
        before = self.fighter.characteristic(name)
        after = before + self.rules.step(name, effect["change"])
        self.fighter = self.fighter.with_characteristic(name, after)
        self.changes.append(Change(name, before, after, why))

    def _effect_experience(self, effect: dict, why: str) -> None:
        mark = len(self.dice.rolls)
        gained = effect.get("amount") or roll_amount(effect["dice"], self.dice, f"{why}: experience")
        before = self.fighter.xp
        self.fighter = replace(self.fighter, xp=before + gained)
        self.changes.append(Change("xp", before, self.fighter.xp, why, self._since(mark)))

    def _effect_skill(self, effect: dict, why: str) -> None:
        if not self.fighter.has_skill(effect["skill"]):
            before = list(self.fighter.skills)
            self.fighter = replace(self.fighter, skills=(*self.fighter.skills, effect["skill"]))
            self.changes.append(Change("skills", before, list(self.fighter.skills), why))

    def _effect_sub_roll(self, effect: dict, why: str) -> None:
        mark = len(self.dice.rolls)
        face = self.dice.roll(D3 if effect["die"] == "D3" else D6, f"{why}: {effect['for']}")
        label = next(text for band, text in effect["bands"].items() if _in_band(face, band))
        self.changes.append(Change(effect["for"], None, label, why, self._since(mark)))

    def _effect_roll_again(self, effect: dict, why: str) -> None:
        mark = len(self.dice.rolls)
        times = roll_amount(effect["dice"], self.dice, f"{why}: further rolls")
        self.changes.append(Change("further_rolls", None, times, why, self._since(mark)))
        for n in range(times):
            self.roll_and_apply(tuple(effect["reroll"]), f"{why}: further roll {n + 1} of {times}")

    def _effect_attacker_experience(self, effect: dict, why: str) -> None:
        if self.caused_by_attack:
            self.attacker_xp += effect["amount"]
            self.changes.append(Change("attacker_xp", 0, effect["amount"], f"{why}: {effect['condition']}"))

    def _effect_note(self, effect: dict, why: str) -> None:
        self.changes.append(Change("note", None, effect["text"], why))


def _in_band(face: int, band: str) -> bool:
    low, _, high = band.partition("-")
    return int(low) <= face <= int(high or low)
