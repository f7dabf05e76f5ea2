"""A fighter's stat line as it stands: the hired base plus every change, each with its source.

Reads ``fighter.stat_changes.all()``, so callers that show many fighters prefetch
``stat_changes`` (see ``gangs.selectors``) and this costs no query.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from content.models import Edition
from gangs.models import STATS_BY_EDITION, Fighter
from rulebook.n18.campaign.lasting_injury import TARGET_NUMBER_CHARACTERISTICS, characteristic_text
from rulebook.roster import ACTIVE, FighterSnapshot


@dataclass(frozen=True)
class StatValue:
    code: str
    base: int
    value: int
    changes: tuple[str, ...] = field(default_factory=tuple)  # "3 → 4 (Advancement)", "4+ → 5+ (Lasting Injury)"
    target: bool = False  # a 2018+ target number, shown as "4+"
    inches: bool = False  # 2018+ Movement, printed in inches: 5"

    @property
    def shown(self) -> str:
        return f"{self.value}+" if self.target else f'{self.value}"' if self.inches else str(self.value)

    @property
    def changed(self) -> bool:
        return self.value != self.base


def stat_line(fighter: Fighter) -> list[StatValue]:
    """Every characteristic of the fighter's edition, in roster order.

    Each change reads "3 → 4 (Advancement)", or "3+ → 2+" for a 2018+ target number, where a
    lower number is better, so the direction is never in doubt.
    """
    edition = fighter.gang.edition
    running = dict(fighter.base_stats)
    notes: dict[str, list[str]] = {}
    for change in fighter.stat_changes.all():
        before = running.get(change.stat, 0)
        running[change.stat] = before + change.delta
        after = running[change.stat]
        if edition == Edition.N18:
            before, after = characteristic_text(change.stat, before), characteristic_text(change.stat, after)
        text = f"{before} → {after} ({change.get_source_display()})"
        notes.setdefault(change.stat, []).append(text)
    line = []
    for code in STATS_BY_EDITION[edition]:
        base = fighter.base_stats.get(code)
        if base is None:
            continue
        target = edition == Edition.N18 and code in TARGET_NUMBER_CHARACTERISTICS
        inches = edition == Edition.N18 and code == "M"
        line.append(StatValue(code, base, running[code], tuple(notes.get(code, ())), target, inches))
    return line


def current_stats(fighter: Fighter) -> dict[str, int]:
    """``{"M": 4, "WS": 3, ...}`` with every change applied."""
    return {value.code: value.value for value in stat_line(fighter)}


def fighter_snapshot(fighter: Fighter, *, statuses=None) -> FighterSnapshot:
    """The fighter as the rulebook's post-battle rules read them (prefetch ``skills__skill`` and ``injuries``).

    ``statuses``: the statuses the rules know; one they do not (a classic table has no Recovery) reads as Active.
    """
    status = fighter.status if statuses is None or fighter.status in statuses else ACTIVE
    return FighterSnapshot(
        characteristics=current_stats(fighter),
        skills=tuple(fs.skill.name for fs in fighter.skills.all()),
        injuries=tuple(i.code for i in fighter.injuries.all()),
        xp=fighter.experience,
        status=status,
        id=str(fighter.pk),
    )
