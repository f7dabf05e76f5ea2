"""Injury tables as data: the engine that applies the rows of both editions' post-battle injury tables.

The 1995 Serious Injuries chart and the 2018+ Lasting Injury table are D66 tables whose rows lower
characteristics, add skills or experience, set a status (dead, captured, in Recovery ...), record an
injury that a later roll may ask about ("a second time", "only once") or send the fighter back to the
table with some results re-rolled (Multiple Injuries). Each row's ``details`` carry its effects as data
(:func:`injury_row` and the effect builders; see :meth:`InjuryRules.apply` for the vocabulary). The rows,
their sources and the way a characteristic gets worse come from the edition.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from rulebook.dice import D3, D6, DiceSource
from rulebook.roster.amounts import roll_amount
from rulebook.roster.snapshot import Change, FighterSnapshot, InjuryOutcome
from rulebook.tables import Row, Table


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
        self.changes.append(Change("result", None, row.result, why, dice_used, roll=value, code=row.details["slug"]))
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
