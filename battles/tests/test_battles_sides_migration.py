"""The migrations that gave the battle assistant the campaign's side codes (battles 0008 to 0010): a battle
recorded with the old ``a``/``b`` reads the same with ``attacker``/``defender``, in its columns and in its recorded
JSON, and migrating back gives the old codes again (on PostgreSQL too: no table altered after its rows were)."""

import pytest
from django.apps import apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from battles.models import BattleSession

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("battles", "0007_merge_0006_action_token_0006_battle_session_in_play")


def _migrate(target=None):
    """Migrate the battles app to ``target`` (by default its latest migration); return its models as they are there."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = [target] if target else executor.loader.graph.leaf_nodes("battles")
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _recorded(models, battle) -> dict:
    """The battle as ``models`` read it: through the related names, which every migration state shares."""
    session = models.get_model("battles", "BattleSession").objects.get(pk=battle.pk)
    return {
        **{name: getattr(session, name) for name in ("turn_side", "crews", "facts", "report")},
        "fighters": sorted(session.fighters.values_list("pk", "side")),
        "actions": sorted(session.actions.values_list("pk", "side", "turn_side")),
        "states": sorted(session.actions.values_list("pk", "state_before")),
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
    gang_flee(session=battle, side="defender", actor=battle.player_b)
    battle_end(session=battle, actor=battle.player_a, winner="attacker")
    now = _recorded(apps, battle)
    try:
        old = _recorded(_migrate(BEFORE), battle)
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
        _migrate()
    assert _recorded(apps, battle) == now
