"""Demo data: one completed post-battle sequence in the demo campaign.

Runs after the campaigns demo step: it takes the demo user's first confirmed battle, walks the demo
gang through every step with seeded dice and the default choices, and applies it. Idempotent: once
the demo user has an applied sequence, it does nothing.
"""

from __future__ import annotations

from django.db.models import Q

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
    sequence = services.sequence_start(battle=battle, gang=gang, actor=user)
    for index, step in enumerate(engine.steps_for(sequence.edition)):
        if index < sequence.step:
            continue
        context, _ = selectors.battle_context(battle, gang)
        fields = step.fields(context, services.fighters_before(sequence, index))
        choices = {field.name: field.initial for field in fields}
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=SeededDice(80 + index), choices=choices, actor=user
        )
    services.sequence_apply(sequence=sequence, actor=user)
    stdout.write(f"Demo post-battle sequence applied for {gang.name} after {battle.scenario_name}.")
