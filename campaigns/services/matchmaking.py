"""Who fights whom: Cycle 1 random pairing, arranged battles, challenges from Cycle 2 in rating order
(``rulebook.n18.matchmaking``), passing on a challenge."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.announcements import EventKind, announce
from campaigns.models import (
    Battle,
    BattleOrigin,
    BattleStatus,
    Campaign,
    CampaignTerritory,
    Cycle,
)
from campaigns.selectors import (
    active_memberships,
    captives_of,
    challenge_refusal,
    contenders,
    engaged_gang_ids,
    standings,
    unapplied_sequences,
)
from campaigns.services._common import (
    _current_cycle,
    _lock,
    _member,
    _require_in_progress,
    _rules_error,
    campaign_log_record,
    require_impartial_battle,
)
from campaigns.services.hired_guns import hired_guns_leave
from gangs.ledger import ledger_record
from gangs.models import Gang, LedgerKind
from rulebook.dice import DiceSource
from rulebook.errors import RulesInputError
from rulebook.n18.matchmaking import next_challenger, pair_at_random


@transaction.atomic
def cycle_pair(*, campaign: Campaign, dice: DiceSource, actor=None, reason: str = "") -> Cycle:
    """Cycle 1: pair at random the gangs who want to play. Every die final: pairing again (the battles not
    reported yet) sets the last pairing's dice aside, which needs the arbitrator's ``reason``; the campaign
    log keeps both, each gang's entry with the dice that paired it and how."""
    _lock(campaign)
    cycle = _current_cycle(campaign)
    if cycle.number != 1:
        raise ValidationError("Random pairing is for Cycle 1; from Cycle 2 gangs issue challenges.")
    unplayed = list(
        cycle.battles.filter(origin=BattleOrigin.PAIRING, status=BattleStatus.SCHEDULED).select_related(
            "attacker", "defender"
        )
    )
    reason = (reason or "").strip()
    if unplayed and not reason:
        raise ValidationError(
            "Give the reason to pair again: the last pairing's dice are set aside and stay in the log."
        )
    for battle in unplayed:
        for gang in (battle.attacker, battle.defender):
            ledger_record(
                gang=gang,
                kind=LedgerKind.OTHER,
                actor=actor,
                reason=f"Set aside: {reason[:150]}",
                description=f"Cycle 1 pairing {battle.attacker.name} v {battle.defender.name} set aside",
                dice=cycle.pairing_dice,
                data={"pairing": "set aside", "cycle": cycle.number, "campaign": campaign.pk},
            )
        battle.delete()
    engaged = engaged_gang_ids(cycle) - set(cycle.passed.values_list("pk", flat=True))
    willing = active_memberships(campaign).filter(wants_to_play=True).exclude(gang_id__in=engaged)
    gangs = {str(m.gang_id): m.gang for m in willing.select_related("gang").order_by("gang__name", "gang_id")}
    try:
        pairing = pair_at_random(list(gangs), dice)
    except RulesInputError as err:
        raise _rules_error(err) from err
    named = [_named(row, gangs) for row in pairing.dice]
    for first, second in pairing.pairs:
        Battle.objects.create(
            campaign=campaign, cycle=cycle, origin=BattleOrigin.PAIRING, attacker_id=int(first), defender_id=int(second)
        )
        used = [row for row in named if f"opponent of {gangs[first].name}," in row["for"]]
        how = f"{gangs[second].name} drawn as the opponent of {gangs[first].name}"
        for gang in (gangs[first], gangs[second]):
            # Not linked to the battle: a pairing not yet played can be set aside or cancelled.
            ledger_record(
                gang=gang,
                kind=LedgerKind.OTHER,
                actor=actor,
                dice=used,
                description=f"Cycle 1 pairing: {gangs[first].name} v {gangs[second].name}",
                reason=f"{how} ({_dice_text(used)})" if used else f"{how} (the last two gangs: no die)",
                data={"pairing": "paired", "cycle": cycle.number, "campaign": campaign.pk},
            )
    if pairing.odd_one_out:
        used = [row for row in named if "the gang left out" in row["for"]]
        ledger_record(
            gang=gangs[pairing.odd_one_out],
            kind=LedgerKind.OTHER,
            actor=actor,
            dice=used,
            description="Cycle 1 pairing: sits out (an odd number of gangs)",
            reason=f"Drawn to sit out ({_dice_text(used)})",
            data={"pairing": "odd one out", "campaign": campaign.pk},
        )
    cycle.pairing_dice = named
    cycle.odd_gang_out_id = int(pairing.odd_one_out) if pairing.odd_one_out else None
    cycle.save(update_fields=["pairing_dice", "odd_gang_out"])
    return cycle


