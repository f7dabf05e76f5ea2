"""The migrations that gave the battle assistant the campaign's side codes (battles 0008 to 0010): a battle
recorded with the old ``a``/``b`` reads the same with ``attacker``/``defender``, in its columns and in its recorded
JSON, and migrating back gives the old codes again (on PostgreSQL too: no table altered after its rows were)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from battles.models import BattleAction, BattleFighter, BattleSession

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("battles", "0007_merge_0006_action_token_0006_battle_session_in_play")
AFTER = ("battles", "0010_fighter_side_checked_as_attacker_or_defender")


def _migrate(target) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate([target])


def _recorded(battle) -> dict:
    session = BattleSession.objects.values("turn_side", "crews", "facts", "report").get(pk=battle.pk)
    return {
        **session,
        "fighters": sorted(BattleFighter.objects.filter(battle=battle).values_list("pk", "side")),
        "actions": sorted(BattleAction.objects.filter(battle=battle).values_list("pk", "side", "turn_side")),
        "states": sorted(BattleAction.objects.filter(battle=battle).values_list("pk", "state_before")),
    }


def test_the_old_codes_come_back_and_go_forward_again(make_battle):
    from battles.services import battle_end, gang_flee

    battle = make_battle("n18", fighters=2)
    attacker = battle.fighters.filter(side="attacker").first()
    # What the scenarios record by side (battles.rules.n18.scenarios), as a played battle would hold it.
    BattleSession.objects.filter(pk=battle.pk).update(
        facts={
            "caskets": [{"side": "attacker", "fighter": attacker.pk, "result": "jackpot", "credits": 60}],
            "relics_defiled": {"defender": {"fighter": attacker.pk, "name": attacker.name}},
            "caches_destroyed": [{"side": "attacker", "fighter": attacker.pk, "name": attacker.name}],
        }
    )
    battle.refresh_from_db()
    gang_flee(battle=battle, side="defender", actor=battle.player_b)
    battle_end(battle=battle, actor=battle.player_a, winner="attacker")
    now = _recorded(battle)
    try:
        _migrate(BEFORE)
        old = _recorded(battle)
        assert old["turn_side"] == "a" and set(old["crews"]) == {"a", "b"}
        assert old["facts"]["fled"] == ["b"] and list(old["facts"]["relics_defiled"]) == ["b"]
        assert old["facts"]["caskets"][0]["side"] == "a" and old["facts"]["caches_destroyed"][0]["side"] == "a"
        assert old["report"]["winner"] == "a" and set(old["report"]["sides"]) == {"a", "b"}
        assert old["report"]["facts"] == old["facts"]
        assert {side for _, side in old["fighters"]} == {"a", "b"}
        assert [side for _, side, _ in old["actions"]] == ["b", ""]  # the flight, then the end (no side)
        assert all(state["battle"]["turn_side"] == "a" for _, state in old["states"])
        assert old["states"][0][1]["battle"]["facts"]["caskets"][0]["side"] == "a"
        assert {row["side"] for row in old["report"]["fighters"]} == {"a", "b"}
    finally:
        _migrate(AFTER)
    assert _recorded(battle) == now
