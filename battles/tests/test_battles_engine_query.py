"""The query the battle assistant sends the engine, walked over the shipped content: every fighter type of every
list (both editions), carrying every weapon and armour its list offers, built as a battle's start builds it
(``battles.roster.snapshot_of``) and sent through the edition's own plans, is checked against what the content
records say, read here on their own:

- its armour: every suit, undersuit and shield the rules data knows, by name (the best suit only), so flak's 5+
  against Blasts counts; what the engine cannot take is in ``not_applied`` with the reason (none is dropped);
- its weapons: the profile the engine reads for each of the fighter's weapons is the content record's profile;
- in a fight, the weapons held are two different weapons (a plasma pistol and a massive axe, never two pistol
  profiles), close combat weapons first;
- house rules: every Escher fighter's Agility test carries the +1 (and no other house's);
- skills: every skill of the content is sent in the query it changes or listed as not applied, with the reason;
- wargear: likewise every wargear item (a respirator and photo-goggles in the shots whose Gas or Flash they resist).

The engine accepts every armour combination met (its odds are computed)."""

import copy
import json
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

import rulebook
from battles.models import BattleFighter, Condition
from battles.roster import snapshot_of
from battles.rules import classic, n18
from battles.rules.classic.queries import combatant
from content.models import EquipmentKind, FighterType
from rulebook import editions
from rulebook.classic import armoury
from rulebook.n18 import trading_post
from rulebook.query import Query

pytestmark = pytest.mark.django_db
STATS = {
    "n18": {"M": 5, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 2, "I": 4, "A": 1, "Ld": 7, "Cl": 7, "Wil": 7, "Int": 7},
    "classic": {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7},
}
DATA = Path(rulebook.__file__).resolve().parent / "data" / "n18"


@pytest.fixture
def loaded_content(module_content, db):
    return module_content


def rule_records() -> dict:
    """From the rules data files themselves: slug → ``"suit"`` (its save) or ``"extra"`` (an undersuit, a scrap
    shield, a weapon with the Shield trait) for everything whose rules change a save."""
    out = {}
    for name in ("trading_post", "gang_armoury", "houses"):
        document = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
        lists = document.get("equipment", document)
        for record in lists.get("armour", []):
            out[record["slug"]] = ("suit", record["save"]) if record.get("save") else ("extra", None)
        for record in lists.get("wargear", []):
            if record.get("save_bonus"):
                out[record["slug"]] = ("extra", None)
        for record in lists.get("weapons", []):
            if any("Shield" in profile.get("traits", []) for profile in record["profiles"]):
                out[record["slug"]] = ("extra", None)
    return out


def expected_armour(items: list, records: dict) -> tuple[set, set]:
    """The names the engine should get, and the names left out, from the content rows and rules records alone."""
    suits = [i for i in items if records.get(i.slug, ("",))[0] == "suit"]
    best = min(suits, key=lambda i: records[i.slug][1]) if suits else None
    sent = {i.slug for i in items if records.get(i.slug, ("",))[0] == "extra"} | ({best.slug} if best else set())
    left = {i.name for i in suits if i is not best}
    left |= {i.name for i in items if i.kind == EquipmentKind.ARMOUR and i.slug not in records}
    return sent, left


def in_battle(profile: dict, side: str) -> BattleFighter:
    edition_state = {"condition": Condition.ACTIVE} if "worn" in profile else {"condition": Condition.STANDING}
    return BattleFighter(
        side=side, name=f"Fighter {side}", profile=profile, wounds_left=profile["stats"]["W"], **edition_state
    )


def walk(edition, reverse: bool = False):
    for fighter_type in (
        FighterType.objects.filter(edition=edition)
        .select_related("house")
        .prefetch_related("equipment_list__equipment__profiles")
    ):
        items = [row.equipment for row in fighter_type.equipment_list.all()][:: -1 if reverse else 1]
        purchases = [SimpleNamespace(pk=n, equipment=item) for n, item in enumerate(items)]
        profile = snapshot_of(
            edition=edition, fighter_type=fighter_type, stats=dict(STATS[edition]), purchases=purchases, skills=[]
        )
        yield fighter_type, items, profile


