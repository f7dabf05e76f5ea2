"""load_content refuses what no column can hold (issue 17): a clear error naming the file and field, nothing written."""

import pytest
from django.core.management import CommandError, call_command

from content.loader import ContentFileError, load_content
from content.models import Equipment, WeaponProfile

pytestmark = pytest.mark.django_db


def _weapon(data):
    return data["classic/armoury.json"]["weapons"][0]


HOSTILE = [
    (
        lambda d: _weapon(d).update(cost=2**31),
        "armoury.json: weapons[0].cost: 2147483648 is beyond the database's integer range",
    ),
    (
        lambda d: _weapon(d)["profiles"][0].update(hit_long=-(2**40)),
        "armoury.json: weapons[0].profiles[0].hit_long: -1099511627776 is beyond",
    ),
    (
        lambda d: _weapon(d).update(name="Las\x00pistol"),
        "armoury.json: weapons[0].name: must not contain a NUL character",
    ),
    (
        lambda d: d["classic/skills.json"]["skill_tables"][0]["skills"][0].update(name="Do\x00dge"),
        "skills.json: skill_tables[0].skills[0].name: must not contain a NUL",
    ),
    (
        lambda d: _weapon(d)["profiles"][0].update(traits=["Knock\x00back"]),
        "armoury.json: weapons[0].profiles[0].traits: must not contain a NUL",
    ),
    (
        lambda d: _weapon(d)["profiles"][0].update(strength={"value": 3}),
        "armoury.json: weapons[0].profiles[0].strength: has the wrong type (dict)",
    ),
    (
        lambda d: _weapon(d)["profiles"][0].update(damage=[1]),
        "armoury.json: weapons[0].profiles[0].damage: has the wrong type (list)",
    ),
    (
        lambda d: _weapon(d)["profiles"][0].update(ammo_roll=True),
        "armoury.json: weapons[0].profiles[0].ammo_roll: has the wrong type (bool)",
    ),
    (
        lambda d: _weapon(d)["profiles"][0].update(short_range={"in": 8}),
        "armoury.json: weapons[0].profiles[0].short_range: has the wrong type (dict)",
    ),
]


@pytest.mark.parametrize(("spoil", "message"), HOSTILE)
def test_a_value_no_column_holds_rejects_the_whole_load(write_data, small_data, spoil, message):
    load_content(data_dir=write_data(small_data))
    small_data["classic/armoury.json"]["weapons"][1]["cost"] = 99  # a good change beside the bad one
    spoil(small_data)
    with pytest.raises(ContentFileError) as refused:
        load_content(data_dir=write_data(small_data))
    assert message in str(refused.value)
    assert Equipment.objects.get(slug="needle-pistol").cost == 100  # nothing of the load was kept
    assert WeaponProfile.objects.get(equipment__slug="laspistol").strength == "3"


def test_a_missing_data_folder_is_named(tmp_path):
    with pytest.raises(CommandError, match=f"Nothing was loaded: {tmp_path / 'nowhere'}: there is no such data folder"):
        call_command("load_content", data_dir=tmp_path / "nowhere")


def test_a_folder_without_editions_is_named(tmp_path):
    with pytest.raises(CommandError, match="holds no edition folder \\(classic/, n18/\\)"):
        call_command("load_content", data_dir=tmp_path)


# Special ammunition and Exotic Beasts' cards (issue 25).
def n18_armoury(**kinds) -> dict:
    return {"n18/trading_post.json": {"edition": "n18", "sources": {"T": "test"}, **kinds}}


def test_ammunition_for_an_unknown_weapon_is_refused(write_data):
    rounds = {
        "slug": "ray-gun-rounds",
        "name": "Ray gun: rounds",
        "category": "ammo",
        "cost": 5,
        "fits": ["ray-gun"],
        "profiles": [{"name": "rounds", "short_range": 4, "long_range": 8, "strength": 3, "damage": 1}],
    }
    with pytest.raises(ContentFileError, match=r"fits: names no weapon of n18: ray-gun"):
        load_content(data_dir=write_data(n18_armoury(weapons=[rounds])))


def test_a_beast_card_must_give_every_characteristic(write_data):
    rat = {"slug": "odd-rat", "name": "Odd rat", "category": "exotic_beast", "cost": 5, "beast": {"stats": {"M": 5}}}
    with pytest.raises(ContentFileError, match=r"wargear\[0\]\.beast\.stats: must give M, WS"):
        load_content(data_dir=write_data(n18_armoury(wargear=[rat])))


def test_only_an_exotic_beast_has_a_card(write_data):
    rope = {"slug": "rope", "name": "Rope", "cost": 5, "beast": {"stats": {}}}
    with pytest.raises(ContentFileError, match=r"beast: only an exotic_beast has a beast card"):
        load_content(data_dir=write_data(n18_armoury(wargear=[rope])))
