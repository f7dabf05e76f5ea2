"""One-line summaries (skills, weapon traits and special rules, fighter rules) and the printed profile convention."""

import json
from pathlib import Path

import pytest

from content.loader import ContentFileError, load_content
from content.models import Edition, Equipment, Rule, RuleKind, Skill, WeaponProfile
from content.printed import DASH, Glossary, printed_weapon, rule_key

DATA = Path(__file__).resolve().parents[2] / "rulebook" / "data"

# Named by the shipped data but with no summary yet, because no reference read gives the rule's effect: write it
# (a "rules" record beside the record that names it) and strike it from here.
# - "Power Pack": a weapon trait of the Ironhead Squats' stone burner, circular stone saw and gem extractor
#   (gang_armoury.json, profiles from the necrovox armoury pages, N9, which only name it); the necrovox weapon
#   traits page (the 2023 Core Rulebook's traits) does not list it, and no other reference read describes it.
KNOWN_WITHOUT_SUMMARY = frozenset({"Power Pack"})


def shipped_documents(edition: str) -> list[dict]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted((DATA / edition).glob("*.json"))]


def named_rules(edition: str) -> set[str]:
    """Every weapon trait, weapon special rule and fighter rule a shipped record names."""
    names = set()
    for document in shipped_documents(edition):
        weapons = [*document.get("weapons", []), *document.get("equipment", {}).get("weapons", [])]
        for item in [*weapons, *document.get("armour", []), *document.get("wargear", [])]:
            names.update(item.get("special_rules", []))
            for profile in item.get("profiles", []):
                names.update(profile.get("traits", []) + profile.get("special_rules", []))
        fighter_types = [*document.get("fighter_types", [])]
        fighter_types += [ft for house in document.get("houses", []) for ft in house.get("fighter_types", [])]
        for fighter_type in fighter_types:
            names.update(fighter_type.get("special_rules", []))
    return names


def looks_like_a_rule_name(name: str) -> bool:
    """A rule's name is a short title ("Rapid Fire (2)"); a record may instead write a sentence that explains
    itself, or "Name: what it does" (see :meth:`content.printed.Glossary.term`)."""
    return ": " not in name and len(rule_key(name).split()) <= 4 and name[:1].isupper()


@pytest.mark.parametrize("edition", Edition.values)
def test_every_rule_the_shipped_data_names_has_a_summary(edition):
    glossary = Glossary(
        Rule(name=r["name"], summary=r["summary"], aliases=r.get("aliases", []))
        for document in shipped_documents(edition)
        for r in document.get("rules", [])
    )
    skills = {
        rule_key(s["name"]) for d in shipped_documents(edition) for t in d.get("skill_tables", []) for s in t["skills"]
    }
    missing = sorted(
        name
        for name in named_rules(edition)
        if looks_like_a_rule_name(name)
        and not glossary.term(name).summary
        and rule_key(name) not in skills
        and name not in KNOWN_WITHOUT_SUMMARY
    )
    assert missing == [], f"add these to rulebook/data/{edition}/rules.json (or a 'rules' list beside them)"


def test_a_record_may_carry_its_own_summary():
    term = Glossary().term("Ammo Hoppers: re-rolls failed Ammo checks")
    assert (term.name, term.summary) == ("Ammo Hoppers", "re-rolls failed Ammo checks")


@pytest.mark.parametrize("edition", Edition.values)
def test_every_skill_and_rule_summary_is_one_short_line(edition):
    summaries = {}
    for document in shipped_documents(edition):
        for table in document.get("skill_tables", []):
            summaries |= {f"skill {s['slug']}": s.get("summary", "") for s in table["skills"]}
        summaries = {key: text for key, text in summaries.items() if key not in KNOWN_WITHOUT_SUMMARY}
        summaries |= {f"rule {r['slug']}": r["summary"] for r in document.get("rules", [])}
    bad = {key: text for key, text in summaries.items() if not text or "\n" in text or len(text) > 120}
    assert bad == {}


