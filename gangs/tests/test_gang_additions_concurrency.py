"""Recruiting against the Reputation cap races nothing: the gang row is locked before the count, so of
eight hires at once within a cap of one exactly one gets through (PostgreSQL threads, own connections)."""

from functools import partial

import pytest
from django.db import connection

from gangs.ledger import ledger_record
from gangs.models import FighterStatus, LedgerKind
from gangs.services import fighter_hire
from gangs.testing import build_gang_additions

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def test_eight_hires_at_once_within_a_cap_of_one_hire_once(make_gang, at_once):
    additions = build_gang_additions()
    gang = make_gang(edition="n18")
    ledger_record(gang=gang, kind=LedgerKind.REPUTATION, reputation=4, description="Reputation 4: one allowed")
    hire = partial(fighter_hire, gang=gang, fighter_type=additions["rogue-doc"], name="Doc", actor=gang.owner)
    assert at_once(8, hire) == ["done"] + ["refused"] * 7
    assert gang.fighters.filter(status=FighterStatus.ACTIVE).count() == 1
    gang.refresh_from_db()
    assert gang.stash == 1000 - 50 == sum(gang.ledger.values_list("credits", flat=True))
