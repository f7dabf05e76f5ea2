"""Every change to a gang through its service, and the ledger entries it writes."""

import pytest
from django.core.exceptions import ValidationError

from content.models import Equipment, Skill
from gangs import selectors, services
from gangs.ledger import ledger_totals
from gangs.models import FighterStatus, LedgerKind, Purchase
from gangs.stats import current_stats, stat_line
from rulebook.dice import ScriptedDice


def assert_ledger_matches(gang):
    """The Stash, Reputation and every fighter's experience equal what the ledger adds up to."""
    gang.refresh_from_db()
    totals = ledger_totals(gang)
    assert gang.stash == totals["stash"]
    assert gang.reputation == totals["reputation"]
    for fighter in gang.fighters.all():
        assert fighter.experience == totals["experience"].get(fighter.pk, 0), fighter.name


def ganger_holding_a_whole_table(make_gang, make_fighter, edition: str, table: str, xp: int):
    """A Ganger with ``xp`` to spend who has every skill of ``table``: what an advance must refuse before its
    dice, and its form leave out."""
    from gangs.models import FighterSkill

    gang = make_gang(edition=edition)
    ganger = make_fighter(gang, "ganger")
    services.experience_award(fighter=ganger, amount=xp, actor=gang.owner, reason="Test")
    for skill in Skill.objects.filter(edition=edition, table__name=table):
        FighterSkill.objects.create(fighter=ganger, skill=skill)
    return gang, ganger


def item(edition, slug):
    return Equipment.objects.get(edition=edition, slug=slug)


@pytest.mark.django_db
def test_a_new_gang_starts_with_its_house_credits_as_a_ledger_entry(make_user, make_house_list):
    owner = make_user()
    gang = services.gang_create(owner=owner, house=make_house_list("classic"), name="  Iron Rats ")
    assert (gang.name, gang.edition, gang.stash) == ("Iron Rats", "classic", 1000)
    entry = gang.ledger.get()
    assert (entry.kind, entry.credits, entry.actor) == (LedgerKind.CREDITS, 1000, owner)


@pytest.mark.django_db
def test_hiring_pays_the_price_of_the_moment_and_rolls_starting_experience(make_gang):
    gang = make_gang()
    leader_type = gang.house.fighter_types.get(category="leader")
    leader = services.fighter_hire(
        gang=gang, fighter_type=leader_type, name="Kal", actor=gang.owner, dice=ScriptedDice([5])
    )
    leader_type.cost = 200  # a later price change does not reprice the hired fighter
    leader_type.save()
    leader.refresh_from_db()
    assert (leader.cost, leader.experience, leader.starting_experience) == (120, 65, 65)
    assert leader.base_stats == {"M": 4, "WS": 4, "BS": 4, "S": 3, "T": 3, "W": 1, "I": 4, "A": 1, "Ld": 8}
    hire, xp = gang.ledger.filter(fighter=leader).order_by("pk")
    assert (hire.kind, hire.credits) == (LedgerKind.HIRE, -120)
    assert (xp.kind, xp.experience, xp.dice[0]["value"]) == (LedgerKind.EXPERIENCE, 65, 5)
    assert "60+D6" in xp.reason
    assert_ledger_matches(gang)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "hire", "message"),
    [
        (["leader"], "leader", "at most one Leader"),
        (["leader", "heavy", "heavy"], "heavy", "at most 2 Heavies"),
        (["leader", "juve"], "juve", "Juves may be at most half of the gang"),
    ],
)
def test_composition_refusals_name_the_rule_and_change_nothing(make_gang, make_fighter, first, hire, message):
    gang = make_gang()
    for kind in first:
        make_fighter(gang, kind)
    gang.refresh_from_db()
    before = (gang.stash, gang.ledger.count(), gang.fighters.count())
    with pytest.raises(ValidationError, match=message) as error:
        make_fighter(gang, hire)
    assert "Composition rule (Orlock)" in error.value.messages[0]
    gang.refresh_from_db()
    assert (gang.stash, gang.ledger.count(), gang.fighters.count()) == before


@pytest.mark.django_db
def test_an_arbitrator_override_is_recorded_before_the_hire(make_gang, make_fighter):
    gang = make_gang()
    make_fighter(gang, "leader")
    second = make_fighter(gang, "leader", override_reason="Campaign special: twin leaders")
    override = gang.ledger.get(kind=LedgerKind.OVERRIDE)
    assert override.fighter == second
    assert override.reason == "Campaign special: twin leaders"
    assert "at most one Leader" in override.description
    assert_ledger_matches(gang)


