"""Demo data: the post-battle sequences of the demo campaign's Cycle 1, then Cycle 2.

Runs after the campaigns demo step: it takes the demo user's first confirmed battle, walks the demo
gang through every step with seeded dice and the default choices, and applies it; then the other Cycle 1
sequences the same way, and begins Cycle 2 (a cycle waits for them). Idempotent: once the demo user has an
applied sequence, it does nothing.
"""

from __future__ import annotations

from django.db.models import Q

from campaigns.demo import begin_cycle_two
from campaigns.models import Battle, BattleStatus
from postbattle import engine, selectors, services
from postbattle.models import Sequence, SequenceState
from rulebook.dice import SeededDice


def build_demo_post_battle(*, user, stdout) -> None:
    if Sequence.objects.filter(gang__owner=user, state=SequenceState.APPLIED).exists():
        return
    mine = Q(attacker__owner=user) | Q(defender__owner=user)
    battle = (
        Battle.objects.filter(mine, status=BattleStatus.CONFIRMED).select_related("campaign").order_by("pk").first()
    )
    if battle is None:
        stdout.write("Skipped the post-battle demo: the demo user has no confirmed battle (run the campaigns step).")
        return
    gang = battle.attacker if battle.attacker.owner_id == user.pk else battle.defender
    _run(battle, gang, gang.owner)
    stdout.write(f"Demo post-battle sequence applied for {gang.name} after {battle.scenario_name}.")
    # The other Cycle 1 sequences too, but the last side's of a battle the demo user does not play: it is left to
    # run from the page, and Cycle 2 begins with the arbitrator's reason (a cycle waits for its sequences).
    campaign = battle.campaign
    cycle_one = Battle.objects.filter(campaign=campaign, cycle__number=1, status=BattleStatus.CONFIRMED)
    sides = [
        (fought, side)
        for fought in cycle_one.select_related("attacker__owner", "defender__owner", "campaign").order_by("pk")
        for side in (fought.attacker, fought.defender)
    ]
    left = next(
        (pair for pair in reversed(sides) if user.pk not in (pair[0].attacker.owner_id, pair[0].defender.owner_id)),
        None,
    )
    for fought, side in sides:
        applied = Sequence.objects.filter(battle=fought, gang=side, state=SequenceState.APPLIED).exists()
        if not applied and (fought, side) != left:
            _run(fought, side, side.owner)
    if campaign.cycle == 1:
        why = f"Demo: {left[1].name} runs its post-battle sequence after the first challenge" if left else ""
        begin_cycle_two(campaign, SeededDice(7), user=user, reason=why)
        stdout.write(f"Demo campaign {campaign.name}: Cycle 2 under way.")


def _run(battle: Battle, gang, actor) -> None:
    """Walk ``gang`` through every step with seeded dice and the default choices, and apply it."""
    sequence = services.sequence_start(battle=battle, gang=gang, actor=actor)
    for index, step in enumerate(engine.steps_for(sequence.edition)):
        if index < sequence.step:
            continue
        context, _ = selectors.battle_context(battle, gang)
        fields = step.fields(context, selectors.fighters_before(sequence, index))
        choices = {field.name: field.initial for field in fields}
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=SeededDice(80 + index), choices=choices, actor=actor
        )
    services.sequence_apply(sequence=sequence, actor=actor)
