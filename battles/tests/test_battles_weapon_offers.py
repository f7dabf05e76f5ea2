"""Every weapon profile of the shipped content (both editions, as ``manage.py load_content`` loads it) that the Shoot
and Fight menus offer is one the rulebook resolves; each one they leave out says why, and is refused if sent anyway.

The options are built by the menus' own forms from fighters whose snapshots hold every weapon (through
``battles.roster.weapon_entry``, as a battle's start takes them), so a weapon added to the content that the rulebook
cannot resolve fails here."""

import copy
from fractions import Fraction
from types import SimpleNamespace

import pytest
from django.core.exceptions import ValidationError

from battles.forms import FightForm, ShootForm
from battles.roster import weapon_entry
from battles.selectors import action_odds, action_plan
from battles.services import action_resolve, battle_start
from content.models import Equipment, EquipmentKind, FighterType, House
from gangs.services import fighter_hire, gang_create
from rulebook import editions
from rulebook.dice import SeededDice
from rulebook.query import Query

pytestmark = pytest.mark.django_db
HOUSE = {"n18": "goliath", "classic": "orlock"}


@pytest.fixture
def armed(module_content, make_user):
    """``armed(edition)`` → (battle, attacker, target, every weapon of the edition's content as snapshot entries).
    The content is loaded once for the module (``module_content``); each test's gangs and battle are its own."""

    def make(edition):
        gangs = []
        for n in range(2):
            house = House.objects.get(edition=edition, slug=HOUSE[edition])
            gang = gang_create(owner=make_user(), house=house, name=f"Armoury {n}")
            leader = FighterType.objects.filter(house=house, category="leader").first()
            fighter_hire(gang=gang, fighter_type=leader, name=f"Leader {n}", actor=gang.owner, dice=SeededDice(3))
            gangs.append(gang)
        battle = battle_start(gang_a=gangs[0], gang_b=gangs[1], started_by=gangs[0].owner, dice=SeededDice(5))
        attacker, target = battle.fighters.order_by("side")
        weapons = Equipment.objects.filter(edition=edition, kind=EquipmentKind.WEAPON, is_active=True)
        entries = [
            weapon_entry(edition, SimpleNamespace(pk=1000 + n, equipment=item))
            for n, item in enumerate(weapons.prefetch_related("profiles"))
            if item.profiles.all()
        ]
        return battle, attacker, target, entries

    return make


def arm(fighter, entries):
    fighter.profile = {**fighter.profile, "weapons": entries}
    fighter.save()


def resolves(battle, kind, params, fighters):
    """The rulebook gives the odds of the action and rolls it (seeded dice): it accepts it."""
    plan = action_plan(session=battle, kind=kind, params=params, fighters=fighters)
    assert action_odds(session=battle, plan=plan)
    editions.action(battle.edition, plan.rule).roll(Query(copy.deepcopy(plan.query)), SeededDice(1))


def shoot_form(battle, fighters, shooter, target):
    """The Shoot form as a player completes it: the nearest range band the weapon has (none for a template)."""
    for band in ("short", "long"):
        form = ShootForm(
            {"shooter": shooter, "target": target.pk, "band": band, "cover": "none"}, session=battle, fighters=fighters
        )
        if form.is_valid():
            return form
    raise AssertionError(f"{shooter}: {form.errors.as_text()}")


@pytest.mark.parametrize("edition", ["n18", "classic"])
def test_every_profile_the_shoot_menu_offers_resolves(armed, edition):
    battle, shooter, target, entries = armed(edition)
    arm(shooter, entries)
    fighters = list(battle.fighters.all())
    menu = ShootForm(session=battle, fighters=fighters, initial={"fighter": shooter.pk})
    offered = [value for value, _ in menu.fields["shooter"].choices if value]
    assert len(offered) > 30  # the test is not vacuous: most of the armoury is there
    for value in offered:
        form = shoot_form(battle, fighters, value, target)
        resolves(battle, "shoot", form.params(), fighters)
    for why in menu.fields["shooter"].left_out:  # each says why in words, and the rulebook agrees
        assert why.endswith(".") and ": " in why


@pytest.mark.parametrize("edition", ["n18", "classic"])
def test_every_close_combat_profile_resolves_for_the_attacker_and_the_target(armed, edition):
    battle, attacker, target, entries = armed(edition)
    fighters = list(battle.fighters.all())
    for entry in entries:
        # As the target, his weapons are the ones he parries and strikes back with.
        for holder, other in ((attacker, target), (target, attacker)):
            arm(holder, [entry])
            arm(other, [])
            fighters = list(battle.fighters.all())
            form = FightForm({"fighter": attacker.pk}, session=battle, fighters=fighters)
            choices = [v for v, _ in form.fields["attacker"].choices if v] if edition == "n18" else [attacker.pk]
            for value in choices:
                data = {"attacker": value, "target": target.pk, "reaction": True}
                form = FightForm(data, session=battle, fighters=fighters)
                assert form.is_valid(), form.errors
                resolves(battle, "fight", form.params(), fighters)


