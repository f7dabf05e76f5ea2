"""Exactly once under load: 20 concurrent submissions of the same sequence apply it once (PostgreSQL).

Each thread has its own database connection (Django opens one per thread), so the requests really
race: the row lock and the unique Application row must let exactly one through.
"""

from functools import partial

from core.testing import race_marks
from gangs.ledger import ledger_totals
from gangs.models import Injury, LedgerEntry
from postbattle import engine, services
from postbattle.models import Application, Sequence
from rulebook.dice import ScriptedDice, SeededDice

pytestmark = race_marks()


def test_twenty_concurrent_submissions_apply_the_sequence_once(make_confirmed_battle, at_once):
    battle = make_confirmed_battle(
        edition="n18",
        # The attacker's Leader (index 2) takes a defending Ganger Out of Action: +1 XP from the record.
        results=[
            ("attacker", 0, "out_of_action", 2, {}),
            ("attacker", 2, "ok", None, {}),
            ("defender", 0, "out_of_action", 2, {}),
        ],
    )
    gang = battle.attacker
    leader, champion = list(gang.fighters.order_by("pk"))[2:]
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    choices = {f"action_{leader.pk}": "Trade", f"action_{champion.pk}": "Trade"}
    steps = [([], {}), ([4, 4], {}), ([3, 2, 1], {}), ([5], {"recruit": False}), ([], choices), ([], {})]
    for dice, picked in steps:
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice(dice), entered=True, choices=picked, actor=gang.owner
        )
    stash, xp = gang.stash, leader.experience
    assert (
        at_once(20, partial(services.sequence_apply, sequence=sequence, actor=gang.owner))
        == ["done"] + ["refused"] * 19
    )
    gang.refresh_from_db(), leader.refresh_from_db()
    assert gang.stash == stash + 30 + 50
    assert leader.experience == xp + 2 + 1
    assert Injury.objects.filter(fighter__gang=gang).count() == 1
    assert Application.objects.filter(sequence=sequence).count() == 1
    assert LedgerEntry.objects.filter(data__post_battle=sequence.pk).count() == 7
    assert ledger_totals(gang)["stash"] == gang.stash


def test_twenty_reruns_with_the_same_dice_make_one_draft(make_confirmed_battle, at_once):
    battle = make_confirmed_battle(edition="classic", results=[("attacker", 0, "out_of_action", 1, {})])
    gang = battle.attacker
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    while sequence.step < len(engine.steps_for("classic")):
        sequence = services.sequence_step_submit(sequence=sequence, dice=SeededDice(sequence.step), actor=gang.owner)
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    services.sequence_revert(sequence=sequence, actor=battle.campaign.created_by, reason="a die was misread")
    outcomes = at_once(20, partial(services.sequence_rerun, sequence=sequence, actor=gang.owner, same_dice=True))
    assert outcomes == ["done"] + ["refused"] * 19
    [draft] = Sequence.objects.filter(battle=battle, gang=gang, state="draft")
    steps = engine.steps_for("classic")
    assert draft.step == len(steps)  # every step replayed once, with the same dice: the same account
    for step in steps:
        lines = [line["text"] for line in draft.draft["steps"][step.slug]["lines"]]
        assert lines == [line["text"] for line in sequence.draft["steps"][step.slug]["lines"]]