@pytest.mark.django_db
def test_a_hire_the_stash_cannot_pay_for_is_refused(make_gang, make_fighter):
    gang = make_gang()
    services.gang_override(gang=gang, actor=gang.owner, reason="Lost in a bet", credits=-900)
    with pytest.raises(ValidationError, match="The Stash holds"):
        make_fighter(gang, "leader")
    assert not gang.fighters.filter(fighter_type__category="leader").exists()


@pytest.mark.django_db
def test_buying_from_the_list_and_the_trading_post(make_gang, make_fighter):
    gang = make_gang()
    ganger = make_fighter(gang, "ganger")
    lasgun = services.purchase_buy(gang=gang, equipment=item("classic", "lasgun"), fighter=ganger, actor=gang.owner)
    flak = services.purchase_buy(gang=gang, equipment=item("classic", "flak-armour"), fighter=ganger, actor=gang.owner)
    assert (lasgun.price, flak.price) == (25, 10)
    reasons = list(gang.ledger.filter(kind=LedgerKind.PURCHASE).values_list("reason", "credits"))
    assert reasons == [("Ganger equipment list", -25), ("Trading Post", -10)]
    for slug, message in [("heavy-stubber", "not on Fighter"), ("mesh-armour", "Trading Post does not sell it")]:
        with pytest.raises(ValidationError, match=message):
            services.purchase_buy(gang=gang, equipment=item("classic", slug), fighter=ganger, actor=gang.owner)
    assert_ledger_matches(gang)


@pytest.mark.django_db
def test_n18_buys_common_items_at_the_trading_post_and_refuses_rare_ones(make_gang, make_fighter):
    gang = make_gang(edition="n18")
    boss = make_fighter(gang, "champion")
    mesh = services.purchase_buy(gang=gang, equipment=item("n18", "mesh-armour"), fighter=boss, actor=gang.owner)
    assert mesh.price == 15
    with pytest.raises(ValidationError):
        services.purchase_buy(gang=gang, equipment=item("n18", "combat-shotgun"), fighter=boss, actor=gang.owner)
    tyrant = make_fighter(gang, "leader")
    shotgun = services.purchase_buy(
        gang=gang, equipment=item("n18", "combat-shotgun"), fighter=tyrant, actor=gang.owner
    )
    assert shotgun.price == 70  # on the Forge Tyrant's own list
    assert_ledger_matches(gang)


@pytest.mark.django_db
def test_classic_sale_pays_half_the_price(make_gang, make_fighter):
    gang = make_gang()
    ganger = make_fighter(gang, "ganger")
    purchase = services.purchase_buy(gang=gang, equipment=item("classic", "lasgun"), fighter=ganger, actor=gang.owner)
    entry = services.purchase_sell(purchase=purchase, actor=gang.owner)
    assert (entry.kind, entry.credits) == (LedgerKind.SALE, 12)
    assert "half" in entry.reason
    assert not Purchase.objects.exists()
    assert_ledger_matches(gang)


@pytest.mark.django_db
@pytest.mark.parametrize(("slug", "die", "paid"), [("combat-shotgun", 2, 50), ("stub-cannon", 6, 5)])
def test_n18_sale_takes_d6x10_off_with_a_minimum_of_5(make_gang, make_fighter, slug, die, paid):
    gang = make_gang(edition="n18")
    tyrant = make_fighter(gang, "leader")
    bought = services.purchase_buy(gang=gang, equipment=item("n18", slug), fighter=tyrant, actor=gang.owner)
    entry = services.purchase_sell(purchase=bought, actor=gang.owner, dice=ScriptedDice([die]))
    assert entry.credits == paid
    assert entry.dice[0]["value"] == die
    assert "Sell Unwanted Items" in entry.reason
    assert_ledger_matches(gang)


