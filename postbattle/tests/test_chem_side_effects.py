"""A chem whose side effect is settled after the battle (addiction, Ghast's Willpower test, Icrotic Slime's 2D6)
is named in the post-battle sequence for the fighter who took it (issue 25): a line for the player, nothing applied."""

from types import SimpleNamespace

import pytest

from gangs.models import Purchase
from gangs.services.equipment import take_chem_doses
from gangs.testing import make_chem
from postbattle import services
from rulebook.dice import ScriptedDice
from rulebook.n18 import kit

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(make_confirmed_battle):
    # The attacker's Ganger 0 fought and ended the battle fine; Ganger 1 is in the roster too.
    return make_confirmed_battle(edition="n18", results=[("attacker", 0, "ok", None, {})])


def test_only_the_chems_settled_after_the_battle_are_named():
    assert kit.after_battle(["spur", "kalma", "stinger-mould", "no-such-chem"]) == []
    assert kit.after_battle(["slaught", "ghast", "slaught"]) == [
        kit.CHEMS["slaught"].side_effect,
        kit.CHEMS["ghast"].side_effect,
    ]


def test_a_fighter_who_took_a_chem_is_named_with_what_to_roll(battle):
    gang = battle.attacker
    fought, other = gang.fighters.order_by("pk")[:2]
    for fighter, item in ((fought, make_chem("slaught", "'Slaught")), (other, make_chem("kalma", "Kalma"))):
        Purchase.objects.create(gang=gang, fighter=fighter, equipment=item, price=30)
    # The battle's start took the doses (the assistant's session names its campaign battle).
    take_chem_doses(fighters=[fought, other], session=SimpleNamespace(pk=1, campaign_battle=battle), actor=gang.owner)
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    sequence = services.sequence_step_submit(sequence=sequence, dice=ScriptedDice([]), entered=True, actor=gang.owner)
    lines = [line for line in sequence.draft["steps"]["injury-tests"]["lines"] if line["rule"] == "Chems"]
    assert [(line["fighter"], line["text"]) for line in lines] == [
        (fought.name, f"took 'Slaught before the battle; roll at the table: {kit.CHEMS['slaught'].side_effect}")
    ]  # Kalma leaves nothing behind
    assert not [e for e in sequence.draft["steps"]["injury-tests"]["effects"] if e["fighter"] == str(fought.pk)]