def test_n18_every_fighter_type_sends_its_armour_by_name_and_its_house_rules(loaded_content):
    records, combinations, walked = rule_records(), {}, 0
    shooter = in_battle(
        {
            "stats": STATS["n18"],
            "weapons": [
                {
                    "key": "gun",
                    "name": "Frag grenade",
                    "category": "grenade",
                    "profiles": [{"name": "", "query": {"weapon": "frag-grenade"}}],
                }
            ],
            "worn": [],
            "save": None,
        },
        "attacker",
    )
    for fighter_type, items, profile in walk("n18"):
        walked += 1
        sent, left = expected_armour(items, records)
        target = in_battle(profile, "defender")
        query = n18.plan(
            "shoot", {"fighter": shooter, "target": target, "weapon": "gun:0", "distance": 4}, [], None
        ).query
        where = f"{fighter_type.house.slug}/{fighter_type.slug}"
        if sent:
            assert set(query["target"]["armour"]) == sent, where
        else:
            assert "armour" not in query["target"] and query["target"]["save"] is None, where
        assert {n["name"] for n in profile["not_applied"]} >= left, where
        assert all(n["reason"] for n in profile["not_applied"]), where
        combinations[tuple(sorted(sent))] = query
        agility = n18.plan("test", {"test": "agility", "fighter": target}, [], None).query
        assert agility.get("escher", False) == (fighter_type.house.slug == "escher"), where
    assert walked > 100
    assert ("flak-armour",) in combinations and any("armoured-undersuit" in c for c in combinations)
    for query in combinations.values():
        answer = editions.action("n18", "shoot").odds(Query(copy.deepcopy(query)))
        assert answer["save"]["needed"] is None or 2 <= answer["save"]["needed"] <= 7


def printed(value) -> str:
    """A Strength or Damage as printed: ``-`` for none, ``S+1`` and ``S1+`` alike."""
    return "-" if value in (None, "", "-") else str(value).replace("+", "")


def test_n18_the_profile_the_engine_reads_is_the_content_record(loaded_content):
    for fighter_type, items, profile in walk("n18"):
        records = {item.slug: item for item in items}
        for entry in profile["weapons"]:
            for index, row in enumerate(records[entry["slug"]].profiles.all()):
                read = trading_post.read_profile(Query(copy.deepcopy(entry["profiles"][index]["query"])))
                where = f"{fighter_type.slug}: {entry['name']} {row.name}"
                assert printed(read["strength"]) == printed(row.strength), where
                assert printed(read["damage"]) == printed(row.damage), where
                assert (read["ap"] or 0) == (row.ap or 0), where
                assert set(trading_post.trait_names(read)) == set(trading_post.trait_names({"traits": row.traits})), (
                    where
                )


def test_classic_the_profile_the_engine_reads_is_the_content_record(loaded_content):
    for fighter_type, items, profile in walk("classic"):
        records = {item.slug: item for item in items}
        for entry in profile["weapons"]:
            for index, row in enumerate(records[entry["slug"]].profiles.all()):
                query = entry["profiles"][index]["query"]
                if isinstance(query["weapon"], dict):
                    assert query["weapon"]["strength"] in (row.strength, int(row.strength or 0)), entry["name"]
                    continue
                read = armoury.weapon(query["weapon"]).profile(query.get("profile"))
                where = f"{fighter_type.slug}: {entry['name']} {row.name}"
                assert str(read.strength) == row.strength, where
                assert (read.save_mod or 0) == (row.save_mod or 0), where


def held_weapons(edition, fighter) -> list:
    if edition == "classic":
        return [json.dumps(w, sort_keys=True) for w in combatant(fighter)["weapons"]]
    query = n18.plan("fight", {"fighter": fighter, "target": fighter, "reaction": True}, [], None).query["target"]
    return [json.dumps(query[f], sort_keys=True) for f in ("weapon", "second_weapon") if f in query]