@pytest.mark.django_db
def test_discard_move_and_retire(make_gang, make_fighter):
    gang = make_gang()
    leader, ganger, juve = make_fighter(gang, "leader"), make_fighter(gang, "ganger"), make_fighter(gang, "juve")
    lasgun = services.purchase_buy(gang=gang, equipment=item("classic", "lasgun"), fighter=ganger, actor=gang.owner)
    sword = services.purchase_buy(gang=gang, equipment=item("classic", "sword"), fighter=ganger, actor=gang.owner)
    with pytest.raises(ValidationError, match="not on .*equipment list"):
        services.purchase_move(purchase=lasgun, fighter=juve, actor=gang.owner)  # juves carry no basic weapons
    services.purchase_move(purchase=lasgun, fighter=leader, actor=gang.owner)
    services.purchase_move(purchase=sword, fighter=None, actor=gang.owner)
    assert (Purchase.objects.get(pk=lasgun.pk).fighter, Purchase.objects.get(pk=sword.pk).fighter) == (leader, None)
    services.purchase_discard(purchase=Purchase.objects.get(pk=sword.pk), actor=gang.owner)
    services.fighter_retire(fighter=leader, actor=gang.owner)
    leader.refresh_from_db()
    assert leader.status == FighterStatus.RETIRED
    assert Purchase.objects.get(pk=lasgun.pk).fighter is None  # back to the Stash
    with pytest.raises(ValidationError, match="already Retired"):
        services.fighter_retire(fighter=leader, actor=gang.owner)
    with pytest.raises(ValidationError, match="is Retired and cannot take equipment"):
        services.purchase_buy(gang=gang, equipment=item("classic", "sword"), fighter=leader, actor=gang.owner)
    with pytest.raises(ValidationError, match="is Retired and cannot advance"):
        services.fighter_advance_classic(
            fighter=leader, actor=gang.owner, dice=ScriptedDice([3, 3, 1]), skill_table="Combat"
        )
    kinds = list(gang.ledger.order_by("pk").values_list("kind", flat=True))[-4:]
    assert kinds == [LedgerKind.EQUIPMENT, LedgerKind.EQUIPMENT, LedgerKind.EQUIPMENT, LedgerKind.STATUS]
    assert_ledger_matches(gang)


@pytest.mark.django_db
@pytest.mark.parametrize(("edition", "kept"), [("classic", False), ("n18", True)])
def test_a_dead_fighters_kit_is_lost_in_classic_and_kept_in_n18(make_gang, make_fighter, edition, kept):
    gang = make_gang(edition=edition)
    leader = make_fighter(gang, "leader")
    slug = "knife" if edition == "classic" else "fighting-knife"
    services.purchase_buy(gang=gang, equipment=item(edition, slug), fighter=leader, actor=gang.owner)
    services.fighter_status_set(fighter=leader, status=FighterStatus.DEAD, actor=gang.owner, reason="Dead (11)")
    assert Purchase.objects.filter(gang=gang, fighter__isnull=True).exists() == kept
    assert not Purchase.objects.filter(fighter=leader).exists()
    entry = gang.ledger.get(kind=LedgerKind.STATUS)
    assert entry.data["equipment"][0]["equipment"] == slug
    assert ("to the Stash" in entry.description) == kept


@pytest.mark.django_db
def test_renames_are_in_the_history(make_gang, make_fighter):
    gang = make_gang(name="Old")
    fighter = make_fighter(gang, "ganger", name="Vex")
    services.gang_rename(gang=gang, name="New", actor=gang.owner)
    services.fighter_rename(fighter=fighter, name="Vexx", actor=gang.owner)
    assert list(gang.ledger.filter(kind=LedgerKind.OTHER).values_list("description", flat=True)) == [
        "Renamed from Old to New",
        "Vex renamed Vexx",
    ]


@pytest.mark.django_db
def test_classic_advance_needs_a_threshold_and_reads_entered_dice(make_gang, make_fighter):
    gang = make_gang()
    ganger = make_fighter(gang, "ganger")  # 20+D6 with the seeded die
    with pytest.raises(ValidationError, match="no advance roll due"):
        services.fighter_advance_classic(
            fighter=ganger, actor=gang.owner, dice=ScriptedDice([3, 3, 1]), skill_table="Combat"
        )
    services.experience_award(fighter=ganger, amount=40, actor=gang.owner, reason="Test battles")
    ganger.refresh_from_db()
    # From 20+D6 to 60+D6 passes 31, 41, 51 and 61.
    assert selectors.classic_advances_due(ganger, 0) == 4
    # 3 + 3 = 6: WS or BS; the D6 shows 5: BS.
    advancement = services.fighter_advance_classic(
        fighter=ganger, actor=gang.owner, dice=ScriptedDice([3, 3, 5]), skill_table="Combat"
    )
    assert advancement.description == "+1 BS"
    assert current_stats(ganger)["BS"] == 4
    entry = gang.ledger.get(kind=LedgerKind.ADVANCEMENT)
    assert [d["value"] for d in entry.dice] == [3, 3, 5]
    assert "Advance roll 6" in entry.reason
    # 2 + 1 = 3: a skill from a standard table; Combat is one of the Ganger's, the D6 4 is Feint.
    skill = services.fighter_advance_classic(
        fighter=ganger, actor=gang.owner, dice=ScriptedDice([2, 1, 4]), skill_table="Combat"
    )
    assert skill.description == "Feint (Combat)"
    assert selectors.classic_advances_due(ganger, ganger.advancements.count()) == 2
    assert_ledger_matches(gang)


