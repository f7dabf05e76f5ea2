"""load_content: idempotent upserts, its report, all-or-nothing refusals, and house rules left alone."""

import pytest
from django.core.management import CommandError, call_command

from content.loader import ContentFileError, load_content
from content.models import (
    Equipment,
    FighterType,
    FighterTypeEquipment,
    House,
    Skill,
    SkillAccess,
    Territory,
    WeaponProfile,
)

pytestmark = pytest.mark.django_db


def counts(report) -> dict[str, dict[str, int]]:
    return {label: dict(counter) for label, counter in report.counts.items()}


def test_first_load_reports_every_row_added(write_data, small_data):
    report = load_content(data_dir=write_data(small_data))
    assert counts(report) == {
        "Equipment": {"added": 4},
        "Weapon profiles": {"added": 2},
        "Houses": {"added": 1},
        "Fighter types": {"added": 2},
        "Skill tables": {"added": 1},
        "Skills": {"added": 1},
        "Skill access": {"added": 1},
        # Classic lists are the weapon-list categories: the laspistol, not the rare needle pistol.
        "Equipment list entries": {"added": 2},
        "Territories": {"added": 1},
    }
    assert report.changed_anything


def test_second_load_changes_nothing(write_data, small_data):
    data_dir = write_data(small_data)
    load_content(data_dir=data_dir)
    report = load_content(data_dir=data_dir)
    assert not report.changed_anything
    assert all(set(counter) == {"unchanged"} for counter in report.counts.values())
    assert "Equipment: 0 added, 0 changed, 4 unchanged" in report.lines()


def test_real_data_loads_twice_without_changes(loaded_content):
    assert loaded_content.changed_anything
    again = load_content()
    assert not again.changed_anything, again.lines()


def test_a_changed_number_is_updated_in_place(write_data, small_data):
    load_content(data_dir=write_data(small_data))
    laspistol = Equipment.objects.get(slug="laspistol")
    small_data["classic/armoury.json"]["weapons"][0]["cost"] = 20
    small_data["classic/armoury.json"]["weapons"][0]["profiles"][0]["ammo_roll"] = "3+"
    report = load_content(data_dir=write_data(small_data))
    assert report.counts["Equipment"]["changed"] == 1
    assert report.counts["Weapon profiles"]["changed"] == 1
    assert report.counts["Equipment list entries"]["changed"] == 2  # both fighters' list prices follow the Armoury
    laspistol.refresh_from_db()
    assert (laspistol.cost, laspistol.profiles.get().ammo) == (20, "3+")


def test_a_record_that_leaves_the_files_is_deactivated_not_deleted(write_data, small_data):
    load_content(data_dir=write_data(small_data))
    territories = small_data["classic/territories.json"]["territories"]
    small_data["classic/territories.json"]["territories"] = []
    report = load_content(data_dir=write_data(small_data))
    assert report.counts["Territories"]["deactivated"] == 1
    assert not Territory.objects.get(slug="slag").is_active
    small_data["classic/territories.json"]["territories"] = territories
    report = load_content(data_dir=write_data(small_data))
    assert report.counts["Territories"]["changed"] == 1
    assert Territory.objects.get(slug="slag").is_active


def break_json(data):
    data["classic/skills.json"] = "{not json"


def drop_cost(data):
    del data["classic/houses.json"]["fighter_types"][0]["cost"]


def wrong_edition(data):
    data["classic/skills.json"]["edition"] = "n18"


def unknown_skill_table(data):
    data["classic/houses.json"]["houses"][0]["skill_access"]["leader"] = ["sorcery"]


def positive_save_modifier(data):
    data["classic/armoury.json"]["weapons"][0]["profiles"][0]["save_mod"] = 1


def duplicate_slug(data):
    data["classic/skills.json"]["skill_tables"][0]["skills"].append({"slug": "dodge", "name": "Dodge again"})


def unknown_category(data):
    data["classic/houses.json"]["fighter_types"][0]["category"] = "warlord"


def overlong_income(data):
    data["classic/territories.json"]["territories"][0]["income"] = "a great deal of credits"


@pytest.mark.parametrize(
    "spoil, message",
    [
        (break_json, "skills.json: not readable JSON"),
        (drop_cost, "houses.json: fighter_types[0].cost: is required"),
        (wrong_edition, "skills.json: edition is 'n18' but the file is in classic/"),
        (unknown_skill_table, "no skill table 'sorcery'"),
        (positive_save_modifier, "weapons[0].profiles[0].save_mod: must be 0 or negative"),
        (duplicate_slug, "'dodge' is defined twice in classic"),
        (unknown_category, "'warlord' is not a fighter category"),
        (overlong_income, "territories[0].income: 'a great deal of credits' is longer than 20 characters"),
    ],
)
def test_a_bad_file_rejects_the_whole_load(write_data, small_data, spoil, message):
    load_content(data_dir=write_data(small_data))
    small_data["classic/armoury.json"]["weapons"][0]["cost"] = 99  # a good change in another file
    spoil(small_data)
    with pytest.raises(ContentFileError) as refused:
        load_content(data_dir=write_data(small_data))
    assert message in str(refused.value)
    assert Equipment.objects.get(slug="laspistol").cost == 15  # nothing of the load was kept