@pytest.mark.parametrize("reverse", [False, True], ids=["bought-in-list-order", "bought-in-reverse"])
@pytest.mark.parametrize("edition", ["classic", "n18"])
def test_a_fighter_fights_with_two_different_weapons_close_combat_first(loaded_content, edition, reverse):
    rules = {"classic": classic, "n18": n18}[edition]
    for fighter_type, _, profile in walk(edition, reverse):
        fighter = in_battle(profile, "attacker")
        offered = rules.offered(fighter, "fights").usable
        weapons = list({entry["key"]: entry for entry, _ in offered}.values())
        held = held_weapons(edition, fighter)
        assert len(held) == len(set(held)), fighter_type.slug
        if edition == "classic":
            assert len(held) == min(len(weapons), 2), fighter_type.slug
        first_profile = {}
        for entry, index in offered:
            first_profile.setdefault(entry["key"], entry["profiles"][index]["query"])
        close = [e for e in weapons if e["category"] in ("hand_to_hand", "close_combat")]
        if close and len(weapons) > 1:
            first = first_profile[close[0]["key"]]
            weapon = first["weapon"]
            if edition == "classic" and not isinstance(weapon, dict):
                weapon = {"name": weapon, **({"profile": first["profile"]} if "profile" in first else {})}
            assert held[0] == json.dumps(weapon, sort_keys=True), fighter_type.slug


def test_classic_plasma_pistol_and_massive_axe_fight_as_both(loaded_content):
    """The issue's case: not two plasma-pistol profiles and no axe."""
    fighter_type = FighterType.objects.filter(edition="classic", house__slug="goliath", category="leader").first()
    listed = {r.equipment.slug: r.equipment for r in fighter_type.equipment_list.all()}
    items = [listed["plasma-pistol"], listed["massive-axe"]]  # bought in this order
    profile = snapshot_of(
        edition="classic",
        fighter_type=fighter_type,
        stats=dict(STATS["classic"]),
        purchases=[SimpleNamespace(pk=n, equipment=i) for n, i in enumerate(items)],
        skills=[],
    )
    names = [w["name"] for w in combatant(in_battle(profile, "attacker"))["weapons"]]
    assert sorted(names) == ["massive-axe", "plasma-pistol"]


def gang_of(house_slug: str, make_user, kit: list[str]):
    from content.models import Equipment, House
    from gangs.services import fighter_hire, gang_create, purchase_buy
    from rulebook.dice import SeededDice

    house = House.objects.get(edition="n18", slug=house_slug)
    gang = gang_create(owner=make_user(), house=house, name=f"{house.name} gang")
    leader = FighterType.objects.filter(house=house, category="leader").first()
    fighter = fighter_hire(
        gang=gang, fighter_type=leader, name=f"{house.name} leader", actor=gang.owner, dice=SeededDice(3)
    )
    for slug in kit:
        item = Equipment.objects.get(edition="n18", slug=slug)
        purchase_buy(gang=gang, equipment=item, fighter=fighter, actor=gang.owner, override_reason="test")
    return gang


def test_an_escher_agility_test_and_flak_with_an_undersuit_in_a_battle(loaded_content, make_user, client):
    """The issue's cases through a battle started from saved gangs: an Escher fighter's Agility test is 2/3 (not
    1/2); a frag grenade against flak and an armoured undersuit needs 4+ to save (not 6+); the card says so."""
    from battles.selectors import action_odds, action_plan
    from battles.services import battle_start
    from rulebook.dice import SeededDice

    escher = gang_of("escher", make_user, ["autopistol"])
    enforcers = gang_of("palanite-enforcers", make_user, ["frag-grenade", "refractor-field"])
    battle = battle_start(gang_a=escher, gang_b=enforcers, started_by=escher.owner, dice=SeededDice(5))
    wyld, enforcer = battle.fighters.order_by("side")
    agility = action_odds(
        session=battle, plan=action_plan(session=battle, kind="test", params={"test": "agility", "fighter": wyld.pk})
    )
    assert agility["p_pass_exact"] == "2/3"
    other = action_odds(
        session=battle,
        plan=action_plan(session=battle, kind="test", params={"test": "agility", "fighter": enforcer.pk}),
    )
    assert other["p_pass_exact"] == "1/2"
    assert {"flak-armour", "armoured-undersuit"} <= set(enforcer.profile["worn"])
    grenade = next(f"{w['key']}:0" for w in enforcer.profile["weapons"] if w["slug"] == "frag-grenade")
    plan = action_plan(
        session=battle,
        kind="shoot",
        params={"fighter": enforcer.pk, "target": enforcer.pk, "weapon": grenade, "distance": 3},
    )
    assert action_odds(session=battle, plan=plan)["save"]["needed"] == 4
    client.force_login(escher.owner)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Flak armour, Armoured undersuit (5+)" in page
    assert "Refractor field: not applied by the assistant, field armour" in page