@pytest.mark.django_db
def test_classic_tables_are_chosen_before_any_die_is_rolled(make_gang, make_fighter):
    gang = make_gang()
    ganger = make_fighter(gang, "ganger")
    services.experience_award(fighter=ganger, amount=10, actor=gang.owner, reason="Test")
    dice = ScriptedDice([2, 1, 4])
    with pytest.raises(ValidationError, match="Choose one of Ganger's skill tables: Combat, Ferocity, Shooting"):
        services.fighter_advance_classic(fighter=ganger, actor=gang.owner, dice=dice, skill_table="Techno")
    assert dice.remaining == 3  # nothing rolled, so a refused request cannot be used to re-roll
    assert not ganger.advancements.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("skill_table", "any_table"), [("Combat", ""), ("Shooting", "Combat")])
def test_classic_advance_on_a_table_with_no_skill_left_is_refused_before_any_die(
    make_gang, make_fighter, skill_table, any_table
):
    # The refusal used to come after the 2D6 (from the skill roll), so the roll was thrown away and the next
    # request rolled afresh: a way to fish for a characteristic.
    gang, ganger = ganger_holding_a_whole_table(make_gang, make_fighter, "classic", "Combat", xp=10)
    dice = ScriptedDice([2, 1, 4])  # 3: a skill from a standard table
    with pytest.raises(ValidationError, match="already has every Combat skill; choose another table"):
        services.fighter_advance_classic(
            fighter=ganger, actor=gang.owner, dice=dice, skill_table=skill_table, any_table=any_table
        )
    assert dice.remaining == 3  # nothing rolled
    assert not ganger.advancements.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("edition", ["classic", "n18"])
def test_an_advance_is_not_undone_from_the_history_so_its_dice_cannot_be_rolled_again(make_gang, make_fighter, edition):
    from gangs.selectors import undoable
    from gangs.services.undo import entry_undo
    from rulebook.dice import SeededDice

    gang = make_gang(edition=edition)
    ganger = make_fighter(gang, "ganger")
    services.experience_award(fighter=ganger, amount=10, actor=gang.owner, reason="Test")
    if edition == "classic":
        services.fighter_advance_classic(fighter=ganger, actor=gang.owner, dice=SeededDice(4), skill_table="Combat")
    else:
        services.fighter_advance_n18(fighter=ganger, actor=gang.owner, dice=SeededDice(4), random_table="Brawn")
    entry = gang.ledger.get(kind=LedgerKind.ADVANCEMENT)
    assert entry.dice and not undoable(entry)
    with pytest.raises(ValidationError, match="cannot be undone here"):
        entry_undo(entry=entry, actor=gang.owner)


@pytest.mark.django_db
@pytest.mark.parametrize(("any_table", "skill"), [("Techno", "Armourer (Techno)"), ("", "Combat Master (Combat)")])
def test_classic_2_or_12_rolls_on_any_table(make_gang, make_fighter, any_table, skill):
    gang = make_gang()
    ganger = make_fighter(gang, "ganger")
    services.experience_award(fighter=ganger, amount=10, actor=gang.owner, reason="Test")
    advancement = services.fighter_advance_classic(
        fighter=ganger, actor=gang.owner, dice=ScriptedDice([6, 6, 1]), skill_table="Combat", any_table=any_table
    )
    assert advancement.description == skill


