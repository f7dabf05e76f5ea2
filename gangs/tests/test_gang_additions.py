"""Hangers-on, Brutes and Hired Guns: the Reputation cap, the notice when Reputation drops and letting one
go, hiring a Hired Gun for one battle (paid from the Stash, in that battle's crew, gone after its report)
and what the gang rating counts (2023 Core Rulebook, Gang Additions; rulebook/data/n18/gang_additions.json)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import Battle, BattleOrigin, BattleStatus
from gangs.ledger import ledger_record, ledger_totals
from gangs.models import FighterStatus, LedgerKind
from gangs.selectors import gang_queryset, lazy_roster, let_go_notice, roster_page
from gangs.services import fighter_hire, fighter_let_go, gang_override
from gangs.testing import build_gang_additions, build_n18_house


@pytest.fixture
def additions(db):
    return build_gang_additions()


def _reputation(gang, amount: int):
    ledger_record(gang=gang, kind=LedgerKind.REPUTATION, reputation=amount, description="Test Reputation")
    gang.refresh_from_db()


def _roster(gang):
    return lazy_roster(gang_queryset().get(pk=gang.pk))


@pytest.mark.django_db
def test_a_hanger_on_is_hired_with_credits_and_its_kit_within_the_cap(make_gang, additions):
    gang = make_gang(edition="n18")
    _reputation(gang, 1)
    doc = fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name="Sawbones", actor=gang.owner)
    gang.refresh_from_db()
    assert gang.stash == 1000 - 50 and doc.cost == 50
    assert [p.equipment.slug for p in doc.purchases.all()] == ["medicae-kit"]
    assert [p.price for p in doc.purchases.all()] == [0]
    with pytest.raises(ValidationError, match="Reputation 1 allows 1 Hanger-on or Brute"):
        fighter_hire(gang=gang, fighter_type=additions["dome-runner"], name="Runner", actor=gang.owner)
    assert ledger_totals(gang)["stash"] == gang.stash


@pytest.mark.django_db
def test_hangers_on_do_not_count_toward_the_house_lists_rules(make_gang, make_fighter, additions):
    gang = make_gang(edition="n18")
    _reputation(gang, 10)
    make_fighter(gang, "leader")
    for name in ("Doc", "Other Doc"):
        fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name=name, actor=gang.owner)
    # The house list needs half its gang to be Gangers or Juves: two Rogue Docs do not make that fail.
    assert _roster(gang).problems == ["Goliath: Gangers and Juves must be at least half of the gang (0 of 1 are)"]
    with pytest.raises(ValidationError, match="at most 2 Rogue Doc per gang"):
        fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name="Third", actor=gang.owner)


@pytest.mark.django_db
def test_an_arbitrator_may_pass_the_cap_with_a_reason(make_gang, additions):
    gang = make_gang(edition="n18")
    fighter = fighter_hire(
        gang=gang,
        fighter_type=additions["dome-runner"],
        name="Runner",
        actor=gang.owner,
        override_reason="Club starts gangs at Reputation 1",
    )
    entry = gang.ledger.get(kind=LedgerKind.OVERRIDE)
    assert "Reputation 0 allows 0" in entry.description and entry.fighter == fighter


@pytest.mark.django_db
def test_a_house_pays_its_own_price(make_user, additions):
    from gangs.services import gang_create

    orlock = gang_create(owner=make_user(), house=build_n18_house("orlock", "Orlock"), name="Diggers")
    _reputation(orlock, 5)
    ambot = fighter_hire(gang=orlock, fighter_type=additions["ambot"], name="Digger", actor=orlock.owner)
    assert ambot.cost == 185 and orlock.ledger.get(kind=LedgerKind.HIRE).credits == -185


@pytest.mark.django_db
def test_the_gang_additions_list_founds_no_gang(make_user, additions):
    from gangs.services import gang_create

    with pytest.raises(ValidationError, match="not a gang list"):
        gang_create(owner=make_user(), house=additions["ambot"].house, name="Nope")


@pytest.mark.django_db
def test_a_reputation_drop_names_who_must_go_and_letting_one_go_is_a_ledger_entry(make_gang, additions):
    gang = make_gang(edition="n18")
    _reputation(gang, 5)
    doc = fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name="Doc", actor=gang.owner)
    fighter_hire(gang=gang, fighter_type=additions["dome-runner"], name="Runner", actor=gang.owner)
    assert let_go_notice(roster_page(gang.owner, gang.pk)) is None
    gang_override(gang=gang, actor=gang.owner, reason="Lost a battle badly", reputation=-1)
    notice = let_go_notice(roster_page(gang.owner, gang.pk))
    assert (notice["must"], notice["cap"], [f.name for f in notice["held"]]) == (1, 1, ["Doc", "Runner"])
    doc.refresh_from_db()
    doc.gang = gang
    fighter_let_go(fighter=doc, actor=gang.owner)
    doc.refresh_from_db()
    assert doc.status == FighterStatus.RETIRED and not doc.purchases.exists()
    entry = gang.ledger.filter(kind=LedgerKind.STATUS, fighter=doc).get()
    assert "Reputation 4 allows 1" in entry.reason and entry.data["let_go"] is True
    assert let_go_notice(roster_page(gang.owner, gang.pk)) is None


@pytest.mark.django_db
def test_only_hangers_on_and_brutes_are_let_go(make_gang, make_fighter):
    gang = make_gang(edition="n18")
    leader = make_fighter(gang, "leader")
    with pytest.raises(ValidationError, match="not a Hanger-on or Brute"):
        fighter_let_go(fighter=leader, actor=gang.owner)


# --- Hired Guns -----------------------------------------------------------------------------------


@pytest.fixture
def scheduled(make_campaign):
    def make():
        campaign = make_campaign(edition="n18", gangs=2, started=True)
        attacker, defender = [m.gang for m in campaign.memberships.select_related("gang").order_by("pk")]
        return Battle.objects.create(
            campaign=campaign,
            origin=BattleOrigin.ARRANGED,
            attacker=attacker,
            defender=defender,
            scenario="the-trap",
            scenario_name="The Trap",
        )

    return make


@pytest.mark.django_db
def test_a_hired_gun_is_paid_from_the_stash_for_one_battle_and_counts_while_hired(scheduled, make_fighter, additions):
    battle = scheduled()
    gang = battle.attacker
    make_fighter(gang, "leader")
    before = _roster(gang).rating
    scum = fighter_hire(gang=gang, fighter_type=additions["hive-scum"], name="Scum", actor=gang.owner, hired_for=battle)
    gang.refresh_from_db()
    hire = gang.ledger.get(kind=LedgerKind.HIRE, fighter=scum)
    assert hire.credits == -30 and hire.data["hired_for"] == battle.pk and str(battle) in hire.description
    roster = _roster(gang)
    # Not on the roster, but in the rating while hired ("a Hired Gun increases the gang's Rating").
    assert [r.fighter for r in roster.hired_guns] == [scum] and scum not in [r.fighter for r in roster.fighters]
    assert roster.rating == before + 30


@pytest.mark.django_db
def test_hired_guns_need_a_coming_battle_and_keep_their_limit_per_battle(scheduled, additions):
    battle = scheduled()
    gang = battle.attacker
    with pytest.raises(ValidationError, match="hire them for one of the gang's coming battles"):
        fighter_hire(gang=gang, fighter_type=additions["bounty-hunter"], name="Kal", actor=gang.owner)
    fighter_hire(gang=gang, fighter_type=additions["bounty-hunter"], name="Kal", actor=gang.owner, hired_for=battle)
    with pytest.raises(ValidationError, match="at most one Bounty Hunter for one battle"):
        fighter_hire(gang=gang, fighter_type=additions["bounty-hunter"], name="Yol", actor=gang.owner, hired_for=battle)
    other = scheduled()
    with pytest.raises(ValidationError, match="coming battle the gang fights"):
        fighter_hire(gang=gang, fighter_type=additions["hive-scum"], name="X", actor=gang.owner, hired_for=other)
    battle.status = BattleStatus.REPORTED
    battle.save()
    with pytest.raises(ValidationError, match="coming battle"):
        fighter_hire(gang=gang, fighter_type=additions["hive-scum"], name="Late", actor=gang.owner, hired_for=battle)


@pytest.mark.django_db
def test_hired_guns_join_the_crew_and_leave_when_the_report_is_confirmed(scheduled, make_fighter, additions):
    from campaigns.selectors import crew_candidates
    from campaigns.services import battle_crew_select, battle_report_confirm, battle_report_submit
    from rulebook.dice import ScriptedDice

    battle = scheduled()
    gang = battle.attacker
    for kind in ("leader", "ganger"):
        make_fighter(gang, kind)
    for kind in ("leader", "ganger"):
        make_fighter(battle.defender, kind)
    _reputation(gang, 1)
    doc = fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name="Doc", actor=gang.owner)
    rating = _roster(gang).rating
    scum = fighter_hire(gang=gang, fighter_type=additions["hive-scum"], name="Scum", actor=gang.owner, hired_for=battle)
    assert _roster(gang).rating == rating + 30
    candidates = crew_candidates(gang)
    assert scum not in candidates and doc not in candidates  # a Rogue Doc stays at the hideout
    picks = [f.pk for f in candidates]
    battle = battle_crew_select(battle=battle, side="attacker", chosen=picks, dice=ScriptedDice([6] * 10))
    assert str(scum.pk) in battle.crews["attacker"]["fighters"] and battle.crews["attacker"]["hired_guns"] == [
        str(scum.pk)
    ]
    battle_report_submit(
        battle=battle, actor=gang.owner, winner=gang, fighter_results=[{"fighter": scum.pk, "outcome": "out_of_action"}]
    )
    battle_report_confirm(battle=battle, actor=battle.defender.owner, is_arbitrator=False)
    scum.refresh_from_db()
    assert scum.status == FighterStatus.RETIRED
    entry = gang.ledger.get(kind=LedgerKind.STATUS, fighter=scum)
    assert entry.battle_link.battle == battle and "contract" in entry.reason
    after = _roster(gang)
    assert after.hired_guns == [] and after.rating == rating  # gone, and out of the rating


# --- pages ----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_gang_page_hires_a_hanger_on_and_shows_the_notice_with_let_go(client, make_gang, make_user, additions):
    gang = make_gang(edition="n18")
    _reputation(gang, 1)
    client.force_login(gang.owner)
    page = client.get(gang.get_absolute_url())
    assert b"Hangers-on and Brutes" in page.content and b"Rogue Doc (Hanger-on, 50 credits)" in page.content
    response = client.post(
        reverse("gangs:fighter-hire", args=[gang.pk]), {"fighter_type": additions["rogue-doc"].pk, "name": "Sawbones"}
    )
    assert response.status_code == 302
    doc = gang.fighters.get(name="Sawbones")
    gang_override(gang=gang, actor=gang.owner, reason="Humiliated", reputation=-1)
    page = client.get(gang.get_absolute_url())
    assert b'data-testid="let-go-notice"' in page.content and b"Let Sawbones go" in page.content
    let_go = reverse("gangs:fighter-let-go", args=[gang.pk, doc.pk])
    client.logout()
    assert client.post(let_go).status_code == 302  # to the log-in page
    client.force_login(make_user())
    assert client.post(let_go).status_code == 403  # a viewer who may only look
    client.force_login(gang.owner)
    assert client.get(let_go).status_code == 405
    response = client.post(let_go)
    assert response.status_code == 302
    doc.refresh_from_db()
    assert doc.status == FighterStatus.RETIRED
    assert b'data-testid="let-go-notice"' not in client.get(gang.get_absolute_url()).content


@pytest.mark.django_db
def test_the_gang_page_hires_a_hired_gun_for_a_coming_battle(client, scheduled, additions):
    battle = scheduled()
    gang = battle.attacker
    client.force_login(gang.owner)
    page = client.get(gang.get_absolute_url())
    assert b"Hire a Hired Gun for a battle" in page.content
    response = client.post(
        reverse("gangs:hired-gun-hire", args=[gang.pk]),
        {"fighter_type": additions["hive-scum"].pk, "battle": battle.pk, "name": "Scum"},
    )
    assert response.status_code == 302
    assert gang.fighters.get(name="Scum").battle_hire.battle == battle
    page = client.get(gang.get_absolute_url())
    assert b"Hired Guns" in page.content and b"Scum" in page.content


@pytest.mark.django_db
def test_export_and_import_carry_hangers_on_but_not_hired_guns(scheduled, make_fighter, make_user, additions):
    import json

    from gangs import exchange

    battle = scheduled()
    gang = battle.attacker
    make_fighter(gang, "leader")
    _reputation(gang, 1)
    fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name="Doc", actor=gang.owner)
    fighter_hire(gang=gang, fighter_type=additions["hive-scum"], name="Scum", actor=gang.owner, hired_for=battle)
    exported = exchange.gang_export(gang)
    names = [f["name"] for f in exported["fighters"]]
    assert "Doc" in names and "Scum" not in names
    doc = next(f for f in exported["fighters"] if f["name"] == "Doc")
    assert doc["type"] == "gang-additions-rogue-doc" and doc["equipment"] == [{"equipment": "medicae-kit", "price": 0}]
    imported = exchange.gang_import(owner=make_user(), data=json.loads(json.dumps(exported)))
    assert exchange.gang_export(imported)["fighters"] == exported["fighters"]
    scum = {**doc, "name": "Scum", "type": "gang-additions-hive-scum"}
    with pytest.raises(
        ValidationError, match="'gang-additions-hive-scum' is not a fighter type of the Goliath house list"
    ):
        exchange.gang_import(owner=make_user(), data={**exported, "fighters": [*exported["fighters"], scum]})


@pytest.mark.django_db
def test_the_battle_assistant_brings_the_hired_gun_in_and_leaves_the_rogue_doc_home(scheduled, make_fighter, additions):
    from battles.services import battle_start_from_campaign

    battle = scheduled()
    for gang in (battle.attacker, battle.defender):
        for kind in ("leader", "ganger"):
            make_fighter(gang, kind)
    gang = battle.attacker
    _reputation(gang, 1)
    doc = fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name="Doc", actor=gang.owner)
    scum = fighter_hire(gang=gang, fighter_type=additions["hive-scum"], name="Scum", actor=gang.owner, hired_for=battle)
    session = battle_start_from_campaign(campaign_battle=battle, started_by=gang.owner)
    in_play = set(session.fighters.filter(side="attacker").values_list("fighter_id", flat=True))
    assert scum.pk in in_play and doc.pk not in in_play
    assert session.starting_crew_a == len(in_play) == 3  # Leader, Ganger and the Hired Gun on top


@pytest.mark.django_db
def test_the_battle_and_crew_pages_name_the_hired_gun(client, scheduled, make_fighter, additions):
    battle = scheduled()
    gang = battle.attacker
    make_fighter(gang, "leader")
    fighter_hire(gang=gang, fighter_type=additions["hive-scum"], name="Scummy Pete", actor=gang.owner, hired_for=battle)
    client.force_login(gang.owner)
    detail = client.get(reverse("campaigns:battle-detail", args=[battle.campaign_id, battle.pk])).content.decode()
    assert "Hired Guns joining the crew: Scummy Pete" in detail
    crew = client.get(reverse("campaigns:battle-crew", args=[battle.campaign_id, battle.pk, "attacker"]))
    assert "joining the crew after the picks: Scummy Pete." in crew.content.decode()


@pytest.mark.django_db
def test_print_lists_the_hanger_on_on_the_roster_and_the_hired_gun_on_a_card(client, scheduled, additions):
    battle = scheduled()
    gang = battle.attacker
    _reputation(gang, 1)
    fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name="Doc Holly", actor=gang.owner)
    fighter_hire(gang=gang, fighter_type=additions["hive-scum"], name="Scummy Pete", actor=gang.owner, hired_for=battle)
    client.force_login(gang.owner)
    url = reverse("gangs:gang-print", args=[gang.pk])
    roster = client.get(url).content.decode()
    assert "Rogue Doc (Hanger-on)" in roster and "Scummy Pete" not in roster
    cards = client.get(url + "?cards=1").content.decode()
    assert "Hive Scum (Hired Gun)" in cards and "Medicae kit" in cards


@pytest.mark.django_db
def test_a_cancelled_battle_sends_its_hired_guns_away_with_their_fee_back(scheduled, additions):
    from campaigns.services import battle_cancel

    battle = scheduled()
    gang = battle.attacker
    scum = fighter_hire(gang=gang, fighter_type=additions["hive-scum"], name="Scum", actor=gang.owner, hired_for=battle)
    battle_cancel(battle=battle, actor=battle.campaign.created_by, reason="the gangs could not meet")
    scum.refresh_from_db()
    gang.refresh_from_db()
    assert scum.status == FighterStatus.RETIRED and gang.stash == 1000 == ledger_totals(gang)["stash"]
    assert _roster(gang).hired_guns == []


@pytest.mark.django_db
def test_hangers_on_buy_only_from_their_list(make_gang, additions):
    from content.models import Equipment
    from gangs.selectors import buyable_equipment
    from gangs.services import purchase_buy

    gang = make_gang(edition="n18")
    _reputation(gang, 1)
    doc = fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name="Doc", actor=gang.owner)
    assert [item.slug for item, _, _ in buyable_equipment(gang, doc)] == ["autopistol"]  # the kit came with him
    lasgun = Equipment.objects.get(edition="n18", slug="lasgun")  # Common at the Trading Post
    with pytest.raises(ValidationError):
        purchase_buy(gang=gang, equipment=lasgun, fighter=doc, actor=gang.owner)
    from gangs.selectors import sale_value
    from rulebook.dice import ScriptedDice

    kit = doc.purchases.get()
    assert sale_value(gang, kit, ScriptedDice([]))[0] == 0


@pytest.mark.django_db
def test_a_hanger_ons_page_offers_its_list_and_no_advancement(client, make_gang, additions):
    gang = make_gang(edition="n18")
    _reputation(gang, 1)
    doc = fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name="Doc", actor=gang.owner)
    client.force_login(gang.owner)
    page = client.get(reverse("gangs:fighter-detail", args=[gang.pk, doc.pk])).content.decode()
    assert "Hangers-on never gain Experience or Advancements." in page
    assert "Spend experience" not in page and "Autopistol" in page and "Lasgun" not in page


@pytest.mark.django_db
def test_a_hanger_ons_free_list_choice_is_free_once_per_kind_of_weapon(make_gang, additions):
    """Issue 26 #13: an Ammo-jack bought boltguns and power weapons at 0 as often as wished. The card's "a boltgun
    or a combat shotgun and a power hammer or power sword" is one free choice per kind of weapon, made when hired;
    another costs the Trading Post's price, and a choice sold does not come free again."""
    from content.models import Equipment, FighterTypeEquipment
    from gangs.selectors import buyable_equipment, price_now
    from gangs.services import purchase_buy, purchase_sell
    from rulebook.dice import ScriptedDice

    items = {e.slug: e for e in Equipment.objects.filter(edition="n18")}
    for slug in ("stub-cannon", "fighting-knife"):  # a second pistol to choose from, and a close combat weapon
        FighterTypeEquipment.objects.create(fighter_type=additions["rogue-doc"], equipment=items[slug], cost=0)
    gang = make_gang(edition="n18")
    _reputation(gang, 1)
    doc = fighter_hire(gang=gang, fighter_type=additions["rogue-doc"], name="Doc", actor=gang.owner)

    def offered():
        return {item.slug: price for item, price, _ in buyable_equipment(gang, doc)}

    assert offered() == {"autopistol": 0, "stub-cannon": 0, "fighting-knife": 0}
    pistol = purchase_buy(gang=gang, equipment=items["autopistol"], fighter=doc, actor=gang.owner)
    assert pistol.price == 0
    assert offered() == {"autopistol": 10, "stub-cannon": 20, "fighting-knife": 0}
    assert price_now(gang, items["stub-cannon"], doc)[0] == 20
    assert purchase_buy(gang=gang, equipment=items["fighting-knife"], fighter=doc, actor=gang.owner).price == 0
    assert purchase_buy(gang=gang, equipment=items["autopistol"], fighter=doc, actor=gang.owner).price == 10
    purchase_sell(purchase=pistol, actor=gang.owner, dice=ScriptedDice([]))
    assert offered() == {"autopistol": 10, "stub-cannon": 20, "fighting-knife": 15}
    gang.refresh_from_db()
    assert gang.stash == 1000 - 50 - 10 and ledger_totals(gang)["stash"] == gang.stash