def test_house_rules_are_never_touched(write_data, small_data):
    data_dir = write_data(small_data)
    # An arbitrator's own version of an official item, and a new item of their own.
    house_rule = Equipment.objects.create(
        edition="classic",
        slug="laspistol",
        name="Club laspistol",
        kind="weapon",
        category="pistol",
        cost=5,
        is_official=False,
    )
    extra = Equipment.objects.create(
        edition="classic",
        slug="hive-cannon",
        name="Hive cannon",
        kind="weapon",
        category="heavy",
        cost=500,
        is_official=False,
    )
    report = load_content(data_dir=data_dir)
    assert report.counts["Equipment"]["kept"] == 1
    house_rule.refresh_from_db()
    assert (house_rule.name, house_rule.cost, house_rule.is_official) == ("Club laspistol", 5, False)
    # A house rule added to an official fighter's list survives a reload too.
    leader = FighterType.objects.get(slug="escher-leader")
    FighterTypeEquipment.objects.create(fighter_type=leader, equipment=extra, cost=450, is_official=False)
    report = load_content(data_dir=data_dir)
    assert not report.changed_anything
    extra.refresh_from_db()
    assert extra.is_active
    assert leader.equipment_list.filter(equipment=extra, cost=450).exists()


def test_classic_fighter_types_are_made_for_each_house_with_their_skill_access(write_data, small_data):
    small_data["classic/houses.json"]["houses"].append(
        {"slug": "goliath", "name": "Goliath", "skill_access": {"leader": [], "juve": ["agility"]}, "sources": ["T"]}
    )
    load_content(data_dir=write_data(small_data))
    assert set(FighterType.objects.values_list("slug", flat=True)) == {
        "escher-leader",
        "escher-juve",
        "goliath-leader",
        "goliath-juve",
    }
    assert list(
        SkillAccess.objects.filter(fighter_type__house__slug="goliath").values_list("fighter_type__slug", "level")
    ) == [("goliath-juve", "primary")]
    house = House.objects.get(slug="escher")
    assert (house.starting_credits, house.min_fighters) == (1000, 3)
    assert house.composition_rules == [{"kind": "max_share", "categories": ["juve"], "share": "1/2"}]


def test_a_removed_profile_is_removed(write_data, small_data):
    weapon = small_data["classic/armoury.json"]["weapons"][0]
    weapon["profiles"].append(dict(weapon["profiles"][0], name="overcharged"))
    load_content(data_dir=write_data(small_data))
    assert WeaponProfile.objects.filter(equipment__slug="laspistol").count() == 2
    weapon["profiles"].pop()
    report = load_content(data_dir=write_data(small_data))
    assert report.counts["Weapon profiles"]["removed"] == 1
    assert Skill.objects.count() == 1


def test_the_command_prints_the_report(write_data, small_data, capsys):
    data_dir = write_data(small_data)
    call_command("load_content", data_dir=data_dir)
    assert "Equipment: 4 added, 0 changed, 0 unchanged" in capsys.readouterr().out
    call_command("load_content", data_dir=data_dir)
    assert "Content already up to date." in capsys.readouterr().out


def test_the_command_refuses_a_bad_folder_with_a_clear_message(write_data, small_data):
    drop_cost(small_data)
    with pytest.raises(CommandError, match="Nothing was loaded: houses.json: fighter_types\\[0\\].cost: is required"):
        call_command("load_content", data_dir=write_data(small_data))


def test_an_optional_list_entry_waits_for_its_item(write_data, small_data):
    houses = small_data["classic/houses.json"]["houses"][0]
    houses["equipment_list"] = [{"item": "hive-cannon", "cost": 300, "fighter_types": ["leader"], "optional": True}]
    report = load_content(data_dir=write_data(small_data))
    assert report.waiting == {"classic/hive-cannon"}
    assert "waiting for items not in the data yet: classic/hive-cannon" in report.lines()[-1]
    small_data["classic/armoury.json"]["weapons"].append(
        dict(small_data["classic/armoury.json"]["weapons"][0], slug="hive-cannon", name="Hive cannon", category="heavy")
    )
    report = load_content(data_dir=write_data(small_data))
    assert not report.waiting
    assert (
        FighterTypeEquipment.objects.get(fighter_type__slug="escher-leader", equipment__slug="hive-cannon").cost == 300
    )
    # Without the flag, a missing item is an error like any other unknown name.
    del houses["equipment_list"][0]["optional"]
    houses["equipment_list"][0]["item"] = "hive-mortar"
    with pytest.raises(ContentFileError, match="no equipment 'hive-mortar' in the classic data"):
        load_content(data_dir=write_data(small_data))


def test_other_data_files_are_left_alone_and_reported(write_data, small_data):
    small_data["classic/scenarios.json"] = {"edition": "classic", "scenarios": [{"roll": 2}]}
    report = load_content(data_dir=write_data(small_data))
    assert report.skipped_files == {"classic/scenarios.json"}
    assert report.lines()[-1] == "Not content, left alone: classic/scenarios.json"
