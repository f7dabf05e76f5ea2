"""Export then import gives an identical roster; a bad file is refused whole, naming what is wrong."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse

from content.models import Equipment, Skill
from gangs import exchange, services
from gangs.ledger import ledger_totals
from gangs.models import FighterStatus, Gang
from rulebook.dice import ScriptedDice


@pytest.fixture
def full_gang(make_gang, make_fighter):
    """A classic gang with equipment, a Stash item, an advance, an injury, a skill, a retired fighter."""
    gang = make_gang(name="Iron Rats")
    leader, ganger, juve = make_fighter(gang, "leader"), make_fighter(gang, "ganger"), make_fighter(gang, "juve")
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    services.purchase_buy(gang=gang, equipment=lasgun, fighter=ganger, actor=gang.owner)
    services.purchase_buy(
        gang=gang,
        equipment=Equipment.objects.get(slug="flak-armour", edition="classic"),
        actor=gang.owner,
        fighter=leader,
    )
    services.purchase_buy(gang=gang, equipment=lasgun, actor=gang.owner)  # into the Stash
    services.experience_award(fighter=ganger, amount=40, actor=gang.owner, reason="Battles")
    services.fighter_advance_classic(
        fighter=ganger, actor=gang.owner, dice=ScriptedDice([3, 3, 5]), skill_table="Combat"
    )
    services.fighter_advance_classic(
        fighter=ganger, actor=gang.owner, dice=ScriptedDice([2, 1, 4]), skill_table="Combat"
    )
    services.injury_record(
        fighter=leader,
        code="leg-wound",
        name="Leg Wound",
        roll=23,
        stat_deltas={"M": -1},
        actor=gang.owner,
        reason="Serious Injury",
        status=FighterStatus.RECOVERY,
    )
    services.gang_override(gang=gang, actor=gang.owner, reason="Won a scenario", reputation=3)
    services.fighter_retire(fighter=juve, actor=gang.owner)
    leader.notes = "Hates Goliaths"
    leader.kills = 4
    leader.save()
    return gang


@pytest.mark.django_db
def test_export_then_import_gives_an_identical_roster(full_gang, make_user):
    exported = exchange.gang_export(full_gang)
    assert exported["format"] == "underhive-ledger/gang" and exported["version"] == 1
    other = make_user()
    imported = exchange.gang_import(owner=other, data=json.loads(json.dumps(exported)))
    assert imported.pk != full_gang.pk and imported.owner == other
    assert exchange.gang_export(imported) == exported
    totals = ledger_totals(imported)
    assert (imported.stash, imported.reputation) == (totals["stash"], totals["reputation"])
    assert {f.pk: f.experience for f in imported.fighters.all() if f.experience} == totals["experience"]


@pytest.mark.django_db
def test_the_file_lists_what_the_roster_holds(full_gang):
    exported = exchange.gang_export(full_gang)
    leader, ganger, juve = exported["fighters"]
    assert leader["injuries"][0]["stat_changes"] == [{"stat": "M", "delta": -1}]
    assert [a["description"] for a in ganger["advancements"]] == ["+1 BS", "Feint (Combat)"]
    assert ganger["advancements"][1]["skills"] == [Skill.objects.get(name="Feint").slug]
    assert exported["stash_items"] == [{"equipment": "lasgun", "price": 25}]
    assert juve["status"] == "retired"


def broken(exported, change):
    data = copy.deepcopy(exported)
    change(data)
    return data


BAD_FILES = [
    (lambda d: d.update(format="something-else"), "format: must be 'underhive-ledger/gang'"),
    (lambda d: d.update(version=2), "version: version 2 is not supported"),
    (lambda d: d.update(house="squats"), "house: unknown classic house 'squats'"),
    (lambda d: d.update(stash=-5), "stash: must be 0 or more"),
    (lambda d: d.update(stash=10**30), "stash: must be at most 1,000,000"),
    (lambda d: d.update(name=""), "name: must not be empty"),
    (
        lambda d: d["fighters"][1].update(type="ogryn"),
        "{f1}: type: 'ogryn' is not a fighter type of the Orlock house list",
    ),
    (
        lambda d: d["fighters"][0]["equipment"].append({"equipment": "lascannon", "price": 400}),
        "{f0}: equipment[1].equipment: unknown equipment 'lascannon'",
    ),
    (
        lambda d: d["fighters"][0]["base_stats"].update(WS="four"),
        "{f0}: base_stats.WS: must be a whole number from 0 to 20",
    ),
    (lambda d: d["fighters"][2].update(status="sulking"), "{f2}: status: must be one of"),
    (lambda d: d["fighters"][1].update(experience=True), "{f1}: experience: must be a whole number"),
    (
        lambda d: d["fighters"][1]["advancements"][0]["stat_changes"][0].update(delta=0),
        "{f1}: advancements[0].stat_changes[0].delta: must not be 0",
    ),
    (
        lambda d: d["fighters"][1]["advancements"][1].update(skills=["flying"]),
        "{f1}: advancements[1].skills[0]: unknown skill 'flying'",
    ),
    (
        lambda d: d["fighters"][1]["advancements"][0].update(dice=[[[1]]]),
        "{f1}: advancements[0].dice[0]: must be an object",
    ),
    (
        lambda d: d["fighters"][0]["injuries"][0].update(effects={"M": [1, 2]}),
        "{f0}: injuries[0].effects: must be an object",
    ),
    (lambda d: d["fighters"].append("not a fighter"), "fighters[3]: must be an object"),
    (lambda d: d.pop("fighters"), "fighters: is missing"),
    (lambda d: d.update(name="Iron\x00Rats"), "This is not a gang export: a text holds a NUL character"),
    (lambda d: d.update(stash=1.5), "This is not a gang export: 1.5: numbers in a gang export are whole numbers"),
    (
        lambda d: d.update(notes=[[[[[[[[[[["deep"]]]]]]]]]]]),
        "This is not a gang export: values are nested more than 10 deep",
    ),
    # The rules: a gang that could not have been built here.
    (
        lambda d: d["fighters"][1]["base_stats"].update(BS=1),
        "{f1}: BS 2 does not follow from Ganger's 3 and the recorded advancements and injuries",
    ),
    (
        lambda d: d["fighters"][1]["advancements"][0]["stat_changes"][0].update(delta=3),
        "{f1}: the advancement '+1 BS' changes BS by +3; an advancement makes a characteristic one step better (+1)",
    ),
    (
        lambda d: d["fighters"][1].update(stat_changes=[{"stat": "S", "delta": 2}]),
        "{f1}: S +2 comes from neither an advancement nor an injury",
    ),
    (
        lambda d: d["fighters"][0]["injuries"][0]["stat_changes"][0].update(delta=-3),
        "{f0}: Leg Wound gives M -1 to the stat line by the Serious Injuries table, not M -3",
    ),
    (
        lambda d: d["fighters"][0]["injuries"][0].update(code="lost-a-leg"),
        "{f0}: Leg Wound ('lost-a-leg') is not a result of the Serious Injuries table",
    ),
    (
        lambda d: d["fighters"][0]["injuries"][0].update(skills=[d["fighters"][1]["advancements"][1]["skills"][0]]),
        "{f0}: Leg Wound does not give Feint by the Serious Injuries table",
    ),
    (lambda d: d["fighters"][1].update(cost=5), "{f1}: hired for 5 credits, but a Ganger costs 50"),
    (
        lambda d: d["fighters"][1]["equipment"][0].update(price=1),
        "{f1}: Lasgun costs 25 credits from the Ganger's list, not 1",
    ),
    (
        lambda d: d["fighters"][2]["equipment"].append({"equipment": "lasgun", "price": 25}),
        "{f2}: Lasgun is not on the Juve's list and the Trading Post does not sell it",
    ),
    (
        lambda d: d["stash_items"].append({"equipment": "mesh-armour", "price": 25}),
        "The Stash: Mesh armour is on no Orlock list and the Trading Post does not sell it",
    ),
    (
        lambda d: d["fighters"].append(dict(d["fighters"][0], name="Second Leader")),
        "Orlock: at most one Leader per gang (the gang would have 2)",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "message"), BAD_FILES)
def test_a_bad_file_is_refused_naming_the_problem_and_creates_nothing(full_gang, make_user, change, message):
    exported = exchange.gang_export(full_gang)
    names = {f"f{i}": f["name"] for i, f in enumerate(exported["fighters"])}
    data = broken(exported, change)
    before = Gang.objects.count()
    with pytest.raises(ValidationError) as error:
        exchange.gang_import(owner=make_user(), data=data)
    assert any(m.startswith(message.format(**names)) for m in error.value.messages), error.value.messages
    assert Gang.objects.count() == before


@pytest.mark.django_db
def test_a_typo_in_one_fighter_does_not_hide_a_forged_stat_line_in_another(full_gang, make_user):
    data = exchange.gang_export(full_gang)
    data["fighters"][0]["kills"] = "four"
    data["fighters"][1]["base_stats"]["BS"] = 1
    with pytest.raises(ValidationError) as error:
        exchange.gang_import(owner=make_user(), data=data)
    first, second = data["fighters"][0]["name"], data["fighters"][1]["name"]
    assert error.value.messages == [
        f"{first}: kills: must be a whole number",
        f"{second}: BS 2 does not follow from Ganger's 3 and the recorded advancements and injuries",
    ]


@pytest.mark.django_db
def test_every_problem_is_listed_at_once(full_gang, make_user):
    data = broken(exchange.gang_export(full_gang), lambda d: d.update(stash="lots", reputation=None, name=7))
    with pytest.raises(ValidationError) as error:
        exchange.gang_import(owner=make_user(), data=data)
    assert [m.split(":")[0] for m in error.value.messages] == ["name", "stash", "reputation"]


@pytest.mark.django_db
def test_export_and_import_pages(client, full_gang, make_user):
    viewer = make_user()
    client.force_login(viewer)
    response = client.get(reverse("gangs:gang-export", args=[full_gang.pk]))
    assert response["Content-Disposition"] == f'attachment; filename="gang-{full_gang.pk}.json"'
    upload = SimpleUploadedFile("gang.json", response.content, content_type="application/json")
    response = client.post(reverse("gangs:gang-import"), {"file": upload})
    imported = viewer.gangs.get()
    assert response["Location"] == imported.get_absolute_url()
    bad = SimpleUploadedFile("gang.json", b"{not json", content_type="application/json")
    page = client.post(reverse("gangs:gang-import"), {"file": bad}).content.decode()
    assert "The file was refused" in page and "This is not a gang export from Underhive Ledger" in page
    assert viewer.gangs.count() == 1


# --- the file itself and the limits -------------------------------------------------------------

NOT_AN_EXPORT = "This is not a gang export from Underhive Ledger"


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b'{"format": "underhive-ledger/gang", "fighters": [', f"{NOT_AN_EXPORT}: it is not JSON, or it is cut short."),
        (b"\xff\xfe garbage", f"{NOT_AN_EXPORT}: it is not text (UTF-8)."),
        (b"name,house\nIron Rats,orlock", f"{NOT_AN_EXPORT}: it is not JSON, or it is cut short."),
        (b"[" * 200_000 + b"]" * 200_000, f"{NOT_AN_EXPORT}: its values are nested too deep or too long to read."),
        (b'{"stash": ' + b"9" * 5000 + b"}", f"{NOT_AN_EXPORT}: its values are nested too deep or too long to read."),
        (b'{"stash": NaN}', f"{NOT_AN_EXPORT}: its values are nested too deep or too long to read."),
        (b" " * (1024 * 1024 + 1), "The file is larger than 1 MiB; a gang export is at most 1 MiB."),
    ],
)
def test_a_file_that_is_not_an_export_says_so(raw, message):
    with pytest.raises(ValidationError) as error:
        exchange.parse_gang_file(raw)
    assert error.value.messages == [message]


@pytest.mark.django_db
def test_not_an_object_is_not_an_export(full_gang):
    assert exchange.gang_import_check([1, 2])[0] == ["This is not a gang export: the file must hold one JSON object."]


@pytest.mark.django_db
def test_more_than_60_fighters_or_40_items_is_refused(full_gang, make_user):
    exported = exchange.gang_export(full_gang)
    crowd = broken(exported, lambda d: d.update(fighters=[d["fighters"][1]] * 61))
    with pytest.raises(ValidationError) as error:
        exchange.gang_import(owner=make_user(), data=crowd)
    assert error.value.messages == ["fighters: the file holds 61 fighters; a gang here has at most 60"]
    name = exported["fighters"][1]["name"]
    laden = broken(exported, lambda d: d["fighters"][1].update(equipment=d["fighters"][1]["equipment"] * 41))
    with pytest.raises(ValidationError) as error:
        exchange.gang_import(owner=make_user(), data=laden)
    assert error.value.messages == [f"{name}: equipment: holds 41; at most 40"]


@pytest.mark.django_db
def test_a_forged_2018_stat_line_names_the_fighter_and_the_target_numbers(make_gang, make_fighter, make_user):
    gang = make_gang(edition="n18")
    make_fighter(gang, "leader", name="Krag")
    make_fighter(gang, "ganger", name="Mira")
    data = exchange.gang_export(gang)
    data["fighters"][1]["base_stats"]["BS"] = 1
    with pytest.raises(ValidationError) as error:
        exchange.gang_import(owner=make_user(), data=data)
    assert error.value.messages == [
        "Mira: BS 1+ does not follow from Bruiser's 5+ and the recorded advancements and injuries"
    ]


@pytest.mark.django_db
def test_an_arbitrators_override_purchase_travels_with_the_file_and_is_recorded_again(full_gang, make_user):
    mesh = Equipment.objects.get(edition="classic", slug="mesh-armour")  # rare: only by an override
    juve = full_gang.fighters.get(status=FighterStatus.ACTIVE, fighter_type__category="ganger")
    services.purchase_buy(gang=full_gang, equipment=mesh, fighter=juve, actor=full_gang.owner, override_reason="Won it")
    exported = exchange.gang_export(full_gang)
    item = next(i for f in exported["fighters"] for i in f["equipment"] if i["equipment"] == "mesh-armour")
    assert item["override"] == "bought by an arbitrator's override"
    imported = exchange.gang_import(owner=make_user(), data=json.loads(json.dumps(exported)))
    assert imported.ledger.filter(description__contains="by an arbitrator's override").count() == 1
    assert exchange.gang_export(imported) == exported


@pytest.mark.django_db
def test_the_demo_gangs_export_and_import_again(make_user):
    from io import StringIO

    from django.core.management import call_command

    from gangs.demo import build_demo_gangs

    call_command("load_content", stdout=StringIO())
    build_demo_gangs(user=make_user("demo"), stdout=StringIO())
    importer = make_user()
    for gang in Gang.objects.exclude(owner=importer):
        exported = json.loads(json.dumps(exchange.gang_export(gang)))
        imported = exchange.gang_import(owner=importer, data=exported)
        assert exchange.gang_export(imported) == exported, gang.name


@pytest.mark.django_db
def test_the_import_page_lists_every_problem_and_never_fails(client, full_gang, make_user):
    client.force_login(make_user())
    data = exchange.gang_export(full_gang)
    data["fighters"][1]["base_stats"]["BS"] = 1
    data["fighters"][2]["equipment"].append({"equipment": "lasgun", "price": 25})
    upload = SimpleUploadedFile("gang.json", json.dumps(data).encode(), content_type="application/json")
    response = client.post(reverse("gangs:gang-import"), {"file": upload})
    page = response.content.decode()
    assert response.status_code == 200
    assert "does not follow from Ganger&#x27;s 3" in page and "is not on the Juve&#x27;s list" in page
    huge = SimpleUploadedFile("gang.json", b" " * (1024 * 1024 + 5), content_type="application/json")
    response = client.post(reverse("gangs:gang-import"), {"file": huge})
    assert response.status_code == 200 and "at most 1 MiB" in response.content.decode()


def _paths(value, path=()):
    """Every place in a parsed file: dict keys and list positions, depth first."""
    yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*path, index))


def _set(data, path, value):
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value


ODD_VALUES = [None, [[]], {"a": {}}, 10**12, "x" * 400, True]


@pytest.mark.django_db
def test_any_oddly_typed_value_anywhere_is_refused_with_a_message(full_gang, make_user):
    """Every field of a real export replaced by each odd value: a message or a good import, never a crash."""
    exported = exchange.gang_export(full_gang)
    owner = make_user()
    for path in list(_paths(exported))[1:]:
        for odd in ODD_VALUES:
            data = copy.deepcopy(exported)
            _set(data, path, odd)
            try:
                with transaction.atomic():
                    exchange.gang_import(owner=owner, data=data)
                    transaction.set_rollback(True)
            except ValidationError as error:
                assert error.messages and all(isinstance(m, str) and m for m in error.messages)


@pytest.mark.django_db
def test_a_large_gang_file_is_imported_by_the_worker_seen_only_by_its_sender(client, full_gang, make_user, monkeypatch):
    """Issue 26: a gang export over gangs.background_import.BACKGROUND_BYTES is queued, not imported in the request;
    the worker imports it; its status page is its sender's alone."""
    from gangs import background_import
    from gangs.models import FileImport, ImportKind, ImportState
    from gangs.tests.test_gang_yaktribe import _run_worker

    raw = json.dumps(exchange.gang_export(full_gang)).encode()
    assert not background_import.in_background("gang", raw)  # a file this size is imported at once
    monkeypatch.setitem(background_import.BACKGROUND_BYTES, "gang", 100)
    sender = make_user()
    client.force_login(sender)
    response = client.post(reverse("gangs:gang-import"), {"file": SimpleUploadedFile("gang.json", raw)})
    job = FileImport.objects.get()
    status = reverse("gangs:import-status", args=[job.pk])
    assert response.status_code == 302 and response["Location"] == status
    assert (job.kind, job.state) == (ImportKind.GANG, ImportState.WAITING) and not sender.gangs.exists()
    assert 'data-testid="importing"' in client.get(status).content.decode()
    client.force_login(make_user())
    assert client.get(status).status_code == 404
    _run_worker()
    imported = sender.gangs.get()
    assert exchange.gang_export(imported)["fighters"] == exchange.gang_export(full_gang)["fighters"]
    client.force_login(sender)
    assert client.get(status)["Location"] == imported.get_absolute_url()