def test_front_arc_armour_counts_when_the_action_says_so(loaded_content):
    """Heavy carapace's 3+ and a shield's bonus need the attack inside the front arc: the Shoot and Fight forms ask
    (a fight from the front by default), and the query carries it."""
    shooter = in_battle(
        {
            "stats": STATS["n18"],
            "weapons": [
                {
                    "key": "gun",
                    "name": "Laspistol",
                    "category": "pistol",
                    "profiles": [{"name": "", "query": {"weapon": "laspistol"}}],
                }
            ],
            "worn": [],
            "save": None,
        },
        "attacker",
    )
    target = in_battle({"stats": STATS["n18"], "weapons": [], "worn": ["heavy-carapace-armour"], "save": 4}, "defender")
    saves = []
    for front in (False, True):
        params = {"fighter": shooter, "target": target, "weapon": "gun:0", "distance": 4, "front_arc": front}
        query = n18.plan("shoot", params, [], None).query
        saves.append(editions.action("n18", "shoot").odds(Query(copy.deepcopy(query)))["save"]["needed"])
    assert saves == [4, 3]


# What the rulebook says each modelled skill changes, read here on its own: the query that carries it.
MODELLED_SKILLS = {"Berserker": "fight", "Iron Will": "bottle"}


@pytest.mark.parametrize("edition", ["n18", "classic"])
def test_every_skill_of_the_content_is_sent_or_listed_with_its_reason(loaded_content, edition):
    """Each skill of the shipped content, on a fighter: one the engine models goes in the query it changes (a
    Berserker's charge rolls one more Attack dice, Iron Will takes 1 off the Bottle roll); every other one is on
    the fighter's card as not applied, with the reason. Commanding Presence adds one to a Group Activation."""
    from content.models import Skill

    types = list(FighterType.objects.filter(edition=edition).select_related("house"))
    fighter_type = next((t for t in types if "Group Activation (1)" in t.special_rules), types[0])
    names = sorted(set(Skill.objects.filter(edition=edition).values_list("name", flat=True)))
    assert len(names) > 30
    sent = set()
    for name in names:
        profile = snapshot_of(
            edition=edition, fighter_type=fighter_type, stats=dict(STATS[edition]), purchases=[], skills=[name]
        )
        listed = [n for n in profile["not_applied"] if n["name"] == name]
        fighter, enemy = in_battle(profile, "attacker"), in_battle(profile, "defender")
        fight = n18.plan("fight", {"fighter": fighter, "target": enemy, "charging": True}, [], None).query
        bottle = SimpleNamespace(starting_crew=lambda side: 5, scenario="", gang=lambda side: SimpleNamespace(name="G"))
        test = n18.plan("test", {"test": "bottle", "side": "attacker"}, [fighter], bottle).query
        carried = {"fight": name in fight["attacker"].get("skills", []), "bottle": test.get("iron_will", False)}
        if edition == "n18" and name in MODELLED_SKILLS:
            assert carried[MODELLED_SKILLS[name]] and not listed, name
            sent.add(name)
            continue
        assert not any(carried.values()), name
        if name == "Commanding Presence" and edition == "n18":
            assert profile["group_activation"] == 2 and not listed
            continue
        assert len(listed) == 1 and listed[0]["reason"], name
    assert sent == (set(MODELLED_SKILLS) if edition == "n18" else set())


