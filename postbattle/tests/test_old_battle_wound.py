"""Old Battle Wound is rolled where the rules say (issue 21): after each battle a fighter carrying one took part in,
a D6 in the post-battle sequence; on a 1 the fighter goes into Convalescence and misses the next battle."""

import pytest

from gangs.models import FighterStatus, Injury
from postbattle import services
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(make_confirmed_battle):
    # The attacker's Ganger 0 fought and ended the battle fine; Ganger 1 stayed home.
    return make_confirmed_battle(edition="n18", results=[("attacker", 0, "ok", None, {})])


def wound(fighter):
    Injury.objects.create(fighter=fighter, code="old-battle-wound", name="Old Battle Wound", roll=23)


def first_step(battle, dice):
    gang = battle.attacker
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    sequence = services.sequence_step_submit(sequence=sequence, dice=ScriptedDice(dice), entered=True, actor=gang.owner)
    return sequence, sequence.draft["steps"]["injury-tests"]


def test_a_wounded_fighter_who_fought_rolls_and_a_one_puts_him_in_convalescence(battle):
    fought, home = battle.attacker.fighters.order_by("pk")[:2]
    wound(fought)
    wound(home)  # did not take part: no roll
    sequence, record = first_step(battle, [1])
    assert [line["text"] for line in record["lines"] if line["rule"] == "Old Battle Wound"] == [
        "active → convalescence"
    ]
    [effect] = [e for e in record["effects"] if e["op"] == "status"]
    assert (effect["fighter"], effect["status"], [d["value"] for d in effect["dice"]]) == (
        str(fought.pk),
        "convalescence",
        [1],
    )
    for _ in range(5):
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice([3] * 8), choices={"recruit": False}, actor=sequence.gang.owner
        )
    services.sequence_apply(sequence=sequence, actor=sequence.gang.owner)
    fought.refresh_from_db()
    home.refresh_from_db()
    assert (fought.status, home.status) == (FighterStatus.CONVALESCENCE, FighterStatus.ACTIVE)


def test_any_other_roll_leaves_the_fighter_as_he_is(battle):
    wound(battle.attacker.fighters.order_by("pk").first())
    _, record = first_step(battle, [4])
    assert [line["text"] for line in record["lines"] if line["rule"] == "Old Battle Wound"] == ["no effect"]
    assert not [e for e in record["effects"] if e["op"] == "status"]
    assert record["inputs"]["dice"] == [4]  # the die is recorded, final like every other
