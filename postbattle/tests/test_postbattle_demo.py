"""The demo step: one completed sequence for the demo user's confirmed battle, and nothing more on a rerun."""

from io import StringIO

import pytest

from postbattle.demo import build_demo_post_battle
from postbattle.models import Sequence, SequenceState
from tools.demo import demo_user

pytestmark = pytest.mark.django_db


def test_demo_applies_one_sequence_once(make_confirmed_battle):
    battle = make_confirmed_battle(edition="n18", results=[("attacker", 0, "out_of_action", 2, {})])
    user = demo_user()
    battle.attacker.owner = user
    battle.attacker.save()
    out = StringIO()
    build_demo_post_battle(user=user, stdout=out)
    assert "applied" in out.getvalue()
    build_demo_post_battle(user=user, stdout=out)
    assert Sequence.objects.filter(state=SequenceState.APPLIED).count() == 1
    assert Sequence.objects.count() == 1


def test_demo_without_a_confirmed_battle_says_so():
    out = StringIO()
    build_demo_post_battle(user=demo_user(), stdout=out)
    assert "Skipped" in out.getvalue()
