"""The post-battle sequence's services: each step with scripted dice (both editions), apply once, revert."""

import pytest
from django.core.exceptions import ValidationError

from gangs.ledger import ledger_totals
from gangs.models import FighterStatus, LedgerEntry
from gangs.stats import current_stats
from postbattle import services
from postbattle.models import SequenceState
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db

OOA, SI = "out_of_action", "seriously_injured"


def fighters(gang):
    return list(gang.fighters.order_by("pk"))


def run(sequence, *steps):
    """Submit each step: (dice, choices)."""
    for dice, choices in steps:
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice(dice), entered=True, choices=choices, actor=sequence.gang.owner
        )
    return sequence


def n18_battle(make_confirmed_battle):
    return make_confirmed_battle(
        edition="n18",
        scenario="the-trap",
        winner="attacker",
        results=[
            ("attacker", 0, OOA, 2, {}),
            ("attacker", 1, SI, 3, {}),
            ("attacker", 2, "ok", None, {"out_of_action": 1}),
        ],
    )


def n18_full_run(battle):
    gang = battle.attacker
    ganger0, ganger1, leader, champion = fighters(gang)
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    return run(
        sequence,
        ([1, 4, 4], {}),  # ganger1 succumbs (1), Lasting Injury 44 Eye Injury
        ([6, 1], {}),  # ganger0 Lasting Injury 61 Critical Injury
        ([3, 2, 1], {}),  # The Trap: D6x10 credits, Leader D3 XP, D3 Reputation; +1 XP standard
        ([5, 6, 2], {"recruit": True, "recruit_name": "Kid"}),  # Home Settlement 50 credits, recruit 62: a Juve
        ([3, 3, 1], {f"action_{leader.pk}": "Medical Escort", f"target_{leader.pk}": f"patient:{ganger0.pk}",
                     f"action_{champion.pk}": "Trade"}),  # Stabilised, then 31 Convalescence → Recovery
        ([], {}),
    )  # fmt: skip


def test_n18_sequence_every_step_then_apply(make_confirmed_battle):
    battle = n18_battle(make_confirmed_battle)
    gang = battle.attacker
    ganger0, ganger1, leader, champion = fighters(gang)
    stash, reputation, bs = gang.stash, gang.reputation, current_stats(ganger1)["BS"]
    sequence = n18_full_run(battle)
    assert sequence.step == 6 and sequence.state == SequenceState.DRAFT
    assert gang.fighters.count() == 4  # nothing applied yet
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    gang.refresh_from_db()
    assert gang.stash == stash + 30 + 50
    assert gang.reputation == reputation + 1
    ganger0.refresh_from_db(), ganger1.refresh_from_db(), leader.refresh_from_db()
    assert leader.experience == 2 + 1
    assert ganger1.status == FighterStatus.RECOVERY and current_stats(ganger1)["BS"] == bs + 1
    assert list(ganger1.injuries.values_list("code", flat=True)) == ["eye-injury"]
    assert ganger0.status == FighterStatus.RECOVERY
    assert gang.fighters.filter(name="Kid", fighter_type__category="juve").exists()
    assert ledger_totals(gang)["stash"] == gang.stash
    entries = LedgerEntry.objects.filter(data__post_battle=sequence.pk)
    assert entries.exists() and all(e.data["battle"] == battle.pk for e in entries)
    with pytest.raises(ValidationError):
        services.sequence_apply(sequence=sequence, actor=gang.owner)