@pytest.mark.django_db
def test_n18_advances_spend_experience_at_the_published_costs(make_gang, make_fighter):
    gang = make_gang(edition="n18")
    boss = make_fighter(gang, "champion")
    services.experience_award(fighter=boss, amount=30, actor=gang.owner, reason="Test")
    first = services.fighter_advance_n18(fighter=boss, actor=gang.owner, characteristic="BS")
    second = services.fighter_advance_n18(fighter=boss, actor=gang.owner, characteristic="BS")
    assert [(a.xp_cost, a.value) for a in (first, second)] == [(6, 20), (8, 20)]
    assert current_stats(boss)["BS"] == 2
    bs = next(v for v in stat_line(boss) if v.code == "BS")
    assert (bs.shown, bs.changes) == ("2+", ("4+ → 3+ (Advancement)", "3+ → 2+ (Advancement)"))
    skill = Skill.objects.get(edition="n18", name="Headbutt")
    chosen = services.fighter_advance_n18(fighter=boss, actor=gang.owner, skill=skill)
    assert (chosen.xp_cost, chosen.value) == (9, 20)  # Brawn is primary for a Forge Boss
    boss.refresh_from_db()
    assert boss.experience == 30 - 6 - 8 - 9
    with pytest.raises(ValidationError, match="costs 12 XP"):
        services.fighter_advance_n18(fighter=boss, actor=gang.owner, characteristic="W")
    random = services.fighter_advance_n18(
        fighter=boss, actor=gang.owner, random_table="Ferocity", dice=ScriptedDice([1])
    )
    assert random.description == "Berserker (Ferocity)"
    assert_ledger_matches(gang)


@pytest.mark.django_db
def test_n18_refuses_skills_outside_access_and_gangers(make_gang, make_fighter):
    gang = make_gang(edition="n18")
    boss, bruiser = make_fighter(gang, "champion"), make_fighter(gang, "ganger")
    for fighter in (boss, bruiser):
        services.experience_award(fighter=fighter, amount=20, actor=gang.owner, reason="Test")
    with pytest.raises(ValidationError, match="no access to the Leadership skills"):
        services.fighter_advance_n18(fighter=boss, actor=gang.owner, skill=Skill.objects.get(name="Mentor"))
    with pytest.raises(ValidationError, match="Gangers do not buy Advancements"):
        services.fighter_advance_n18(fighter=bruiser, actor=gang.owner, characteristic="BS")
    tyrant = make_fighter(gang, "leader")
    dice = ScriptedDice([1])
    with pytest.raises(ValidationError, match="has 0 XP; a Brawn skill costs 6 XP"):
        services.fighter_advance_n18(fighter=tyrant, actor=gang.owner, random_table="Brawn", dice=dice)
    assert dice.remaining == 1  # refused before the roll


def every_kind_of_change(gang, make_fighter):
    """One of each service that touches credits, experience, Reputation, equipment or status."""
    owner = gang.owner
    leader = make_fighter(gang, "leader")
    ganger = make_fighter(gang, "ganger")
    yield "hire"
    knife_slug = "knife" if gang.edition == "classic" else "fighting-knife"
    bought = services.purchase_buy(gang=gang, equipment=item(gang.edition, knife_slug), fighter=ganger, actor=owner)
    yield "buy"
    services.purchase_move(purchase=bought, fighter=leader, actor=owner)
    yield "move"
    services.purchase_sell(purchase=bought, actor=owner, dice=ScriptedDice([1]))
    yield "sell"
    again = services.purchase_buy(gang=gang, equipment=item(gang.edition, knife_slug), fighter=leader, actor=owner)
    services.purchase_discard(purchase=again, actor=owner)
    yield "discard"
    services.experience_award(fighter=leader, amount=20, actor=owner, reason="Battle")
    yield "experience"
    if gang.edition == "classic":
        services.fighter_advance_classic(
            fighter=leader, actor=owner, dice=ScriptedDice([3, 3, 1]), skill_table="Combat"
        )
    else:
        services.fighter_advance_n18(fighter=leader, actor=owner, characteristic="Wil")
    yield "advance"
    services.injury_record(
        fighter=ganger,
        code="eye-injury",
        name="Eye Injury",
        roll=44,
        stat_deltas={"BS": -1},
        actor=owner,
        reason="Lasting Injury",
        status=FighterStatus.RECOVERY,
    )
    yield "injury"
    services.gang_override(gang=gang, actor=owner, reason="Arbitrator fix", credits=15, reputation=2)
    yield "override"
    services.fighter_retire(fighter=ganger, actor=owner)
    yield "retire"


