"""What each event says, and which page it links to, built from the object the service just changed.

The services call :func:`notifications.services.notify` with that object (a battle, a cycle, a post-battle
sequence); the words are made here, once, so each service needs one line to tell of what it did. Only names a
member of the campaign may see go into the text (gangs, fighters, scenarios, territories), never a roster's
private notes.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from gangs.models import Fighter, FighterStatus
from notifications.models import EventKind


@dataclass(frozen=True)
class Told:
    kind: str
    campaign_id: int
    text: str
    path: str


def _battle_path(battle) -> str:
    return reverse("campaigns:battle-detail", args=[battle.campaign_id, battle.pk])


def _outcome(battle) -> str:
    return "a draw" if battle.is_draw else f"{battle.winner.name} won"


def challenge_issued(battle) -> list[Told]:
    stakes = "a Rescue Mission" if battle.is_rescue else (battle.stakes.territory.name if battle.stakes else "")
    text = f"{battle.attacker.name} challenges {battle.defender.name}" + (f" for {stakes}." if stakes else ".")
    return [Told(EventKind.CHALLENGE_ISSUED, battle.campaign_id, text, _battle_path(battle))]


def battle_reported(battle) -> list[Told]:
    text = f"{battle.scenario_name}, {battle}: reported ({_outcome(battle)}), waiting for confirmation."
    return [Told(EventKind.BATTLE_REPORTED, battle.campaign_id, text, _battle_path(battle))]


def battle_confirmed(battle) -> list[Told]:
    text = f"{battle.scenario_name}, {battle}: confirmed, {_outcome(battle)}. Post-battle sequences can be run."
    return [Told(EventKind.BATTLE_CONFIRMED, battle.campaign_id, text, _battle_path(battle))]


def cycle_begun(cycle) -> list[Told]:
    path = reverse("campaigns:campaign-detail", args=[cycle.campaign_id])
    return [Told(EventKind.CYCLE_BEGUN, cycle.campaign_id, f"Cycle {cycle.number} has begun.", path)]


def sequence_applied(sequence) -> list[Told]:
    """The sequence, and each fighter it left a captive of another gang."""
    battle = sequence.battle
    path = reverse("postbattle:sequence-detail", args=[battle.pk, sequence.gang_id])
    told = [
        Told(
            EventKind.SEQUENCE_APPLIED,
            battle.campaign_id,
            f"{sequence.gang.name} applied its post-battle sequence after {battle.scenario_name}, {battle}.",
            path,
        )
    ]
    changed = [int(pk) for pk in (sequence.application.undo or {}).get("fighters", {})]
    if changed:
        captives = Fighter.objects.filter(pk__in=changed, status=FighterStatus.CAPTURED).select_related(
            "gang", "captured_by"
        )
        for fighter in captives:
            captors = fighter.captured_by.name if fighter.captured_by else "the enemy"
            text = f"{fighter.name} of {fighter.gang.name} is held captive by {captors}."
            told.append(Told(EventKind.CAPTIVE_TAKEN, battle.campaign_id, text, _battle_path(battle)))
    return told


DESCRIBE = {
    EventKind.CHALLENGE_ISSUED: challenge_issued,
    EventKind.BATTLE_REPORTED: battle_reported,
    EventKind.BATTLE_CONFIRMED: battle_confirmed,
    EventKind.CYCLE_BEGUN: cycle_begun,
    EventKind.SEQUENCE_APPLIED: sequence_applied,
}
