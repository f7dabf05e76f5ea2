"""Every die final: a step's dice are recorded when rolled (by the server or entered), going back re-uses them,
and only an arbitrator sets them aside, with a reason the sequence's history keeps."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from postbattle import services
from postbattle.selectors import kept_dice
from rulebook.dice import ScriptedDice, SeededDice

pytestmark = pytest.mark.django_db

OOA = "out_of_action"


@pytest.fixture
def battle(make_confirmed_battle):
    # The attacker's Ganger 0 goes Out of Action: the Lasting Injuries step rolls a D66 (and more) for him.
    return make_confirmed_battle(edition="n18", results=[("attacker", 0, OOA, 2, {})])


def start(battle):
    return services.sequence_start(battle=battle, gang=battle.attacker, actor=battle.attacker.owner)


def submit(sequence, dice, entered=False, choices=None):
    return services.sequence_step_submit(
        sequence=sequence, dice=dice, entered=entered, choices=choices or {}, actor=sequence.gang.owner
    )


def lasting(sequence):
    return sequence.draft["steps"]["lasting-injuries"]


def test_going_back_re_uses_the_server_dice(battle):
    sequence = submit(submit(start(battle), SeededDice(1)), SeededDice(1))
    first = lasting(sequence)
    for seed in range(2, 12):  # fishing for another Lasting Injury: every seed gives the same result
        sequence = services.sequence_step_back(sequence=sequence, to=1, actor=battle.attacker.owner)
        sequence = submit(sequence, SeededDice(seed))
        assert (
            lasting(sequence)["lines"] == first["lines"]
            and lasting(sequence)["inputs"]["dice"] == first["inputs"]["dice"]
        )
    assert [e["event"] for e in sequence.draft["history"]] == ["back"] * 10


def test_entered_dice_are_recorded_the_same_way(battle):
    sequence = submit(submit(start(battle), ScriptedDice([]), entered=True), ScriptedDice([4, 4]), entered=True)
    assert "Eye Injury" in str(lasting(sequence)["lines"])
    sequence = services.sequence_step_back(sequence=sequence, to=1)
    with pytest.raises(ValidationError, match="2 dice left over: this step needed 0 new dice"):
        submit(sequence, ScriptedDice([6, 6]), entered=True)  # other dice for the same purpose: refused
    sequence = submit(sequence, ScriptedDice([]), entered=True)  # nothing new: the recorded 4 4 again
    assert "Eye Injury" in str(lasting(sequence)["lines"]) and lasting(sequence)["inputs"]["replayed"] == 2


def test_a_different_choice_cannot_draw_a_new_die_for_the_same_purpose(make_confirmed_battle):
    """Medical Escort: the D6 rolled for the escort stays the escort's die, whoever goes to the Doc."""
    battle = make_confirmed_battle(
        edition="n18", results=[("attacker", 0, OOA, None, {}), ("attacker", 1, OOA, None, {})]
    )
    gang = battle.attacker
    ganger0, ganger1, leader, champion = gang.fighters.order_by("pk")
    # Both Gangers: 61 Critical Injury; rewards and income from the server.
    sequence = submit(start(battle), ScriptedDice([]), entered=True)
    sequence = submit(sequence, ScriptedDice([6, 1, 6, 1]), entered=True)
    sequence = submit(submit(sequence, SeededDice(1)), SeededDice(1), choices={"recruit": False})
    escort = {
        f"action_{leader.pk}": "Medical Escort",
        f"target_{leader.pk}": f"patient:{ganger0.pk}",
        f"action_{champion.pk}": "Trade",
    }
    # Escort 3 (Stabilised: Lasting Injury 44, Eye Injury); ganger1, untreated, dies (no dice).
    sequence = submit(sequence, ScriptedDice([3, 4, 4]), entered=True, choices=escort)
    dice = [d["value"] for d in kept_dice(sequence, "actions")]
    sequence = services.sequence_step_back(sequence=sequence, to=4)
    other = {**escort, f"target_{leader.pk}": f"patient:{ganger1.pk}"}
    sequence = submit(sequence, SeededDice(99), choices=other)
    faces = sequence.draft["steps"]["actions"]["inputs"]["dice"]
    assert faces == dice == [3, 4, 4]  # the same faces, for the same purposes, now for the other Ganger


def test_only_an_arbitrator_sets_dice_aside_with_a_reason_and_history_keeps_them(client, battle):
    sequence = submit(submit(start(battle), ScriptedDice([]), entered=True), ScriptedDice([4, 4]), entered=True)
    arbitrator, owner = battle.campaign.created_by, battle.attacker.owner
    target = reverse("postbattle:sequence-set-aside", args=[battle.pk, battle.attacker.pk, 1])
    client.force_login(owner)
    assert client.post(target, {"reason": "I want better dice"}).status_code == 403
    with pytest.raises(ValidationError, match="Give the reason"):
        services.sequence_dice_set_aside(sequence=sequence, step=1, reason="  ", actor=arbitrator)
    client.force_login(arbitrator)
    assert client.post(target, {"reason": "4 4 misread: the table rolled 3 4"}).status_code == 302
    sequence.refresh_from_db()
    assert sequence.step == 1 and kept_dice(sequence, "lasting-injuries") == []
    event = sequence.draft["history"][-1]
    assert (event["event"], event["by"], event["reason"]) == (
        "set aside",
        arbitrator.username,
        "4 4 misread: the table rolled 3 4",
    )
    assert [d["value"] for d in event["dice"]] == [4, 4]
    sequence = submit(sequence, ScriptedDice([3, 4]), entered=True)
    assert lasting(sequence)["inputs"]["dice"] == [3, 4] and "Eye Injury" not in str(lasting(sequence)["lines"])
    page = client.get(reverse("postbattle:sequence-detail", args=[battle.pk, battle.attacker.pk])).content.decode()
    assert "set aside the dice of Lasting Injuries" in page and "4 4 misread" in page


def test_the_page_shows_the_dice_kept_for_a_step_gone_back_to(client, battle):
    sequence = submit(submit(start(battle), ScriptedDice([]), entered=True), ScriptedDice([4, 4]), entered=True)
    services.sequence_step_back(sequence=sequence, to=1)
    client.force_login(battle.attacker.owner)
    page = client.get(reverse("postbattle:sequence-detail", args=[battle.pk, battle.attacker.pk])).content.decode()
    assert 'data-testid="kept-dice"' in page and "Set these dice aside" not in page
    client.force_login(battle.campaign.created_by)
    page = client.get(reverse("postbattle:sequence-detail", args=[battle.pk, battle.attacker.pk])).content.decode()
    assert "Set these dice aside" in page


def test_a_revert_keeps_the_dice_for_the_next_run(battle):
    sequence = start(battle)
    for _ in range(6):
        sequence = submit(sequence, SeededDice(3), choices={})
    first = lasting(sequence)["inputs"]["dice"]
    services.sequence_apply(sequence=sequence, actor=battle.attacker.owner)
    services.sequence_revert(sequence=sequence, actor=battle.campaign.created_by, reason="a die was misread")
    fresh = services.sequence_rerun(sequence=sequence, actor=battle.attacker.owner)  # "from the start"
    fresh = submit(submit(fresh, SeededDice(50)), SeededDice(50))
    assert lasting(fresh)["inputs"]["dice"] == first
