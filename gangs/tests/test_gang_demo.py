"""The demo gangs: both editions, varied rosters, built with the services, and a second run changes nothing."""

from io import StringIO

import pytest
from django.core.management import call_command

from gangs.demo import build_demo_gangs
from gangs.ledger import ledger_totals
from gangs.models import Gang
from tools.tests.test_demo import snapshot


@pytest.mark.django_db
def test_demo_gangs_cover_both_editions_and_are_idempotent(make_user):
    call_command("load_content", stdout=StringIO())
    user = make_user("demo")
    build_demo_gangs(user=user, stdout=StringIO())
    first = snapshot()
    build_demo_gangs(user=user, stdout=StringIO())
    assert snapshot() == first

    gangs = Gang.objects.all()
    assert {(g.owner.username, g.edition) for g in gangs} == {
        ("demo", "classic"),
        ("demo", "n18"),
        ("demo-rival", "classic"),
        ("demo-rival", "n18"),
    }
    for gang in gangs:
        assert gang.fighters.count() >= 4, gang
        assert gang.purchases.exists(), gang
        assert gang.fighters.filter(skills__isnull=False).exists(), gang
        assert gang.fighters.filter(injuries__isnull=False).exists(), gang
        totals = ledger_totals(gang)
        assert (gang.stash, gang.reputation) == (totals["stash"], totals["reputation"])
