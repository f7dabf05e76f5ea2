"""Hired Guns leave when the battle they were hired for is over or called off (campaigns.models.BattleHire).

Here, above gangs, because which fighters go is what the campaign's link rows say; the roster changes are the
gangs app's services (its ledger, a status set). Hiring one is gangs.services.fighter_hire with ``hired_for``.
"""

from __future__ import annotations

from django.db import transaction

from campaigns.models import Battle
from gangs.ledger import ledger_record
from gangs.models import ON_ROSTER, Fighter, FighterStatus
from gangs.models import LedgerKind as Kind
from gangs.services import fighter_status_set
from rulebook import gang_rules


@transaction.atomic
def hired_guns_leave(*, battle: Battle, actor, cancelled: bool = False) -> list[Fighter]:
    """After a battle's report is confirmed its Hired Guns leave, their kit with them: they were hired
    for that one battle, gain no Experience and suffer no Lasting Injuries (2023 Core, Hired Guns).

    ``cancelled``: the battle is called off before it is fought, so the gang gets back what it paid
    for them and their kit (our ruling; the rules do not say), and the entries name no battle."""
    leaving = list(
        Fighter.objects.select_related("fighter_type", "gang").filter(battle_hire__battle=battle, status__in=ON_ROSTER)
    )
    for fighter in leaving:
        paid = fighter.cost + sum(fighter.purchases.values_list("price", flat=True))
        fighter.purchases.all().delete()
        if cancelled:
            ledger_record(
                gang=fighter.gang,
                fighter=fighter,
                kind=Kind.CREDITS,
                credits=paid,
                actor=actor,
                description=f"{fighter.name}'s fee and kit returned: {battle} was cancelled",
                reason="Hired Gun hired for a battle that was not fought",
                data={"hired_gun_refund": paid},
            )
        fighter_status_set(
            fighter=fighter,
            status=FighterStatus.RETIRED,
            actor=actor,
            reason=f"Hired Gun: {'the battle was cancelled' if cancelled else f'the contract for {battle} is over'} "
            f"({gang_rules.GANG_ADDITIONS_SOURCE})",
            battle=None if cancelled else battle,
            data={"hired_gun_left": True},
        )
    return leaving
