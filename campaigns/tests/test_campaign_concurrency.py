"""Confirming a report races nothing: ten concurrent confirmations confirm once and move the challenged
territory once (PostgreSQL row locks; each thread has its own connection)."""

from functools import partial

import pytest
from django.db import connection

from campaigns import services
from campaigns.models import BattleStatus, CampaignTerritory
from gangs.models import LedgerEntry, LedgerKind
from rulebook.dice import ScriptedDice

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def test_ten_concurrent_confirmations_confirm_once(make_campaign, make_fighter, make_territory, at_once):
    campaign = make_campaign(gangs=2, started=True)
    services.cycle_advance(campaign=campaign)
    low, high = [m.gang for m in campaign.memberships.select_related("gang")]
    make_fighter(high, "ganger")
    held = services.territory_add(campaign=campaign, territory=make_territory())
    services.territory_assign(held=held, holder=high, actor=campaign.created_by)
    battle = services.challenge_issue(campaign=campaign, challenger=low, target=high, stakes=held)
    battle = services.battle_scenario_roll(battle=battle, dice=ScriptedDice([1, 1]))
    battle = services.battle_report_submit(battle=battle, actor=low.owner, winner=low)
    confirm = partial(services.battle_report_confirm, battle=battle, actor=high.owner, is_arbitrator=False)
    assert at_once(10, confirm) == ["done"] + ["refused"] * 9
    battle.refresh_from_db()
    assert battle.status == BattleStatus.CONFIRMED
    assert CampaignTerritory.objects.get(pk=held.pk).holder == low
    assert LedgerEntry.objects.filter(gang=low, kind=LedgerKind.TERRITORY, description__startswith="Took").count() == 1
    assert campaign.snapshots.filter(reason__contains=battle.scenario_name).count() == 2