def test_a_berserker_charges_with_one_more_attack_dice_and_iron_will_steadies_the_bottle(loaded_content):
    fighter_type = FighterType.objects.filter(edition="n18").first()

    def fighter(skills, side):
        profile = snapshot_of(
            edition="n18", fighter_type=fighter_type, stats=dict(STATS["n18"]), purchases=[], skills=skills
        )
        return in_battle(profile, side)

    def dice(skills):
        query = n18.plan(
            "fight",
            {"fighter": fighter(skills, "attacker"), "target": fighter([], "defender"), "charging": True},
            [],
            None,
        ).query
        answer = editions.action("n18", "fight").odds(Query(query))
        return answer["attack_dice"]

    assert dice(["Berserker"]) == dice([]) + 1 == 3  # A1, +1 charging, +1 Berserker
    battle = SimpleNamespace(starting_crew=lambda side: 4, scenario="", gang=lambda side: SimpleNamespace(name="G"))
    query = n18.plan("test", {"test": "bottle", "side": "attacker"}, [fighter(["Iron Will"], "attacker")], battle).query
    steady = editions.action("n18", "test").odds(Query(dict(query)))["p_bottled"]
    plain = editions.action("n18", "test").odds(Query({**query, "iron_will": False}))["p_bottled"]
    assert steady < plain


# The wargear the rulebook applies, read here on its own: respirators and filter plugs against Gas, photo-goggles
# against Flash; a weapon of each trait, and one of neither.
MODELLED_WARGEAR = {"respirator", "filter-plugs", "industrial-respirator", "photo-goggles"}
RESISTED = {"Gas": "choke-gas-grenade", "Flash": "photon-flash-grenade"}
NEITHER = "frag-grenade"


def thrower(slug: str) -> BattleFighter:
    weapon = {"key": "gun", "name": slug, "category": "grenade", "profiles": [{"name": "", "query": {"weapon": slug}}]}
    return in_battle({"stats": STATS["n18"], "weapons": [weapon], "worn": [], "save": None}, "attacker")


@pytest.mark.parametrize("edition", ["n18", "classic"])
def test_every_wargear_item_of_the_content_is_sent_or_listed_with_its_reason(loaded_content, edition):
    """Each wargear item of the shipped content, carried by a fighter: one the engine applies goes in the Shoot query
    of the traits wargear resists (a respirator against a choke gas grenade, photo-goggles against a photon flash
    grenade) and in no other shot; an item that changes a save is the armour rules' (``worn``, or listed); a chem is taken
    before the battle (but Stinger Mould), what of it the table plays listed, and a 2018+ bionic's characteristic is in the stat line; every other item is on the fighter's
    card as not applied, with the reason. A sent item that does more than the engine applies is listed too."""
    from content.models import Equipment
    from rulebook.n18 import armour as n18_armour
    from rulebook.n18 import kit

    fighter_type = FighterType.objects.filter(edition=edition).first()
    items = list(Equipment.objects.filter(edition=edition, kind=EquipmentKind.WARGEAR).order_by("slug"))
    assert len(items) > 25
    sent = set()
    for item in items:
        profile = snapshot_of(
            edition=edition,
            fighter_type=fighter_type,
            stats=dict(STATS[edition]),
            purchases=[SimpleNamespace(pk=1, equipment=item)],
            skills=[],
        )
        listed = [n for n in profile["not_applied"] if n["name"] == item.name]
        assert all(n["reason"] for n in listed), item.slug
        if edition == "n18":
            target = in_battle(profile, "defender")
            carried = {trait: target_wargear(thrower(weapon), target) for trait, weapon in RESISTED.items()}
            if item.slug in MODELLED_WARGEAR:
                # Sent with every shot whose trait some wargear resists; the engine applies it against its own.
                assert all(found == [item.slug] for found in carried.values()), item.slug
                assert target_wargear(thrower(NEITHER), target) == [], item.slug
                sent.add(item.slug)
                continue
            assert not any(carried.values()), item.slug
            if item.category == "chem":
                # Taken before the battle (Stinger Mould kept for a Lasting Injury roll), and what of it the
                # assistant leaves to the table listed with the reason.
                taken = [item.name] if kit.taken_before_battle(item.slug) else None
                assert (profile.get("chems") or {}).get("taken") == taken, item.slug
                reason = kit.CHEMS[item.slug].not_modelled if item.slug in kit.CHEMS else ""
                assert listed == ([{"name": item.name, "reason": reason}] if reason else []), item.slug
                continue
            if item.category == "bionic":
                assert kit.bionic(item.slug) is not None and not listed, item.slug
                continue
            if n18_armour.is_known(item.slug):
                assert profile["worn"] == [item.slug] and not listed, item.slug
                continue
        assert profile["wargear"] == [], item.slug
        assert len(listed) == 1, item.slug
    assert sent == (set(MODELLED_WARGEAR) & {i.slug for i in items} if edition == "n18" else set())
    assert edition == "classic" or {"respirator", "filter-plugs", "photo-goggles"} <= sent