@pytest.mark.django_db
def test_a_large_bad_gang_file_is_refused_whole_naming_every_problem_on_its_status_page(
    client, full_gang, make_user, monkeypatch
):
    from gangs import background_import
    from gangs.models import FileImport, ImportState
    from gangs.tests.test_gang_yaktribe import _run_worker

    monkeypatch.setitem(background_import.BACKGROUND_BYTES, "gang", 100)
    sender = make_user()
    client.force_login(sender)
    data = exchange.gang_export(full_gang)
    data["fighters"][1]["base_stats"]["BS"] = 1
    data["fighters"][2]["equipment"].append({"equipment": "lasgun", "price": 25})
    client.post(reverse("gangs:gang-import"), {"file": SimpleUploadedFile("gang.json", json.dumps(data).encode())})
    _run_worker()
    job = FileImport.objects.get()
    assert job.state == ImportState.REFUSED and not sender.gangs.exists()
    page = client.get(reverse("gangs:import-status", args=[job.pk])).content.decode()
    assert "Nothing was imported" in page
    assert "does not follow from Ganger&#x27;s 3" in page and "is not on the Juve&#x27;s list" in page
    # What is not a gang export at all is refused in the request, whole, and nothing is queued.
    page = client.post(reverse("gangs:gang-import"), {"file": SimpleUploadedFile("g.json", b"{not json" * 20)})
    assert page.status_code == 200 and FileImport.objects.count() == 1