@pytest.mark.django_db
@pytest.mark.parametrize("edition", ["classic", "n18"])
def test_totals_equal_the_ledger_after_every_kind_of_change(make_gang, make_fighter, edition):
    gang = make_gang(edition=edition)
    assert_ledger_matches(gang)
    steps = []
    for step in every_kind_of_change(gang, make_fighter):
        steps.append(step)
        assert_ledger_matches(gang)
    assert len(steps) == 10
    gang.refresh_from_db()
    assert gang.reputation == 2


@pytest.mark.django_db
def test_a_free_recruit_costs_nothing_and_says_why(make_gang, make_confirmed_battle):
    gang = make_gang(edition="n18")
    battle = make_confirmed_battle()
    juve_type = gang.house.fighter_types.get(category="juve")
    stash = gang.stash
    kid = services.fighter_hire(
        gang=gang,
        fighter_type=juve_type,
        name="Kid",
        actor=gang.owner,
        free_reason="Home Settlement recruit roll 12",
        battle=battle,
        data={"post_battle": 7},
    )
    gang.refresh_from_db()
    assert gang.stash == stash
    hire = kid.ledger.get(kind=LedgerKind.HIRE)
    assert (hire.credits, hire.reason, hire.battle_link.battle) == (0, "Home Settlement recruit roll 12", battle)
    assert hire.data == {"post_battle": 7, "fighter_type": juve_type.slug, "price": 0, "free": True}
    assert "free recruit" in hire.description and str(juve_type.cost) in hire.description
    assert_ledger_matches(gang)


@pytest.mark.django_db
def test_an_injury_writes_its_changes_skills_and_notes_once_with_its_battle(
    make_gang, make_fighter, make_confirmed_battle
):
    gang = make_gang(edition="n18")
    ganger = make_fighter(gang, "ganger")
    battle = make_confirmed_battle()
    skill = Skill.objects.filter(edition="n18").first()
    injury = services.injury_record(
        fighter=ganger,
        code="head-injury",
        name="Head Injury",
        roll=42,
        stat_deltas={"Int": -1, "Wil": -1, "BS": 0},
        notes="Own words",
        skills=[skill, skill],
        reason="Lasting Injury",
        actor=gang.owner,
        dice=[{"die": "D66"}],
        status=FighterStatus.RECOVERY,
        battle=battle,
        data={"post_battle": 3},
    )
    # The characteristic changes are stored once, as StatChange rows: not in the injury's effects nor its entry.
    assert injury.effects == {"notes": "Own words"}
    assert sorted(injury.stat_changes.values_list("stat", "delta")) == [("Int", -1), ("Wil", -1)]
    assert "stat_deltas" not in ganger.ledger.get(kind=LedgerKind.INJURY).data
    assert list(ganger.skills.values_list("skill", "injury")) == [(skill.pk, injury.pk)]
    entries = ganger.ledger.filter(kind__in=[LedgerKind.INJURY, LedgerKind.STATUS]).order_by("pk")
    assert [(e.kind, e.battle_link.battle, e.data["post_battle"]) for e in entries] == [
        (LedgerKind.INJURY, battle, 3),
        (LedgerKind.STATUS, battle, 3),
    ]
    ganger.refresh_from_db()
    assert ganger.status == FighterStatus.RECOVERY


@pytest.mark.django_db
def test_a_captured_fighter_names_the_gang_holding_them(make_gang, make_fighter):
    gang, captors = make_gang(edition="n18"), make_gang(edition="n18")
    ganger = make_fighter(gang, "ganger")
    services.fighter_status_set(
        fighter=ganger,
        status=FighterStatus.CAPTURED,
        captured_by_id=captors.pk,
        actor=gang.owner,
        reason="Captured (55)",
    )
    ganger.refresh_from_db()
    assert ganger.captured_by == captors
    assert gang.ledger.get(kind=LedgerKind.STATUS).data["captured_by"] == captors.pk
    services.fighter_status_set(
        fighter=ganger, status=FighterStatus.ACTIVE, captured_by_id=captors.pk, actor=gang.owner, reason="Rescued"
    )
    ganger.refresh_from_db()
    assert ganger.captured_by is None