def _named(row: dict, gangs: dict) -> dict:
    """A pairing die with the gang's name in its purpose instead of its id."""
    text = row["for"]
    for gang_id, gang in gangs.items():
        text = text.replace(f"opponent of {gang_id},", f"opponent of {gang.name},")
    return {**row, "for": text}


def _dice_text(rows: list[dict]) -> str:
    return "; ".join(f"{row['die']} {row['value']} for {row['for']}" for row in rows)


@transaction.atomic
def battle_arrange(
    *,
    campaign: Campaign,
    attacker: Gang,
    defender: Gang,
    stakes: CampaignTerritory | None = None,
    rescue: bool = False,
) -> Battle:
    """An arbitrator pairs two gangs: the classic rules' free pairing, or an adjustment to a cycle (a Rescue
    Mission too, by the same rule as a challenge for one)."""
    _lock(campaign)
    _require_in_progress(campaign)
    if attacker.pk == defender.pk:
        raise ValidationError("A gang cannot fight itself.")
    _member(campaign, attacker)
    _member(campaign, defender)
    cycle = _current_cycle(campaign) if campaign.has_cycles else None
    if rescue:
        return _rescue_issue(campaign, cycle, attacker, defender, stakes, origin=BattleOrigin.ARRANGED)
    if cycle and {attacker.pk, defender.pk} & (
        engaged_gang_ids(cycle) - set(cycle.passed.values_list("pk", flat=True))
    ):
        raise ValidationError("One of these gangs already has a battle this cycle; cancel it first.")
    if stakes is not None:
        _check_stakes(campaign, stakes, defender)
    return Battle.objects.create(
        campaign=campaign,
        cycle=cycle,
        origin=BattleOrigin.ARRANGED,
        attacker=attacker,
        defender=defender,
        stakes=stakes,
    )


@transaction.atomic
def battle_cancel(*, battle: Battle, actor=None, reason: str = "") -> Battle:
    """An arbitrator cancels a battle not yet reported, saying why. The battle stays, cancelled, with its dice and
    the reason, and both gangs' campaign log says so; its gangs are free to fight another battle this cycle."""
    battle = Battle.objects.select_for_update(of=("self",)).select_related("attacker", "defender").get(pk=battle.pk)
    if battle.status != BattleStatus.SCHEDULED:
        raise ValidationError("Only a battle that has not been reported can be cancelled.")
    require_impartial_battle(battle, actor, "Cancelling a battle")
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError("Give the reason the battle is cancelled: it stays in the campaign log.")
    hired_guns_leave(battle=battle, actor=actor, cancelled=True)  # paid back: the battle is not fought
    battle.status, battle.cancel_reason = BattleStatus.CANCELLED, reason[:300]
    battle.save(update_fields=["status", "cancel_reason"])
    campaign_log_record(
        gangs=(battle.attacker, battle.defender),
        event="cancelled",
        battle=battle,
        actor=actor,
        description=f"Battle cancelled: {battle.attacker.name} v {battle.defender.name}",
        reason=battle.cancel_reason,
    )
    return battle


def _check_stakes(campaign: Campaign, stakes: CampaignTerritory, defender: Gang) -> None:
    if stakes.campaign_id != campaign.pk:
        raise ValidationError("That territory is not in this campaign.")
    if stakes.is_home_settlement:
        raise ValidationError("A Home Settlement cannot be lost.")
    if stakes.holder_id not in (None, defender.pk):
        raise ValidationError("Challenge for a territory the challenged gang holds, or an unclaimed one.")