def test_n18_menus_offer_the_grav_gun_and_put_a_combi_weapons_melee_profile_in_the_fight(armed):
    battle, shooter, target, entries = armed("n18")
    by_slug = {e["slug"]: e for e in entries}
    arm(shooter, [by_slug["grav-gun"], by_slug["cawdor-charger-autogun"], by_slug["nightshade-chem-thrower"]])
    fighters = list(battle.fighters.all())
    shoot = ShootForm(session=battle, fighters=fighters, initial={"fighter": shooter.pk})
    assert [label for _, label in shoot.fields["shooter"].choices] == [
        "Grav gun",  # its Graviton Pulse is resolved (issue 22): a Strength roll, then Damage with no save
        "Cawdor charger/autogun (reclaimed autogun)",
        "'Nightshade' chem-thrower",  # its Strength and Damage are printed "-": a Gas weapon, resolved
    ]
    assert shoot.fields["shooter"].left_out == []
    fight = FightForm(session=battle, fighters=fighters, initial={"fighter": shooter.pk})
    assert [label for _, label in fight.fields["attacker"].choices] == [
        "Cawdor charger/autogun (charger)",
        "Bare hands",
    ]


@pytest.mark.parametrize(
    ("edition", "slug", "kind"),
    [
        ("n18", "cawdor-charger-autogun", "shoot"),
        ("n18", "web-gauntlet", "fight"),
        ("n18", "blast-pistol", "fight"),
        ("classic", "smoke-grenade", "shoot"),
    ],
)
def test_a_profile_left_out_and_sent_anyway_is_refused_in_words(armed, edition, slug, kind):
    battle, shooter, target, entries = armed(edition)
    entry = next(e for e in entries if e["slug"] == slug)
    arm(shooter, [entry])
    params = {"fighter": shooter, "target": target, "distance": 6, "weapon": f"{entry['key']}:0"}  # the charger's
    # first profile is its melee one
    with pytest.raises(ValidationError, match="roll it at the table|not used in close combat|use it in a fight"):
        action_resolve(session=battle, kind=kind, params=params, actor=battle.player_a)


def test_a_classic_fight_leaves_out_the_web_pistol_and_says_why(armed):
    battle, attacker, target, entries = armed("classic")
    arm(attacker, [next(e for e in entries if e["slug"] == "web-pistol")])
    fighters = list(battle.fighters.all())
    form = FightForm(session=battle, fighters=fighters, initial={"fighter": attacker.pk})
    assert form.fields["attacker"].left_out == [
        "Web pistol: it strikes no blows that wound, and its special effect is not resolved by the assistant yet; "
        "roll it at the table."
    ]
    plan = action_plan(session=battle, kind="fight", params={"fighter": attacker, "target": target}, fighters=fighters)
    assert plan.query["attacker"]["weapons"] == []  # he fights bare-handed


def test_special_ammunition_is_its_own_line_in_the_shoot_menu_with_its_own_odds(armed):
    # Executioner shells (issue 25): Acc +1 at long range where the shotgun's solid slug has none. The Forge Tyrant
    # (BS 3+) hits a T4 Forge Tyrant without armour on 2+ (5/6) and wounds with S4 on 4+ (1/2): 5/12 unsaved; the
    # solid slug hits on 3+: 2/3 × 1/2 = 1/3.
    battle, shooter, target, entries = armed("n18")
    by_slug = {e["slug"]: e for e in entries}
    arm(shooter, [by_slug["shotgun"], by_slug["shotgun-executioner"]])
    arm(target, [])
    fighters = list(battle.fighters.all())
    menu = ShootForm(session=battle, fighters=fighters, initial={"fighter": shooter.pk})
    choices = {label: value for value, label in menu.fields["shooter"].choices if value}
    assert list(choices) == ["Shotgun (solid slug)", "Shotgun (scatter)", "Shotgun: executioner (executioner)"]

    def unsaved(label):
        data = {"shooter": choices[label], "target": target.pk, "band": "long", "cover": "none"}
        form = ShootForm(data, session=battle, fighters=fighters)
        assert form.is_valid(), form.errors
        plan = action_plan(session=battle, kind="shoot", params=form.params(), fighters=fighters)
        return Fraction(action_odds(session=battle, plan=plan)["p_unsaved_exact"])

    assert (unsaved("Shotgun: executioner (executioner)"), unsaved("Shotgun (solid slug)")) == (
        Fraction(5, 12),
        Fraction(1, 3),
    )
