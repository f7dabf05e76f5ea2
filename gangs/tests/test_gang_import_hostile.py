"""Hostile gang files (issue 17): each is refused whole through the import page with a message, nothing written.

Kept apart from ``test_gang_exchange.py``, whose table covers the rules a fair file can break.
"""

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from gangs import exchange
from gangs.models import Fighter, Gang, LedgerEntry


@pytest.fixture
def exported(make_gang, make_fighter):
    gang = make_gang(name="Iron Rats")
    make_fighter(gang, "leader")
    make_fighter(gang, "ganger")
    return exchange.gang_export(gang)


def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def _edit(data, change):
    data = copy.deepcopy(data)
    change(data)
    return json.dumps(data)


HOSTILE = [
    ("deep nesting", lambda d: json.dumps(d)[:-1] + ', "notes_extra": ' + _deep(100_000) + "}", "nests deeper than"),
    (
        "deep nesting within the limit of json",
        lambda d: _edit(d, lambda x: x.update(extra=json.loads(_deep(500)))),
        "nests deeper than",
    ),
    (
        "NUL in the gang's name",
        lambda d: _edit(d, lambda x: x.update(name="Iron\x00Rats")),
        "name: must not contain a NUL",
    ),
    (
        "NUL in a fighter's notes",
        lambda d: _edit(d, lambda x: x["fighters"][0].update(notes="a\x00")),
        "fighters[0].notes: must not contain a NUL",
    ),
    ("NUL in a key", lambda d: _edit(d, lambda x: x.update({"k\x00": 1})), "must not contain a NUL"),
    ("a list for the gang's name", lambda d: _edit(d, lambda x: x.update(name=["Iron", "Rats"])), "name: must be text"),
    (
        "an object for a fighter type",
        lambda d: _edit(d, lambda x: x["fighters"][0].update(type={"slug": "x"})),
        "fighters[0].type: unknown fighter type",
    ),
    ("a list for the house", lambda d: _edit(d, lambda x: x.update(house=["a"])), "house: unknown"),
    (
        "a list for an equipment slug",
        lambda d: _edit(d, lambda x: x["fighters"][0]["equipment"].append({"equipment": ["x"], "price": 1})),
        "fighters[0].equipment[0].equipment: unknown equipment",
    ),
    (
        "a list for a skill",
        lambda d: _edit(d, lambda x: x["fighters"][0].update(skills=[["x"]])),
        "fighters[0].skills[0]: unknown skill",
    ),
    ("a Stash beyond the column", lambda d: _edit(d, lambda x: x.update(stash=2**31)), "stash: must be at most"),
    (
        "Reputation beyond the column",
        lambda d: _edit(d, lambda x: x.update(reputation=-(2**63))),
        "reputation: must be",
    ),
    (
        "experience beyond the column",
        lambda d: _edit(d, lambda x: x["fighters"][0].update(experience=10**30)),
        "fighters[0].experience: must be at most",
    ),
    (
        "a price beyond the column",
        lambda d: _edit(d, lambda x: x["stash_items"].append({"equipment": "lasgun", "price": 2**40})),
        "stash_items[0].price: must be at most",
    ),
    ("null for the fighters", lambda d: _edit(d, lambda x: x.update(fighters=None)), "fighters: must be a list"),
    (
        "null for the skills",
        lambda d: _edit(d, lambda x: x["fighters"][0].update(skills=None)),
        "fighters[0].skills: must be a list",
    ),
    (
        "null for the equipment",
        lambda d: _edit(d, lambda x: x["fighters"][0].update(equipment=None)),
        "fighters[0].equipment: must be a list",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("what", "make", "_message"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_file_is_refused_whole_with_a_message(client, make_user, exported, what, make, _message):
    user = make_user()
    client.force_login(user)
    counts = (Gang.objects.count(), Fighter.objects.count(), LedgerEntry.objects.count())
    upload = SimpleUploadedFile("gang.json", make(exported).encode(), content_type="application/json")
    response = client.post(reverse("gangs:gang-import"), {"file": upload})
    assert response.status_code == 200
    page = response.content.decode().replace("&#x27;", "'")
    # The messages are gangs.exchange's own (test_gang_exchange pins their wording); here: refused, with a reason.
    assert 'class="problems" role="alert"' in page, what
    assert (Gang.objects.count(), Fighter.objects.count(), LedgerEntry.objects.count()) == counts