def target_wargear(shooter, target) -> list:
    query = n18.plan("shoot", {"fighter": shooter, "target": target, "weapon": "gun:0", "distance": 4}, [], None).query
    return query["target"].get("wargear", [])


def test_a_respirator_and_photo_goggles_change_the_odds_the_assistant_shows(loaded_content):
    """Through the plans: a choke gas grenade against T3 takes effect on 3+ of the Gas roll, 5+ with a respirator;
    a photon flash grenade's Initiative test (I 4+) fails on 1-3, on 1-2 with photo-goggles. BS 3+ hits 2/3."""
    from content.models import Equipment

    fighter_type = FighterType.objects.filter(edition="n18").first()

    def target(*slugs):
        purchases = [
            SimpleNamespace(pk=n, equipment=Equipment.objects.get(edition="n18", slug=slug))
            for n, slug in enumerate(slugs)
        ]
        profile = snapshot_of(
            edition="n18", fighter_type=fighter_type, stats=dict(STATS["n18"]), purchases=purchases, skills=[]
        )
        return in_battle(profile, "defender")

    def answer(weapon, fighter):
        params = {"fighter": thrower(weapon), "target": fighter, "weapon": "gun:0", "distance": 4}
        query = n18.plan("shoot", params, [], None).query
        return editions.action("n18", "shoot").odds(Query(copy.deepcopy(query)))

    gas = [answer("choke-gas-grenade", target(*kit))["outcome_exact"]["no_wound"] for kit in ([], ["respirator"])]
    assert gas == ["2/9", "4/9"]  # 2/3 hit x 1/3 resisted; 2/3 x 2/3
    flash = [
        answer("photon-flash-grenade", target(*kit))["effect"]["p_condition_exact"] for kit in ([], ["photo-goggles"])
    ]
    assert flash == ["1/3", "2/9"]  # 2/3 x 1/2; 2/3 x 1/3


def test_a_battle_sends_the_respirator_and_its_card_lists_the_bio_booster(loaded_content, make_user, client):
    """Through a battle started from saved gangs: a choke gas grenade at a fighter with a respirator needs a 5+ on the
    Gas roll (the query carries it), and the bio-booster the assistant does not apply is on the card with its reason."""
    from battles.selectors import action_odds, action_plan
    from battles.services import battle_start
    from rulebook.dice import SeededDice

    escher = gang_of("escher", make_user, ["choke-gas-grenade"])
    goliath = gang_of("goliath", make_user, ["respirator", "bio-booster"])
    battle = battle_start(gang_a=escher, gang_b=goliath, started_by=escher.owner, dice=SeededDice(5))
    thrower_, target = battle.fighters.order_by("side")
    assert target.profile["wargear"] == ["respirator"]
    grenade = next(f"{w['key']}:0" for w in thrower_.profile["weapons"] if w["slug"] == "choke-gas-grenade")
    params = {"fighter": thrower_.pk, "target": target.pk, "weapon": grenade, "distance": 3}
    plan = action_plan(session=battle, kind="shoot", params=params)
    assert plan.query["target"]["wargear"] == ["respirator"]
    # The hit roll against the thrower's BS, then a D6 at or above T + 2 (a 6 always takes effect), no save.
    affected = Fraction(7 - min(target.stats["T"] + 2, 6), 6)
    p_hit = Fraction(7 - thrower_.stats["BS"], 6)
    assert Fraction(action_odds(session=battle, plan=plan)["p_unsaved_exact"]) == p_hit * affected
    client.force_login(escher.owner)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "Bio-booster: not applied by the assistant, one Injury dice fewer" in page
    assert "Respirator: not applied" not in page
