"""A query compiled once (core.queries.Precompiled) answers as its queryset does, for each call's values."""

import pytest
from django.db import connection
from django.db.models import Count, F, Q
from django.test.utils import CaptureQueriesContext

from core.queries import Precompiled
from gangs.models import Gang

pytestmark = pytest.mark.django_db


def _gangs(owner_id: int, least: int):
    """A user's gangs of at least ``least`` credits' worth of Stash, with their house, owner and a count: a
    queryset with a select_related() row, an annotation and two values."""
    return (
        Gang.objects.select_related("house", "owner")
        .annotate(ledger_entries=Count("ledger"), house_name=F("house__name"))
        .filter(Q(owner=owner_id) & Q(stash__gte=least))
        .order_by("pk")
    )


def test_objects_are_the_querysets_own_in_one_query(make_gang, make_user):
    alice, bob = make_user("alice"), make_user("bob")
    gangs = [make_gang(owner=alice), make_gang(owner=alice, edition="n18"), make_gang(owner=bob)]
    Gang.objects.filter(pk=gangs[1].pk).update(stash=50)
    query = Precompiled(_gangs)
    for owner, least in ((alice, 0), (alice, 10), (bob, 0), (make_user("carol"), 0)):
        expected = list(_gangs(owner.pk, least))
        with CaptureQueriesContext(connection) as queries:
            found = query.objects(owner.pk, least)
            shown = [(g.name, g.house.name, g.owner.username, g.created_at, g.house_name) for g in found]
        assert len(queries) == 1  # the house and the owner came with it
        assert [g.pk for g in found] == [g.pk for g in expected]
        assert shown == [(g.name, g.house.name, g.owner.username, g.created_at, g.house_name) for g in expected]
        assert [g.ledger_entries for g in found] == [g.ledger_entries for g in expected]
    found = query.objects(alice.pk, 0)[0]
    found.name = "Renamed"
    found.save()  # a model row like any other
    assert Gang.objects.get(pk=found.pk).name == "Renamed"


def test_rows_are_the_querysets_values(make_gang, make_user):
    alice = make_user("alice")
    make_gang(owner=alice)
    make_gang(owner=alice, edition="n18")
    query = Precompiled(lambda owner, least: _gangs(owner, least).values_list("pk", "edition", "created_at"))
    assert query.rows(alice.pk, 0) == list(_gangs(alice.pk, 0).values_list("pk", "edition", "created_at"))
    assert query.rows(alice.pk, 10**6) == []


def test_a_value_past_the_databases_numbers_matches_nothing_without_a_query(make_gang):
    gang = make_gang()
    query = Precompiled(lambda pk: Gang.objects.filter(pk=pk))
    assert [g.pk for g in query.objects(gang.pk)] == [gang.pk]
    with CaptureQueriesContext(connection) as queries:
        assert query.objects(10**30) == [] and query.objects(-(10**30)) == []
    assert len(queries) == 0


def test_a_value_the_query_does_not_use_is_refused(make_gang):
    with pytest.raises(ValueError, match="each value"):
        Precompiled(lambda pk, unused: Gang.objects.filter(pk=pk)).rows(1, 2)
    with pytest.raises(TypeError, match="rows, not objects"):
        Precompiled(lambda pk: Gang.objects.filter(pk=pk).values_list("pk")).objects(1)