@pytest.mark.django_db
def test_a_ganger_spends_6_xp_on_the_gangers_table(make_gang, make_fighter):
    gang = make_gang(edition="n18")
    bruiser = make_fighter(gang, "ganger")
    services.experience_award(fighter=bruiser, amount=7, actor=gang.owner, reason="Test")
    toughness = current_stats(bruiser)["T"]
    dice = ScriptedDice([2, 3])  # 5: Strength or Toughness, the player prefers Toughness
    advance = services.fighter_advance_n18(fighter=bruiser, actor=gang.owner, dice=dice, prefer=["T"])
    bruiser.refresh_from_db()
    assert (advance.description, advance.xp_cost, advance.value) == ("+1 T", 6, 30)
    assert bruiser.experience == 1 and current_stats(bruiser)["T"] == toughness + 1
    entry = bruiser.ledger.get(kind=LedgerKind.ADVANCEMENT)
    assert entry.experience == -6 and entry.reason.startswith("Gangers' Advancement 5")
    assert [d["value"] for d in entry.dice] == [2, 3]
    with pytest.raises(ValidationError, match="costs 6 XP"):
        services.fighter_advance_n18(fighter=bruiser, actor=gang.owner, dice=ScriptedDice([]))
    assert_ledger_matches(gang)


@pytest.mark.django_db
def test_a_ganger_whose_primary_skill_set_is_full_is_refused_before_the_advancement_roll(make_gang, make_fighter):
    # The refusal used to come from the Specialist's skill roll, after the 2D6 had been thrown away.
    gang, bruiser = ganger_holding_a_whole_table(make_gang, make_fighter, "n18", "Ferocity", xp=6)
    dice = ScriptedDice([6, 6, 2])  # 12: Specialist
    with pytest.raises(ValidationError, match="already has every Ferocity skill; choose another Primary Skill Set"):
        services.fighter_advance_n18(fighter=bruiser, actor=gang.owner, random_table="Ferocity", dice=dice)
    assert dice.remaining == 3 and not bruiser.advancements.exists()


@pytest.mark.django_db
def test_the_ganger_advancement_form_leaves_out_a_full_primary_skill_set(client, make_gang, make_fighter):
    from django.urls import reverse

    gang, bruiser = ganger_holding_a_whole_table(make_gang, make_fighter, "n18", "Ferocity", xp=6)
    client.force_login(gang.owner)
    response = client.get(reverse("gangs:fighter-detail", args=[gang.pk, bruiser.pk]))
    field = response.context["advance_form"].fields["random_table"]
    assert [value for value, _ in field.choices] == ["Brawn"]
    assert "Not offered, every skill already taken: Ferocity." in response.content.decode()


@pytest.mark.django_db
def test_a_ganger_rolling_12_becomes_a_specialist_with_a_random_primary_skill(make_gang, make_fighter):
    gang = make_gang(edition="n18")
    bruiser = make_fighter(gang, "ganger")
    services.experience_award(fighter=bruiser, amount=6, actor=gang.owner, reason="Test")
    with pytest.raises(ValidationError, match="Primary Skill Set: Brawn, Ferocity"):
        services.fighter_advance_n18(fighter=bruiser, actor=gang.owner, random_table="Combat", dice=ScriptedDice([]))
    dice = ScriptedDice([6, 6, 2])  # 12: Specialist; D6 2 on Ferocity: Fearsome
    advance = services.fighter_advance_n18(fighter=bruiser, actor=gang.owner, random_table="Ferocity", dice=dice)
    bruiser.refresh_from_db()
    assert bruiser.fighter_type.category == "specialist" and bruiser.experience == 0
    assert advance.description == "Bruiser becomes a Bruiser Specialist: Fearsome (Ferocity)"
    assert list(bruiser.skills.values_list("skill__name", flat=True)) == ["Fearsome"]
    assert (advance.xp_cost, advance.value) == (6, 20)
    assert_ledger_matches(gang)


@pytest.mark.django_db
def test_the_classic_advance_form_leaves_out_a_table_with_no_skill_left(client, make_gang, make_fighter):
    """What the service refuses before the dice is not offered: the fighter page's form says why instead."""
    from django.urls import reverse

    gang, ganger = ganger_holding_a_whole_table(make_gang, make_fighter, "classic", "Combat", xp=10)
    client.force_login(gang.owner)
    response = client.get(reverse("gangs:fighter-detail", args=[gang.pk, ganger.pk]))
    form = response.context["advance_form"]
    offered = [value for value, _ in form.fields["skill_table"].choices]
    assert "Combat" not in offered and offered
    assert "Combat" not in [value for value, _ in form.fields["any_table"].choices]
    assert "Not offered, every skill already taken: Combat." in response.content.decode()
