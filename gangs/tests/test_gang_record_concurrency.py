"""Exactly once under load (PostgreSQL, real threads): the same record form sent ten times at once rolls and
writes once; ten undos of one entry at once reverse it once."""

from functools import partial

import pytest
from django.db import connection

from gangs.ledger import ledger_totals
from gangs.models import Injury, LedgerEntry
from gangs.services import record, undo

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def test_ten_concurrent_sends_of_one_injury_form_roll_once(make_gang, make_fighter, at_once):
    gang = make_gang(edition="n18")
    krag = make_fighter(gang, "leader", name="Krag")
    send = partial(record.record_lasting_injury, fighter=krag, mode="roll", actor=gang.owner, token="one-form")
    assert at_once(10, send) == ["done"] + ["refused"] * 9
    assert LedgerEntry.objects.filter(data__record="one-form", data__server_rolled=True).exists()
    rolls = {
        tuple(d["value"] for d in e.data["rolled_dice"]) for e in LedgerEntry.objects.filter(data__record="one-form")
    }
    assert len(rolls) == 1  # one roll, shared by every entry it wrote


def test_ten_concurrent_undos_reverse_once(make_gang, make_fighter, at_once):
    gang = make_gang(edition="n18")
    krag = make_fighter(gang, "leader", name="Krag")
    done = record.record_lasting_injury(fighter=krag, mode="entered", dice=[4, 4], actor=gang.owner, token="t")
    assert Injury.objects.filter(fighter=krag).count() == 1
    assert at_once(10, partial(undo.entry_undo, entry=done.entries[0], actor=gang.owner)) == ["done"] + ["refused"] * 9
    assert LedgerEntry.objects.filter(reverses__isnull=False).count() == len(done.entries)
    assert not Injury.objects.filter(fighter=krag).exists()
    gang.refresh_from_db()
    assert ledger_totals(gang)["stash"] == gang.stash
