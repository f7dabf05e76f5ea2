"""The battle assistant's sides take the campaign's codes: side ``a`` becomes ``attacker`` and ``b`` becomes
``defender`` (one ``Side`` for every app, ``campaigns.models.Side``), in the columns and in the recorded JSON that
names a side: the crews, the scenario facts, the report, and each action's state before it (what undo puts back).

The session's first gang is the attacker side whatever scenario role a friendly's players gave it (``role_a`` is
left as it is). Backwards maps the codes back, before 0008 narrows the columns to one character again.
"""

from django.db import migrations

FORWARD = {"a": "attacker", "b": "defender"}
BACKWARD = {code: old for old, code in FORWARD.items()}

# The facts lists whose records name the side of the fighter they are about (battles.rules.n18.scenarios).
RECORDS = ("caskets", "caches_found", "caches_destroyed", "caches_recovered")


def _facts(facts, codes: dict) -> dict:
    if not isinstance(facts, dict):
        return facts
    out = dict(facts)
    if isinstance(out.get("fled"), list):
        out["fled"] = [codes.get(side, side) for side in out["fled"]]
    if isinstance(out.get("relics_defiled"), dict):
        out["relics_defiled"] = {codes.get(side, side): record for side, record in out["relics_defiled"].items()}
    for name in RECORDS:
        if isinstance(out.get(name), list):
            out[name] = [_record(record, codes) for record in out[name]]
    return out


def _record(record, codes: dict):
    if isinstance(record, dict) and "side" in record:
        return {**record, "side": codes.get(record["side"], record["side"])}
    return record


def _keys(value, codes: dict):
    return {codes.get(key, key): item for key, item in value.items()} if isinstance(value, dict) else value


def _report(report, codes: dict):
    if not isinstance(report, dict):
        return report
    out = dict(report)
    if "sides" in out:
        out["sides"] = _keys(out["sides"], codes)
    if "facts" in out:
        out["facts"] = _facts(out["facts"], codes)
    if "winner" in out:
        out["winner"] = codes.get(out["winner"], out["winner"])
    if isinstance(out.get("fighters"), list):
        out["fighters"] = [_record(row, codes) for row in out["fighters"]]
    return out


def _state(state, codes: dict):
    battle = state.get("battle") if isinstance(state, dict) else None
    if not isinstance(battle, dict):
        return state
    battle = dict(battle)
    if "facts" in battle:
        battle["facts"] = _facts(battle["facts"], codes)
    if "turn_side" in battle:
        battle["turn_side"] = codes.get(battle["turn_side"], battle["turn_side"])
    return {**state, "battle": battle}


def _rename(apps, codes: dict) -> None:
    BattleSession = apps.get_model("battles", "BattleSession")
    BattleFighter = apps.get_model("battles", "BattleFighter")
    BattleAction = apps.get_model("battles", "BattleAction")
    for old, new in codes.items():
        BattleFighter.objects.filter(side=old).update(side=new)
        BattleAction.objects.filter(side=old).update(side=new)
        BattleAction.objects.filter(turn_side=old).update(turn_side=new)
    sessions = BattleSession.objects.only("pk", "turn_side", "crews", "facts", "report", "version")
    for session in sessions.iterator(chunk_size=500):
        # A new version: the battle page's cached parts (keyed on it) hold the old codes in their forms.
        session.version += 1
        session.turn_side = codes.get(session.turn_side, session.turn_side)
        session.crews = _keys(session.crews, codes)
        session.facts = _facts(session.facts, codes)
        session.report = _report(session.report, codes)
        session.save(update_fields=["turn_side", "crews", "facts", "report", "version"])
    for action in BattleAction.objects.only("pk", "state_before").iterator(chunk_size=500):
        action.state_before = _state(action.state_before, codes)
        action.save(update_fields=["state_before"])


def forward(apps, schema_editor):
    _rename(apps, FORWARD)


def backward(apps, schema_editor):
    _rename(apps, BACKWARD)


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0008_sides_widened_for_attacker_and_defender"),
    ]

    operations = [
        migrations.RunPython(forward, backward),
    ]
