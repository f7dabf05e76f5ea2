"""Our own imports cannot be forged (issues 24 and 26): the forgeries of a player's edited export are refused, or
kept as flags an arbitrator sees, never as a decision nobody took."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from content.models import Equipment, Skill
from gangs import exchange, services
from gangs.ledger import ledger_totals
from gangs.models import Advancement, FighterStatus, Gang, LedgerEntry, StatChange
from gangs.selectors import import_flags


@pytest.fixture
def n18_export(make_gang, make_fighter):
    """A 2018+ gang with a Champion who bought +1 WS and a chosen Brawn skill, and a Ganger: as exported."""
    gang = make_gang(edition="n18", name="Forge Born")
    make_fighter(gang, "leader", name="Krag")
    boss = make_fighter(gang, "champion", name="Vex")
    make_fighter(gang, "ganger", name="Mira")
    services.experience_award(fighter=boss, amount=30, actor=gang.owner, reason="Battles")
    services.fighter_advance_n18(fighter=boss, actor=gang.owner, characteristic="WS")
    brawn = Skill.objects.get(edition="n18", table__name="Brawn", order=1)
    services.fighter_advance_n18(fighter=boss, actor=gang.owner, skill=brawn)
    return json.loads(json.dumps(exchange.gang_export(gang)))


def refused(data, make_user) -> list[str]:
    before = Gang.objects.count()
    with pytest.raises(ValidationError) as error:
        exchange.gang_import(owner=make_user(), data=data)
    assert Gang.objects.count() == before
    return error.value.messages


@pytest.mark.django_db
def test_an_untouched_export_imports_signed_and_flags_only_what_battles_brought(n18_export, make_user):
    assert exchange.signed(n18_export)
    gang = exchange.gang_import(owner=make_user(), data=n18_export)
    flags = import_flags(gang)
    vex = gang.fighters.get(name="Vex")
    assert flags.get(None, []) == []
    assert flags[vex.pk] == ["Vex: 30 XP earned (15 of it spent on advancements): from battles no record here shows."]
    assert exchange.gang_export(gang) == n18_export


FORGERIES = [
    (
        "free characteristic",
        lambda d: d["fighters"][1]["advancements"][0].update(xp_cost=0, value=0),
        "Vex: the advancement '+1 WS' costs 6 XP and is worth 20 credits by the Advancements table, not 0 XP and 0",
    ),
    ("value set to 0", lambda d: d["fighters"][1]["advancements"][1].update(value=0), "Vex: the advancement '"),
    (
        "a skill never bought",
        lambda d: d["fighters"][1]["skills"].append(
            d["fighters"][1]["advancements"][1]["skills"][0].replace("-1", "-2")
        ),
        "Vex: Crushing Blow comes from neither an advancement nor an injury",
    ),
    (
        "a skill from a table without access",
        lambda d: d["fighters"][1]["advancements"][1].update(
            skills=["leadership-0"], description="Commanding Presence (Leadership)"
        ),
        "Vex: the advancement 'Commanding Presence (Leadership)': a Forge Boss has no access to the Leadership skills",
    ),
    (
        "nine +1 A",
        lambda d: d["fighters"][1].update(
            advancements=[
                {
                    "kind": "characteristic",
                    "description": "+1 A",
                    "xp_cost": 12 + 2 * n,
                    "value": 45,
                    "dice": [],
                    "stat_changes": [{"stat": "A", "delta": 1}],
                    "skills": [],
                }
                for n in range(9)
            ],
            base_stats=d["fighters"][1]["base_stats"],
        ),
        "Vex: A raised 9 times by advancements; the rules allow at most 1 above the fighter's profile",
    ),
    (
        "a Ganger buying a skill",
        lambda d: d["fighters"][2]["advancements"].append(
            {
                "kind": "skill",
                "description": "Bull Charge (Brawn)",
                "xp_cost": 9,
                "value": 20,
                "dice": [],
                "stat_changes": [],
                "skills": ["brawn-2"],
            }
        ),
        "Mira: the advancement 'Bull Charge (Brawn)': a Ganger gains a skill only when promoted",
    ),
    ("Reputation below 0", lambda d: d.update(reputation=-1_000_000), "reputation: must be 0 or more"),
    ("a Stash of a million", lambda d: d.update(stash=1_000_000), "stash: 1,000,000 is more than any gang here holds"),
    (
        "experience of a million",
        lambda d: d["fighters"][0].update(experience=1_000_000),
        "Krag: experience: 1,000,000 is more than any gang here holds",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("what", "change", "message"), FORGERIES, ids=[f[0] for f in FORGERIES])
def test_a_forged_file_is_refused_naming_the_forgery(n18_export, make_user, what, change, message):
    change(n18_export)
    messages = refused(n18_export, make_user)
    assert any(m.startswith(message) for m in messages), messages


@pytest.mark.django_db
def test_a_stash_experience_and_a_status_no_history_explains_are_flagged_on_the_page_and_cards(
    client, n18_export, make_user
):
    n18_export["stash"] = 50_000
    n18_export["reputation"] = 9
    n18_export["fighters"][2].update(experience=99, status="recovery")
    assert not exchange.signed(n18_export)
    owner = make_user()
    gang = exchange.gang_import(owner=owner, data=n18_export)
    assert (gang.stash, gang.reputation) == (50_000, 9)
    totals = ledger_totals(gang)
    assert (totals["stash"], totals["reputation"]) == (50_000, 9)
    flags = import_flags(gang)
    assert flags[None][0].startswith("The file is not as this site exported it")
    assert flags[None][1].startswith("The Stash holds 50,000 credits: ")
    assert flags[None][2] == "Reputation 9, from battles no record here shows."
    mira = gang.fighters.get(name="Mira")
    assert flags[mira.pk] == ["Mira: 99 XP earned; status recovery: from battles no record here shows."]
    client.force_login(make_user())  # another player (or an arbitrator) looking at it
    page = client.get(gang.get_absolute_url()).content.decode()
    assert "Imported: not explained by a recorded history" in page
    assert "The Stash holds 50,000 credits" in page and "Mira: 99 XP earned" in page
    cards = client.get(reverse("gangs:gang-print", args=[gang.pk]) + "?cards=1").content.decode()
    assert "Mira: 99 XP earned" in cards


@pytest.mark.django_db
def test_an_override_in_a_players_file_is_only_a_flag_an_arbitrator_must_accept(
    client, make_gang, make_fighter, make_user
):
    gang = make_gang(edition="n18")
    make_fighter(gang, "leader", name="Krag")
    sister = make_fighter(gang, "ganger", name="Little Sister")
    data = exchange.gang_export(gang)
    plasma = (
        Equipment.objects.filter(edition="n18").exclude(fighter_type_lists__fighter_type=sister.fighter_type).first()
    )
    data["fighters"][1]["equipment"].append({"equipment": plasma.slug, "price": 1, "override": "arbitrator said so"})
    imported = exchange.gang_import(owner=make_user(), data=json.loads(json.dumps(data)))
    flag = import_flags(imported)[imported.fighters.get(name="Little Sister").pk]
    assert flag == [
        f"Little Sister: {plasma.name} for 1 credits by an arbitrator's override the file claims (arbitrator said "
        "so); no arbitrator here has accepted it."
    ]
    client.force_login(imported.owner)
    assert "no arbitrator here has accepted it" in client.get(imported.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_a_large_import_writes_in_bulk_with_one_version_bump(n18_export, make_user, django_assert_max_num_queries):
    vex = n18_export["fighters"][2]
    n18_export["fighters"] += [dict(vex, name=f"Ganger {n}") for n in range(40)]
    with django_assert_max_num_queries(40):  # the same for 3 fighters or 43: one INSERT per table
        gang = exchange.gang_import(owner=make_user(), data=n18_export)
    assert gang.fighters.count() == 43
    assert Gang.objects.get(pk=gang.pk).version == 1
    assert LedgerEntry.objects.filter(gang=gang).count() >= 1
    assert StatChange.objects.filter(fighter__gang=gang).count() == 1
    assert Advancement.objects.filter(fighter__gang=gang).count() == 2
    assert gang.fighters.filter(status=FighterStatus.ACTIVE).count() == 43


@pytest.mark.django_db
def test_a_characteristic_is_not_bought_past_its_maximum(make_gang, make_fighter):
    gang = make_gang(edition="n18")
    boss = make_fighter(gang, "champion", name="Vex")
    services.experience_award(fighter=boss, amount=40, actor=gang.owner, reason="Battles")
    services.fighter_advance_n18(fighter=boss, actor=gang.owner, characteristic="A")
    with pytest.raises(ValidationError, match="Vex's A is already 1 above the profile, its maximum"):
        services.fighter_advance_n18(fighter=boss, actor=gang.owner, characteristic="A")
