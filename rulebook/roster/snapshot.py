"""A fighter between battles as the rules see him, and the record of what a rule changed.

:class:`FighterSnapshot` is the roster entry the web app hands in (characteristics, skills, injuries,
experience, status); :class:`Change` is one line of what a rule changed and why; :class:`InjuryOutcome` the
fighter after an injury roll. Both editions' post-battle rules (the 1995 Serious Injuries chart, the
2018+ Lasting Injury table, experience and advances) read and return these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from rulebook.errors import RulesInputError
from rulebook.query import Query

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
    """One thing a rule changed on a fighter: what, from and to, why, and the dice it took.

    A table's ``result`` also says which row it was (``code``, the row's slug) and the number read (``roll``), so
    nothing downstream reads them back out of ``why``.
    """

    what: str
    before: object
    after: object
    why: str
    dice: tuple[dict, ...] = ()
    roll: int | None = None
    code: str | None = None

    def as_json(self) -> dict:
        row = {"roll": self.roll, "code": self.code} if self.code else {}
        return {
            "what": self.what,
            "before": self.before,
            "after": self.after,
            "why": self.why,
            "dice": list(self.dice),
            **row,
        }


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
