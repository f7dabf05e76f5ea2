"""Export then import gives an identical roster; a bad file is refused whole, naming what is wrong."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
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
        fighter=leader, code="leg-wound", name="Leg Wound", roll=23, stat_deltas={"M": -1}, actor=gang.owner,
        reason="Serious Injury", status=FighterStatus.RECOVERY,
    )  # fmt: skip
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
    (lambda d: d.update(name=""), "name: must not be empty"),
    (lambda d: d["fighters"][1].update(type="ogryn"), "fighters[1].type: unknown fighter type 'ogryn'"),
    (lambda d: d["fighters"][0]["equipment"].append({"equipment": "lascannon", "price": 400}), "fighters[0].equipment[1].equipment: unknown equipment 'lascannon'"),
    (lambda d: d["fighters"][0]["base_stats"].update(WS="four"), "fighters[0].base_stats.WS: must be a whole number from 0 to 20"),
    (lambda d: d["fighters"][2].update(status="sulking"), "fighters[2].status: must be one of"),
    (lambda d: d["fighters"][1].update(experience=True), "fighters[1].experience: must be a whole number"),
    (lambda d: d["fighters"][1]["advancements"][0]["stat_changes"][0].update(delta=0), "fighters[1].advancements[0].stat_changes[0].delta: must not be 0"),
    (lambda d: d["fighters"][1]["advancements"][1].update(skills=["flying"]), "fighters[1].advancements[1].skills[0]: unknown skill 'flying'"),
    (lambda d: d["fighters"].append("not a fighter"), "fighters[3]: must be an object"),
    (lambda d: d.pop("fighters"), "fighters: is missing"),
]  # fmt: skip


@pytest.mark.django_db
@pytest.mark.parametrize(("change", "message"), BAD_FILES)
def test_a_bad_file_is_refused_naming_the_problem_and_creates_nothing(full_gang, make_user, change, message):
    data = broken(exchange.gang_export(full_gang), change)
    before = Gang.objects.count()
    with pytest.raises(ValidationError) as error:
        exchange.gang_import(owner=make_user(), data=data)
    assert any(m.startswith(message) for m in error.value.messages), error.value.messages
    assert Gang.objects.count() == before


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
    assert "The file was refused" in page and "the file is not JSON" in page
    assert viewer.gangs.count() == 1
