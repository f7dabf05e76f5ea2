"""Locks touch only the rows that decide a change (PostgreSQL).

``SELECT ... FOR UPDATE`` with joins locks a row of every joined table unless told ``of=``: a post-battle sequence
locked with its gang's house made every player of that house wait, and a battle action locked both gangs' rows.
Each test holds one service's lock in a transaction on another connection and shows that an unrelated change
goes through at once (a lock wait of more than two seconds fails it).
"""

import threading
from contextlib import contextmanager

import pytest
from django.db import connection, connections, transaction

from battles.services.state import locked as battle_locked
from core.testing import race_marks
from gangs.services import gang_create
from gangs.services.common import lock_gang
from postbattle import services

pytestmark = race_marks()


@contextmanager
def held(take):
    """Run ``take()`` in a transaction on another connection and keep it open, its row locks held, until the block
    ends."""
    taken, release, errors = threading.Event(), threading.Event(), []

    def run():
        try:
            with transaction.atomic():
                take()
                taken.set()
                release.wait(30)
        except Exception as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
            taken.set()
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    taken.wait(30)
    try:
        assert not errors, errors
        yield
    finally:
        release.set()
        thread.join()


def at_once(call):
    """``call()`` in a transaction that gives up on any lock held longer than two seconds."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL lock_timeout = '2s'")
        return call()


@pytest.fixture
def two_sequences(make_confirmed_battle):
    """Draft sequences of two confirmed battles in two campaigns, every gang of the same house."""
    sequences = []
    for _ in range(2):
        battle = make_confirmed_battle(edition="n18")
        sequences.append(services.sequence_start(battle=battle, gang=battle.attacker, actor=battle.attacker.owner))
    return sequences


def test_a_held_sequence_keeps_no_player_of_its_house_waiting(two_sequences, make_user):
    held_sequence, other = two_sequences
    house = held_sequence.gang.house
    with held(lambda: services._locked(held_sequence)):
        at_once(lambda: gang_create(owner=make_user(), house=house, name="Same house, another player"))
        at_once(lambda: services._locked(other))  # another campaign's sequence of the same house


def test_a_battle_action_keeps_no_roster_waiting(make_battle):
    battle = make_battle(edition="n18", fighters=2)
    with held(lambda: battle_locked(battle)):
        at_once(lambda: lock_gang(battle.gang_a))
        at_once(lambda: lock_gang(battle.gang_b))
