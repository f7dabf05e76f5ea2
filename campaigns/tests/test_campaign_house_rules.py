"""House rules that apply: each setting applied by the services with a ledger entry naming the rule, a change
logged and applied from then on, never backwards; the settings form and who may use it."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from campaigns import services
from campaigns.models import CampaignTerritory, HouseRules, IncomeVariant
from campaigns.selectors import house_rules_history as history
from campaigns.selectors import join_flags, rules_in_force
from campaigns.services.house_rules import house_rules_change
from content.models import Equipment, Territory
from gangs.ledger import ledger_totals
from gangs.models import Gang, LedgerEntry, LedgerKind
from gangs.services import fighter_hire, purchase_buy
from gangs.testing import build_gang_additions
from postbattle import services as postbattle
from postbattle.tests.test_postbattle_services import n18_battle, n18_full_run

pytestmark = pytest.mark.django_db


def _arbitrator(campaign):
    return campaign.arbitrators.first().user


def _rule_entries(gang):
    return list(gang.ledger.filter(data__has_key="house_rule").order_by("pk"))


def test_a_new_campaign_starts_with_its_rules_and_each_change_is_a_new_logged_version(make_user):
    arbitrator = make_user()
    campaign = services.campaign_create(user=arbitrator, edition="n18", name="Dust Falls", starting_credits=1200)
    first = rules_in_force(campaign)
    assert first.pk and first.starting_credits == 1200 and first.winner_credits == 0
    second = house_rules_change(
        campaign=campaign, actor=arbitrator, note="Richer start", winner_credits=50, starting_credits=1500
    )
    assert rules_in_force(campaign) == second
    assert rules_in_force(campaign, first.in_force_from) == first  # what held then still holds for then
    campaign.refresh_from_db()
    assert campaign.starting_credits == 1500  # the page's header follows the rule
    (newest, changes), (oldest, _) = history(campaign)
    assert newest == second and newest.note == "Richer start" and newest.changed_by == arbitrator
    assert changes == ["starting credits: 1200 → 1500", "winner credits: 0 → 50"]
    with pytest.raises(ValidationError, match="nothing changed"):
        house_rules_change(campaign=campaign, actor=arbitrator, winner_credits=50)
    assert HouseRules.objects.filter(campaign=campaign).count() == 2


def test_joining_pays_the_starting_credits_and_reputation_by_the_rule(make_user, make_gang):
    arbitrator = make_user()
    campaign = services.campaign_create(user=arbitrator, edition="n18", name="Dust Falls", starting_credits=1250)
    house_rules_change(campaign=campaign, actor=arbitrator, starting_reputation=2)
    gang = make_gang(edition="n18")
    founded = gang.stash
    services.campaign_join(campaign=campaign, gang=gang, user=gang.owner)
    gang.refresh_from_db()
    credits, reputation = _rule_entries(gang)
    assert credits.credits == 1250 - gang.house.starting_credits and gang.stash == founded + credits.credits
    assert credits.reason.startswith("House rule of Dust Falls (since ")
    assert reputation.reputation == 2 and reputation.description == "Starting Reputation in Dust Falls"
    totals = ledger_totals(gang)
    assert (totals["stash"], totals["reputation"]) == (gang.stash, gang.reputation)


def test_a_gang_that_spent_more_than_the_campaign_starts_with_cannot_join(make_user, make_gang):
    arbitrator = make_user()
    campaign = services.campaign_create(user=arbitrator, edition="n18", name="Lean Times", starting_credits=100)
    gang = make_gang(edition="n18")
    gang.stash = 0
    gang.save()
    LedgerEntry.objects.create(
        gang=gang, kind=LedgerKind.CREDITS, credits=-gang.house.starting_credits, description="Spent it all"
    )
    with pytest.raises(ValidationError, match="cannot join"):
        services.campaign_join(campaign=campaign, gang=gang, user=gang.owner)
    assert not campaign.memberships.exists()


def test_a_battle_pays_by_the_rules_in_force_when_it_was_confirmed_and_a_revert_takes_it_back(
    make_confirmed_battle, client
):
    battle = n18_battle(make_confirmed_battle)
    campaign, gang = battle.campaign, battle.attacker
    arbitrator = _arbitrator(campaign)
    rules = house_rules_change(
        campaign=campaign,
        actor=arbitrator,
        winner_credits=40,
        loser_credits=15,
        credits_per_out_of_action=10,
        income_variant=IncomeVariant.PER_TERRITORY,
        income_amount=5,
    )
    battle.confirmed_at = timezone.now()
    battle.save(update_fields=["confirmed_at"])
    # A change after the battle was confirmed does not reach back to it.
    house_rules_change(campaign=campaign, actor=arbitrator, winner_credits=1000, credits_per_out_of_action=500)
    held = CampaignTerritory.objects.filter(campaign=campaign, holder=gang).count()
    sequence = n18_full_run(battle)
    # The sequence page says what the house rules will add before the player applies.
    client.force_login(gang.owner)
    page = client.get(reverse("postbattle:sequence-detail", args=[battle.pk, gang.pk])).content.decode()
    assert "The campaign's house rules add, when you apply" in page and "40 credits for the win" in page
    stash = gang.stash
    application = postbattle.sequence_apply(sequence=sequence, actor=gang.owner)
    paid = _rule_entries(gang)
    assert [(e.data["house_rule"], e.credits) for e in paid] == [
        ("winner_credits", 40),
        ("credits_per_out_of_action", 10),
        ("income_amount", 5 * held),
    ]
    assert paid[1].description == "House rule: 10 credits: 1 enemies taken Out of Action × 10"
    assert all(e.battle_link.battle == battle and e.data["post_battle"] == sequence.pk for e in paid)
    assert paid[0].reason == f"House rule of {campaign.name} (since {rules.in_force_from:%Y-%m-%d %H:%M} UTC)"
    gang.refresh_from_db()
    assert gang.stash > stash + 40
    totals = ledger_totals(gang)
    assert (totals["stash"], totals["reputation"]) == (gang.stash, gang.reputation)
    # Reverting the sequence takes the house rules' credits back with the rest.
    postbattle.sequence_revert(sequence=application.sequence, actor=arbitrator, reason="a die was misread")
    gang.refresh_from_db()
    assert gang.stash == stash
    assert all(e.reversed_by for e in _rule_entries(gang) if e.reverses is None)


@pytest.mark.parametrize("variant", [IncomeVariant.PER_TERRITORY, IncomeVariant.FLAT])
def test_an_income_variant_replaces_the_rules_income_in_the_ledger(make_confirmed_battle, variant):
    battle = n18_battle(make_confirmed_battle)
    campaign, gang = battle.campaign, battle.attacker
    held = CampaignTerritory.objects.filter(campaign=campaign, holder=gang).count()
    assert held  # the Home Settlement at least: the rules' income would pay
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), income_variant=variant, income_amount=7)
    battle.confirmed_at = timezone.now()
    battle.save(update_fields=["confirmed_at"])
    sequence = n18_full_run(battle)
    income_lines = sequence.draft["steps"]["income"]["lines"]
    assert not [e for e in sequence.draft["steps"]["income"]["effects"] if e["op"] == "credits"]
    assert income_lines[-1]["rule"] == "House rule" and "in place of the" in income_lines[-1]["text"]
    postbattle.sequence_apply(sequence=sequence, actor=gang.owner)
    # The ledger: no credits from Collect Income, the house rule's instead, and the totals still agree.
    assert not gang.ledger.filter(kind=LedgerKind.CREDITS, reason__startswith="Collect Income").exists()
    paid = [(e.data["house_rule"], e.credits) for e in _rule_entries(gang)]
    assert paid == [("income_amount", 7 * held if variant == IncomeVariant.PER_TERRITORY else 7)]
    gang.refresh_from_db()
    totals = ledger_totals(gang)
    assert (totals["stash"], totals["reputation"]) == (gang.stash, gang.reputation)


def test_the_rules_income_stands_without_a_variant(make_confirmed_battle):
    battle = n18_battle(make_confirmed_battle)
    sequence = n18_full_run(battle)
    postbattle.sequence_apply(sequence=sequence, actor=battle.attacker.owner)
    assert battle.attacker.ledger.filter(kind=LedgerKind.CREDITS, reason__startswith="Collect Income").exists()


def test_income_per_territory_counts_the_territories_held_at_confirmation(make_confirmed_battle):
    """Issue 21: a territory taken after the battle was confirmed is not paid for by its house rule (nor by a re-run
    after a revert), as the rules' income is not; found by the simulation's reconciliation."""
    from campaigns.selectors import house_rules_due

    battle = n18_battle(make_confirmed_battle)
    campaign, gang = battle.campaign, battle.attacker
    house_rules_change(
        campaign=campaign, actor=_arbitrator(campaign), income_variant=IncomeVariant.PER_TERRITORY, income_amount=7
    )
    battle.confirmed_at = timezone.now()
    held = list(CampaignTerritory.objects.filter(campaign=campaign, holder=gang).values_list("pk", flat=True))
    battle.held_at_confirmation = {str(gang.pk): held}
    battle.save(update_fields=["confirmed_at", "held_at_confirmation"])
    territory = Territory.objects.create(edition="n18", name="Old Ruins", slug="old-ruins", income="D3x10")
    later = services.territory_add(campaign=campaign, territory=territory)
    services.territory_assign(held=later, holder=gang, actor=None, reason="Taken after the battle")
    assert [(p.rule, p.credits) for p in house_rules_due(battle, gang)] == [("income_amount", 7 * len(held))]


def test_the_loser_and_a_flat_income_are_paid_too(make_confirmed_battle):
    battle = n18_battle(make_confirmed_battle)
    campaign, loser = battle.campaign, battle.defender
    house_rules_change(
        campaign=campaign,
        actor=_arbitrator(campaign),
        loser_credits=15,
        income_variant=IncomeVariant.FLAT,
        income_amount=30,
    )
    from campaigns.selectors import post_battle_payments

    payments = post_battle_payments(battle, loser, held_territories=3)
    assert [(p.rule, p.credits) for p in payments] == [("loser_credits", 15), ("income_amount", 30)]
    battle.winner, battle.is_draw = None, True
    assert [(p.rule, p.description) for p in post_battle_payments(battle, battle.attacker, 0)][0] == (
        "loser_credits",
        "15 credits for a draw",
    )


def test_a_challenge_outside_the_rating_cap_or_gap_is_refused(make_campaign, make_fighter):
    campaign = make_campaign(gangs=2, started=True)
    services.cycle_advance(campaign=campaign)
    low, high = [m.gang for m in campaign.memberships.select_related("gang").order_by("pk")]
    for _ in range(3):
        make_fighter(high, "ganger")
    from campaigns.selectors import rating_of

    gap = rating_of(high) - rating_of(low)
    assert gap > 0
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), rating_gap=gap - 1)
    with pytest.raises(ValidationError, match=f"differ by more than {gap - 1}"):
        services.challenge_issue(
            campaign=campaign, challenger=low, target=high, rescue=False, stakes=_stakes(campaign, high)
        )
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), rating_gap=None, rating_cap=rating_of(low))
    with pytest.raises(ValidationError, match=f"rated above {rating_of(low)}"):
        services.challenge_issue(campaign=campaign, challenger=low, target=high, stakes=_stakes(campaign, high))
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), rating_cap=None)
    battle = services.challenge_issue(campaign=campaign, challenger=low, target=high, stakes=_stakes(campaign, high))
    assert battle.attacker == low


def _stakes(campaign, target):
    from content.models import Territory

    territory = Territory.objects.filter(edition="n18").exclude(slug="settlement").first() or Territory.objects.create(
        edition="n18", slug="old-ruins", name="Old Ruins"
    )
    return CampaignTerritory.objects.create(campaign=campaign, territory=territory, holder=target)


def test_a_banned_item_is_refused_to_the_campaigns_gangs_and_an_override_says_so(make_campaign, make_fighter):
    campaign = make_campaign(gangs=1)
    gang = campaign.memberships.get().gang
    fighter = make_fighter(gang, "ganger")
    lasgun = Equipment.objects.get(edition="n18", slug="lasgun")
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), banned_items=["lasgun"])
    with pytest.raises(ValidationError, match="its Trading Post does not sell Lasgun"):
        purchase_buy(gang=gang, equipment=lasgun, fighter=fighter, actor=gang.owner)
    purchase_buy(gang=gang, equipment=lasgun, fighter=fighter, actor=_arbitrator(campaign), override_reason="Prize")
    assert gang.ledger.filter(kind=LedgerKind.OVERRIDE).exists()
    # Lifted from now on: bought as usual.
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), banned_items=[])
    purchase_buy(gang=gang, equipment=lasgun, fighter=fighter, actor=gang.owner)


def test_a_ban_leaves_the_owners_buy_list_at_once_and_a_lifted_one_brings_it_back(
    client, cache_backend, make_campaign, make_fighter
):
    """The fighter page's buy list is drawn once per version of the gang (gangs.views._fighter_page): a change of
    the house rules moves the version of every gang of the campaign (campaigns.apps)."""
    campaign = make_campaign(gangs=1)
    gang = campaign.memberships.get().gang
    fighter = make_fighter(gang, "ganger")
    target = reverse("gangs:fighter-detail", args=[gang.pk, fighter.pk])
    lasgun = str(Equipment.objects.get(edition="n18", slug="lasgun").pk)
    client.force_login(gang.owner)
    client.get(target)
    assert f'value="{lasgun}"' in client.get(target).content.decode()
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), banned_items=["lasgun"])
    assert f'value="{lasgun}"' not in client.get(target).content.decode()
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), banned_items=[])
    assert f'value="{lasgun}"' in client.get(target).content.decode()


def test_hangers_on_wait_for_the_first_battle_when_the_rules_say_so(make_confirmed_battle, make_campaign):
    additions = build_gang_additions()
    campaign = make_campaign(gangs=2, started=True)
    gang = campaign.memberships.order_by("pk").first().gang
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), additions_before_first_battle=False)
    with pytest.raises(ValidationError, match="only after the gang's first battle"):
        fighter_hire(gang=gang, fighter_type=additions["dome-runner"], name="Runner", actor=gang.owner)
    make_confirmed_battle(campaign=campaign)
    hired = fighter_hire(gang=gang, fighter_type=additions["dome-runner"], name="Runner", actor=gang.owner)
    assert hired.fighter_type.category == "hanger_on"


def test_the_settings_section_and_form(client, make_campaign, make_user):
    campaign = make_campaign(gangs=1)
    url = reverse("campaigns:house-rules", args=[campaign.pk])
    player = campaign.memberships.get().gang.owner
    assert client.get(url).status_code == 302  # anonymous: to the login page
    client.force_login(make_user())
    assert client.get(url).status_code == 404
    client.force_login(player)
    assert client.get(url).status_code == 403
    page = client.get(reverse("campaigns:campaign-detail", args=[campaign.pk])).content.decode()
    assert "House rules that apply" in page and url not in page
    client.force_login(_arbitrator(campaign))
    form = client.get(url)
    assert form.status_code == 200 and 'name="winner_credits"' in form.content.decode()
    data = {
        "starting_credits": 1000,
        "starting_reputation": 0,
        "winner_credits": 30,
        "loser_credits": 10,
        "credits_per_out_of_action": 5,
        "income_variant": "flat",
        "income_amount": 20,
        "rating_cap": "",
        "rating_gap": 300,
        "banned_items": ["lasgun"],
        "additions_before_first_battle": "on",
        "note": "Club rules 2027",
    }
    response = client.post(url, data)
    assert response.status_code == 302 and response["Location"].endswith("#settings")
    rules = rules_in_force(campaign)
    assert (rules.winner_credits, rules.rating_gap, rules.banned_items, rules.note) == (
        30,
        300,
        ["lasgun"],
        "Club rules 2027",
    )
    page = client.get(reverse("campaigns:campaign-detail", args=[campaign.pk])).content.decode()
    assert "30 / 10" in page and "Club rules 2027" in page and "winner credits: 0 → 30" in page
    # Bad values: the form again with the errors, nothing changed.
    response = client.post(url, {**data, "winner_credits": -5, "income_variant": "lots"})
    assert response.status_code == 200 and HouseRules.objects.filter(campaign=campaign).count() == 2
    errors = response.context["house_rules_form"].errors
    assert set(errors) == {"winner_credits", "income_variant"}
    # The same rules again: refused in words on the form.
    response = client.post(url, data)
    assert "nothing changed" in response.content.decode()
    assert client.put(url).status_code == 405


def test_a_rule_changed_between_battles_pays_each_battle_by_its_own(make_confirmed_battle):
    battle = n18_battle(make_confirmed_battle)
    campaign = battle.campaign
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), winner_credits=40)
    earlier = timezone.now() - timedelta(days=1)  # confirmed before any house rule was set
    battle.confirmed_at = earlier
    battle.save(update_fields=["confirmed_at"])
    from campaigns.selectors import post_battle_payments

    assert post_battle_payments(battle, battle.attacker, 0) == []


def test_the_buy_lists_leave_out_what_the_campaign_bans_at_no_query_more(make_campaign, make_fighter):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from gangs.selectors import buyable_equipment

    campaign = make_campaign(gangs=1)
    gang = campaign.memberships.get().gang
    fighter = make_fighter(gang, "ganger")

    def offered(with_rare=False):
        with CaptureQueriesContext(connection) as queries:
            offers = {item.slug: where for item, _, where in buyable_equipment(gang, fighter, with_rare=with_rare)}
        return offers, len(queries)

    before, queries = offered()
    assert "lasgun" in before
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), banned_items=["lasgun"])
    after, banned_queries = offered()
    assert "lasgun" not in after and set(before) - set(after) == {"lasgun"}
    assert banned_queries == queries
    assert "lasgun" not in {item.slug for item, _, _ in buyable_equipment(gang, None)}  # nor for the Stash
    # The arbitrator's list names it banned: an override buys it (the service's rule).
    assert offered(with_rare=True)[0]["lasgun"] == "banned by the campaign's house rules: by override"
    # Lifted from now on: offered again.
    house_rules_change(campaign=campaign, actor=_arbitrator(campaign), banned_items=[])
    assert "lasgun" in offered()[0]


def test_a_gang_founded_for_the_campaign_starts_with_its_reputation_once(client, make_user, make_house_list):
    arbitrator = make_user()
    campaign = services.campaign_create(user=arbitrator, edition="n18", name="Dust Falls", starting_credits=1000)
    house_rules_change(campaign=campaign, actor=arbitrator, starting_reputation=3)
    house = make_house_list("n18")
    player = make_user()
    client.force_login(player)
    url = reverse("campaigns:campaign-join", args=[campaign.invite_token])
    page = client.get(url).content.decode()
    assert "Found a gang for Dust Falls" in page and "starting Reputation, 3" in page
    response = client.post(url, {"found": "1", "name": "Rust Rats", "house": house.pk})
    gang = Gang.objects.get(owner=player)
    assert response.status_code == 302 and gang.reputation == 3 and gang.name == "Rust Rats"
    entry = gang.ledger.get(kind=LedgerKind.REPUTATION)
    assert entry.data == {"campaign": campaign.pk, "house_rule": "starting_reputation"}
    assert entry.reason.startswith("House rule of Dust Falls")
    join = campaign.join_requests.get(gang=gang)
    services.join_accept(join=join, actor=arbitrator)
    gang.refresh_from_db()
    # Joining does not give it again (the Home Settlement's +1 is the rules').
    assert gang.reputation == 4 and gang.ledger.filter(data__house_rule="starting_reputation").count() == 1
    totals = ledger_totals(gang)
    assert (totals["stash"], totals["reputation"]) == (gang.stash, gang.reputation)
    # A stale house choice is refused in the game's words, nothing founded.
    response = client.post(url, {"found": "1", "name": "Ghosts", "house": 999999})
    assert "That choice is not on offer now" in response.content.decode()
    assert Gang.objects.filter(owner=player).count() == 1


def test_a_campaigns_starting_reputation_does_not_follow_a_gang_it_refused_into_another(
    client, make_user, make_house_list
):
    """A gang founded for a campaign whose arbitrator then refuses it keeps that campaign's starting Reputation
    (the ledger says so), but it is that campaign's to give: joining another takes it off."""
    generous = make_user()
    campaign = services.campaign_create(user=generous, edition="n18", name="Dust Falls", starting_credits=1000)
    house_rules_change(campaign=campaign, actor=generous, starting_reputation=500)
    house = make_house_list("n18")
    player = make_user()
    client.force_login(player)
    client.post(
        reverse("campaigns:campaign-join", args=[campaign.invite_token]),
        {"found": "1", "name": "Rust Rats", "house": house.pk},
    )
    gang = Gang.objects.get(owner=player)
    services.join_refuse(join=campaign.join_requests.get(gang=gang), actor=generous)
    club_arbitrator = make_user()
    club = services.campaign_create(user=club_arbitrator, edition="n18", name="The Club", starting_credits=1000)
    assert "500 Reputation" in {f.code: f.text for f in join_flags(gang, club)}["unvouched"]
    services.join_accept(join=services.join_request(campaign=club, gang=gang, user=player), actor=club_arbitrator)
    gang.refresh_from_db()
    assert gang.reputation == 1  # the club's Home Settlement only
    totals = ledger_totals(gang)
    assert (totals["stash"], totals["reputation"]) == (gang.stash, gang.reputation)