@pytest.mark.django_db
def test_load_content_stores_the_summaries(loaded_content):
    assert loaded_content.counts["Rule summaries"]["added"] > 60
    dodge = Skill.objects.get(edition="n18", slug="dodge")
    assert dodge.summary.startswith("A hit from a shot or a blow may be dodged")
    rapid = Rule.objects.get(edition="n18", slug="rapid-fire")
    assert rapid.kind == RuleKind.WEAPON and "Firepower" in rapid.summary
    sustained = Rule.objects.get(edition="classic", slug="sustained-fire")
    assert "Sustained fire 2 dice" in sustained.aliases


@pytest.mark.django_db
def test_a_house_file_may_carry_its_own_rule_summaries(write_data, small_data):
    small_data["classic/houses.json"]["rules"] = [
        {"slug": "pack-hunter", "name": "Pack Hunter", "kind": "fighter", "summary": "Hunts in packs.", "sources": []}
    ]
    load_content(data_dir=write_data(small_data))
    assert Rule.objects.get(slug="pack-hunter").summary == "Hunts in packs."


@pytest.mark.django_db
@pytest.mark.parametrize(
    "spoil, message",
    [
        ({"kind": "spell"}, "kind: must be one of"),
        ({"summary": " "}, "summary: must be one line"),
        ({"summary": "Two\nlines"}, "summary: must be one line"),
        ({"summary": "x" * 121}, "longer than 120 characters"),
    ],
)
def test_a_bad_rule_summary_is_refused_naming_the_place(write_data, small_data, spoil, message):
    rule = {"slug": "parry", "name": "Parry", "kind": "weapon", "summary": "Parries.", "sources": []} | spoil
    small_data["classic/rules.json"] = {"edition": "classic", "sources": {}, "rules": [rule]}
    with pytest.raises(ContentFileError, match=message):
        load_content(data_dir=write_data(small_data))


def test_a_rule_is_found_without_its_parameter_or_by_an_alias():
    glossary = Glossary(
        [
            Rule(name="Rapid Fire", summary="Shoots more."),
            Rule(name="Sustained fire", summary="Hits more.", aliases=["Sustained fire 2 dice"]),
        ]
    )
    assert rule_key('Blast (3")') == "blast"
    assert glossary.term("Rapid Fire (2)").summary == "Shoots more."
    assert glossary.term("Sustained fire 2 dice").summary == "Hits more."
    assert glossary.term("Unknown").summary == ""


def test_a_rule_named_with_its_parameter_is_found_before_the_bare_name():
    glossary = Glossary(
        [
            Rule(name="Mask", summary="Any mask."),
            Rule(name="Mask (Butcher)", summary="The Butcher's."),
            Rule(name="Archetype (Brawler)", summary="Brawn."),
        ]
    )
    assert glossary.term("Mask (Butcher)").summary == "The Butcher's."
    assert glossary.term("mask (butcher) ").summary == "The Butcher's."
    assert glossary.term("Mask (Skinner)").summary == "Any mask."
    assert glossary.term("Mask").summary == "Any mask."
    assert glossary.term("Archetype (Brawler)").summary == "Brawn."
    assert glossary.term("Archetype (Wyrd)").summary == ""


def weapon(edition: str, category: str, *profiles: dict, rules=()) -> Equipment:
    """An unsaved weapon whose ``profiles.all()`` are the given rows (no database needed)."""
    item = Equipment(pk=1, edition=edition, name="Test", kind="weapon", category=category, special_rules=list(rules))
    rows = [WeaponProfile(equipment=item, order=i, **p) for i, p in enumerate(profiles)]
    item._prefetched_objects_cache = {"profiles": _Rows(rows)}
    return item


class _Rows(list):
    def all(self):
        return self


N18_PROFILE = {"acc_short": None, "acc_long": None, "strength": "", "ap": None, "damage": "", "ammo": ""}
CLASSIC_PROFILE = {"hit_short": None, "hit_long": None, "strength": "", "damage": "", "save_mod": None, "ammo": ""}


