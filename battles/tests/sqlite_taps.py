"""Run by ``test_battles_exactly_once`` in a process of its own, on the SQLite file ``DATABASE_URL`` names: two
threads tap the same Roll at once, then two threads tap two Next phase buttons at once, through the battle assistant's views (each
thread its own connection, as two requests to the site have). Prints what happened as one line of JSON."""

import json
import os
import threading

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "necromunda_site.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402


def battle_of_two():
    from battles.services import battle_start
    from content.models import Equipment
    from gangs.services import fighter_hire, gang_create, purchase_buy
    from gangs.testing import build_classic_house
    from rulebook.dice import SeededDice

    house, gangs = build_classic_house(), []
    for n in range(2):
        owner = get_user_model().objects.create_user(f"player{n}", password=None)
        gang = gang_create(owner=owner, house=house, name=f"Gang {n}")
        leader = house.fighter_types.get(category="leader")
        fighter = fighter_hire(gang=gang, fighter_type=leader, name=f"Leader {n}", actor=owner, dice=SeededDice(1))
        pistol = Equipment.objects.get(edition="classic", slug="laspistol")
        purchase_buy(gang=gang, equipment=pistol, fighter=fighter, actor=owner, override_reason="test")
        gangs.append(gang)
    return battle_start(gang_a=gangs[0], gang_b=gangs[1], started_by=gangs[0].owner, dice=SeededDice(2))


def roll_data(battle, token: str) -> dict:
    from battles.selectors import action_plan
    from battles.views import _seen

    shooter, target = battle.fighters.get(side="attacker"), battle.fighters.get(side="defender")
    key = f"{shooter.profile['weapons'][0]['key']}:0"
    params = {
        "fighter": shooter,
        "target": target,
        "weapon": key,
        "distance": 6,
        "cover": "none",
        "modifiers": [],
        "modifier": 0,
        "in_combat_with": 0,
    }
    seen = _seen(action_plan(session=battle, kind="shoot", params=params))
    return {
        "shooter": f"{shooter.pk}:{key}",
        "target": target.pk,
        "distance": 6,
        "cover": "none",
        "op": "roll",
        "seen": seen,
        "once": token,
    }


def taps(battle, posts: list[tuple[str, dict]], kind: str) -> dict:
    """One thread per (url, data), all posting at the same moment; the actions of ``kind`` logged and any error."""
    before = battle.actions.filter(kind=kind).count()
    barrier, errors = threading.Barrier(len(posts)), []

    def tap(url, data):
        try:
            client = Client(raise_request_exception=True)
            client.force_login(battle.player_a)
            barrier.wait()
            response = client.post(url, data)
            if response.status_code != 302:
                errors.append(f"status {response.status_code}")
        except Exception as error:  # noqa: BLE001 - reported, so the test names it
            errors.append(f"{type(error).__name__}: {error}")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tap, args=post) for post in posts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"actions": battle.actions.filter(kind=kind).count() - before, "errors": errors}


def main() -> None:
    from battles.forms import new_token

    setup_test_environment()
    call_command("migrate", verbosity=0)
    battle = battle_of_two()
    roll = reverse("battles:battle-act", args=[battle.pk, "shoot"])
    same = roll_data(battle, new_token())
    advance = reverse("battles:battle-advance", args=[battle.pk])
    answer = {
        "same_token": taps(battle, [(roll, same), (roll, same)], "shoot"),
        "two_tokens": taps(battle, [(advance, {"once": new_token(), "leave_untaken": "1"}) for _ in range(2)], "phase"),
    }
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