@transaction.atomic
def challenge_issue(
    *,
    campaign: Campaign,
    challenger: Gang,
    target: Gang,
    stakes: CampaignTerritory | None = None,
    rescue: bool = False,
    actor=None,
) -> Battle:
    """From Cycle 2 the gangs challenge in order, lowest rating first, for a territory or, against the
    gang holding one of their fighters captive, for a Rescue Mission. The challenger attacks."""
    _lock(campaign)
    cycle = _current_cycle(campaign)
    if cycle.number < 2:
        raise ValidationError("Challenges start in Cycle 2; Cycle 1 is paired at random.")
    if challenger.pk == target.pk:
        raise ValidationError("A gang cannot challenge itself.")
    _member(campaign, target)
    _require_applied(campaign, challenger, target)
    if rescue:
        battle = _rescue_issue(campaign, cycle, challenger, target, stakes, origin=BattleOrigin.CHALLENGE)
        _challenge_log(battle, cycle, "a Rescue Mission", actor)
        return battle
    engaged = engaged_gang_ids(cycle)
    rated = contenders(standings(campaign))
    turn = next_challenger(rated, done={str(i) for i in engaged})
    if turn is None or turn.id != str(challenger.pk):
        waiting = f"{turn.name} challenges next" if turn else "every gang has played or passed"
        raise ValidationError(f"It is not {challenger.name}'s turn: {waiting} (lowest rating first).")
    if target.pk in engaged:
        raise ValidationError(f"{target.name} already has a battle this cycle or has passed.")
    if stakes is None:
        raise ValidationError("Challenge either for a territory or for a Rescue Mission.")
    _check_stakes(campaign, stakes, target)
    ratings = {c.id: c.rating for c in rated}
    if refusal := challenge_refusal(campaign, ratings[str(challenger.pk)], ratings[str(target.pk)]):
        raise ValidationError(refusal)
    battle = Battle.objects.create(
        campaign=campaign,
        cycle=cycle,
        origin=BattleOrigin.CHALLENGE,
        attacker=challenger,
        defender=target,
        stakes=stakes,
    )
    announce(EventKind.CHALLENGE_ISSUED, battle)
    _challenge_log(battle, cycle, stakes.territory.name, actor)
    return battle


def _require_applied(campaign: Campaign, challenger: Gang, target: Gang) -> None:
    """A gang whose post-battle sequence is not applied neither challenges nor is challenged."""
    unapplied = unapplied_sequences(campaign)
    for gang in (target, challenger):
        waiting = [b for b, g in unapplied if g.pk == gang.pk]
        if waiting:
            raise ValidationError(
                f"{gang.name} cannot {'be challenged' if gang is target else 'challenge'} yet: its post-battle "
                f"sequence after {waiting[0].scenario_name} ({waiting[0]}) is not applied."
            )


def _challenge_log(battle: Battle, cycle: Cycle, what: str, actor) -> None:
    campaign_log_record(
        gangs=(battle.attacker, battle.defender),
        event="challenge",
        battle=battle,
        actor=actor,
        description=f"Cycle {cycle.number} challenge: {battle.attacker.name} challenges "
        f"{battle.defender.name} for {what}",
    )


def _rescue_issue(campaign, cycle, rescuers: Gang, captors: Gang, stakes, *, origin: str) -> Battle:
    """A Rescue Mission against the gang holding one of ``rescuers``' fighters. It stands outside the challenge
    order (our decision, docs/campaigns.md): whatever the order, whether the captors passed or already have a
    battle this cycle, the rescuers may come for their fighter, and it takes neither gang's challenge."""
    if stakes is not None:
        raise ValidationError("Challenge either for a territory or for a Rescue Mission.")
    if not captives_of(rescuers, captors).exists():
        raise ValidationError(f"{captors.name} holds none of {rescuers.name}'s fighters captive.")
    waiting = Battle.objects.filter(
        campaign=campaign,
        is_rescue=True,
        attacker=rescuers,
        defender=captors,
        status__in=(BattleStatus.SCHEDULED, BattleStatus.REPORTED),
    )
    if waiting.exists():
        raise ValidationError(f"{rescuers.name} has a Rescue Mission against {captors.name} to play already.")
    battle = Battle.objects.create(
        campaign=campaign, cycle=cycle, origin=origin, attacker=rescuers, defender=captors, is_rescue=True
    )
    if origin == BattleOrigin.CHALLENGE:
        announce(EventKind.CHALLENGE_ISSUED, battle)
    return battle


@transaction.atomic
def challenge_pass(*, campaign: Campaign, gang: Gang, actor=None) -> Cycle:
    """A gang declines to issue a challenge this cycle, letting the next gang in order challenge."""
    _lock(campaign)
    cycle = _current_cycle(campaign)
    _member(campaign, gang)
    if gang.pk in engaged_gang_ids(cycle):
        raise ValidationError(f"{gang.name} already has a battle this cycle or has passed.")
    cycle.passed.add(gang)
    campaign_log_record(
        gangs=(gang,),
        event="pass",
        actor=actor,
        description=f"Cycle {cycle.number}: {gang.name} passes (issues no challenge)",
    )
    return cycle
