"""Who fights a campaign battle: whether the roll-off's winner has still to choose to attack or defend, the
fighters a crew is picked from, the crew page's rule and rolls, and the Hired Guns who join the crew after the
picks. Reads only: :mod:`campaigns.services.battles` rolls and picks the crews."""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import QuerySet

from campaigns import rules
from campaigns.models import Battle
from gangs.models import AVAILABLE_FOR_BATTLE, GONE, Fighter, Gang
from rulebook import gang_rules


def roles_pending(battle: Battle) -> bool:
    """True while the roll-off winner has not chosen to attack or defend."""
    roll_off = battle.scenario_roll.get("roll_off") or {}
    return bool(roll_off.get("winner")) and roll_off.get("chosen") is None


def crew_candidates(
    gang: Gang, *, fit_to_fight: bool = False, select: Sequence[str] = ("fighter_type",), prefetch: Sequence[str] = ()
) -> list[Fighter]:
    """The gang's fighters a crew is picked from (the unavailable ones included, to be shown).

    Hangers-on stay at the hideout unless Part of the Crew, and Hired Guns are never picked: they join
    the crew of the battle they were hired for afterwards (:func:`hired_guns_of`). ``fit_to_fight``: only those
    who may fight now (the battle assistant's crews and Reinforcements), not every fighter still with the gang.
    ``select`` and ``prefetch``: what the caller reads of each fighter (a battle's snapshot reads his gear too)."""
    # Fighters no longer with the gang are not offered for a crew at all (the unavailable ones are shown).
    with_gang = (
        gang.fighters.filter(status__in=AVAILABLE_FOR_BATTLE)
        if fit_to_fight
        else gang.fighters.exclude(status__in=GONE)
    )
    fighters = _loaded(with_gang, select, prefetch)
    return [f for f in fighters if gang_rules.fights_in_crews(f.fighter_type.category, f.fighter_type.special_rules)]


def hired_guns_of(
    battle: Battle, gang: Gang, *, select: Sequence[str] = (), prefetch: Sequence[str] = ()
) -> list[Fighter]:
    """The Hired Guns ``gang`` hired for ``battle``: they join its crew whatever the selection method. ``select``
    and ``prefetch`` as for :func:`crew_candidates`."""
    hired = gang.fighters.filter(battle_hire__battle=battle, status__in=AVAILABLE_FOR_BATTLE)
    return list(_loaded(hired, select, prefetch))


def _loaded(fighters: QuerySet[Fighter], select: Sequence[str], prefetch: Sequence[str]) -> QuerySet[Fighter]:
    """The fighters in roster order with what the caller reads: ``select_related()`` with no field would follow
    every foreign key, so it is asked only for named ones."""
    fighters = fighters.select_related(*select) if select else fighters
    return fighters.prefetch_related(*prefetch).order_by("order", "pk")


def crew_page(battle: Battle, side: str, fighters: list[Fighter]) -> dict:
    """The crew rule of ``side``, what has been rolled, and which fighters may be picked."""
    available = rules.available(fighters)
    crew = rules.crew_rule(battle.campaign.edition, battle.scenario, side, len(available))
    stored = battle.crews.get(side, {})
    return {
        "crew_rule": crew,
        "stored": stored,
        "size": stored.get("size"),
        "needs_size_roll": rules.size_needs_dice_before_choosing(crew) and not stored.get("size"),
        "picked": stored.get("fighters") is not None,
        "fighter_rows": [(f, f.pk in available) for f in fighters],
    }
