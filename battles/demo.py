"""Demo data: a battle in progress between two demo gangs, with a few actions in its log.

Runs after the gangs demo step (``gangs.demo``): the demo user's 2018+ gang against the rival's, a
Border Dispute with its crews rolled, the turn moved on to the Action phase, a shot and a fight. Dice are
seeded, so a fresh database always gets the same battle. Idempotent: once the demo user has a battle,
it does nothing.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Q

from battles.models import BattleSession
from battles.rules import edition_rules
from battles.services import action_resolve, battle_advance, battle_start
from campaigns.models import Side
from content.models import Edition
from gangs.models import Gang
from rulebook.dice import SeededDice

RIVAL_USERNAME = "demo-rival"


def _gangs(user):
    for edition in (Edition.N18, Edition.CLASSIC):
        mine = Gang.objects.filter(owner=user, edition=edition).order_by("pk").first()
        rival = Gang.objects.filter(owner__username=RIVAL_USERNAME, edition=edition).order_by("pk").first()
        if mine and rival:
            return mine, rival
    return None, None


def _weapon(fighter, use: str, edition: str) -> str | None:
    """The fighter's first weapon profile for ``use`` (shoots, fights) that the rulebook resolves, close combat
    weapons first for a fight."""
    usable = edition_rules(edition).offered(fighter, use).usable
    usable.sort(key=lambda pair: use == "fights" and pair[0]["category"] == "pistol")
    return f"{usable[0][0]['key']}:{usable[0][1]}" if usable else None


def build_demo_battle(*, user, stdout) -> None:
    if BattleSession.objects.filter(Q(player_a=user) | Q(player_b=user)).exists():
        return
    mine, rival = _gangs(user)
    if mine is None:
        stdout.write(
            "Skipped the demo battle: no demo gangs of one edition for demo and demo-rival (run the gangs step)."
        )
        return
    scenario = {"scenario": "border-dispute", "scenario_name": "Border Dispute"} if mine.edition == Edition.N18 else {}
    session = battle_start(gang_a=mine, gang_b=rival, started_by=user, dice=SeededDice(7), **scenario)
    battle_advance(session=session, actor=user)
    if session.edition == Edition.CLASSIC:
        battle_advance(session=session, actor=user)  # classic: on to the shooting phase
    fighters = list(session.fighters.all())
    ours = [f for f in fighters if f.side == Side.ATTACKER]
    theirs = [f for f in fighters if f.side == Side.DEFENDER]
    shooter = next((f for f in ours if _weapon(f, "shoots", session.edition)), None)
    planned = []
    if shooter:
        gun = _weapon(shooter, "shoots", session.edition)
        planned.append(
            ("shoot", {"fighter": shooter, "target": theirs[0], "weapon": gun, "distance": 9, "cover": "partial"})
        )
    brawler = ours[-1]
    fight = {"fighter": brawler, "target": theirs[-1]}
    if session.edition == Edition.N18 and _weapon(brawler, "fights", session.edition):
        fight["weapon"] = _weapon(brawler, "fights", session.edition)
    planned.append(("fight", fight))
    for seed, (kind, params) in enumerate(planned, start=11):
        try:
            action_resolve(session=session, kind=kind, params=params, actor=user, dice=SeededDice(seed))
        except ValidationError as refusal:
            stdout.write(f"Demo battle: skipped a {kind} ({' '.join(refusal.messages)}).")
    stdout.write(f"Demo battle in progress: {mine.name} v {rival.name}.")