@pytest.mark.parametrize(
    "edition, category, profile, cells",
    [
        # 2018+: a melee weapon shows E under long range; missing values and zero modifiers are "-".
        (
            "n18",
            "close_combat",
            {"range_code": "E", "strength": "S+1", "ap": -2, "damage": "1"},
            (DASH, "E", DASH, DASH, "S+1", "-2", "1", DASH),
        ),
        # Versatile: E under short, its reach under long.
        (
            "n18",
            "close_combat",
            {"range_code": "E", "long_range": 3, "strength": "S", "damage": "1"},
            ("E", '3"', DASH, DASH, "S", DASH, "1", DASH),
        ),
        (
            "n18",
            "grenade",
            {"range_code": "Sx3", "strength": "3", "damage": "1", "ammo": "4+"},
            (DASH, "Sx3", DASH, DASH, "3", DASH, "1", "4+"),
        ),
        ("n18", "basic", {"range_code": "Sx2/Sx4", "strength": "3"}, ("Sx2", "Sx4", DASH, DASH, "3", DASH, DASH, DASH)),
        (
            "n18",
            "special",
            {"range_code": "T", "strength": "4", "ap": 0, "damage": "1", "ammo": "5+"},
            (DASH, "T", DASH, DASH, "4", DASH, "1", "5+"),
        ),
        (
            "n18",
            "basic",
            {"short_range": 18, "long_range": 24, "acc_short": 1, "strength": "3", "damage": "1", "ammo": "2+"},
            ('18"', '24"', "+1", DASH, "3", DASH, "1", "2+"),
        ),
        (
            "classic",
            "hand_to_hand",
            {"strength": "user+1", "damage": "1"},
            (DASH, "E", DASH, DASH, "user+1", "1", DASH, DASH),
        ),
        (
            "classic",
            "special",
            {"template": "flamer", "strength": "4", "damage": "1", "save_mod": -2, "ammo": "4+"},
            (DASH, "T", DASH, DASH, "4", "1", "-2", "4+"),
        ),
        (
            "classic",
            "grenade",
            {"template": "blast", "strength": "3", "damage": "1"},
            (DASH, "Thr", DASH, DASH, "3", "1", DASH, DASH),
        ),
        (
            "classic",
            "basic",
            {
                "short_range": 12,
                "long_range": 24,
                "hit_short": 1,
                "hit_long": 0,
                "strength": "3",
                "damage": "1",
                "save_mod": -1,
                "ammo": "2+",
            },
            ("0-12", "12-24", "+1", DASH, "3", "1", "-1", "2+"),
        ),
    ],
)
def test_profiles_follow_the_printed_convention(edition, category, profile, cells):
    base = N18_PROFILE if edition == "n18" else CLASSIC_PROFILE
    printed = printed_weapon(weapon(edition, category, base | profile), Glossary())
    assert printed.profiles[0].cells == cells


def test_classic_special_rules_go_with_the_profile_each_once():
    glossary = Glossary(
        [
            Rule(name="Move or fire", summary="No moving."),
            Rule(name="Sustained fire", summary="More.", aliases=["Sustained fire 2 dice"]),
        ]
    )
    stubber = weapon(
        "classic",
        "heavy",
        CLASSIC_PROFILE | {"short_range": 20, "long_range": 40, "sustained_fire": 2},
        rules=["Sustained fire 2 dice", "Move or fire"],
    )
    printed = printed_weapon(stubber, glossary)
    assert [(t.name, t.summary) for t in printed.rules] == [
        ("Sustained fire 2 dice", "More."),
        ("Move or fire", "No moving."),
    ]
    bare = weapon(
        "classic",
        "heavy",
        CLASSIC_PROFILE | {"short_range": 20, "long_range": 40, "sustained_fire": 1, "template": "blast"},
    )
    assert [t.name for t in printed_weapon(bare, glossary).rules] == ["Sustained fire 1 dice", "Blast marker"]


def test_rules_every_profile_shares_are_printed_once_beside_the_name():
    plasma = weapon(
        "n18",
        "pistol",
        N18_PROFILE | {"name": "low", "short_range": 6, "long_range": 12, "traits": ["Pistol", "Scarce"]},
        N18_PROFILE
        | {"name": "maximal", "short_range": 6, "long_range": 12, "traits": ["Pistol", "Scarce", "Unstable"]},
    )
    printed = printed_weapon(plasma, Glossary())
    assert [t.name for t in printed.rules] == ["Pistol", "Scarce"]
    assert [[t.name for t in p.rules] for p in printed.profiles] == [[], ["Unstable"]]
