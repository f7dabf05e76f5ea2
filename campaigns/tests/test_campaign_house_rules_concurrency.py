"""Twenty arbitrators' tabs saving the same house rules at once make one new version (the campaign row is locked;
the others find those rules in force and are told nothing changed)."""

from campaigns.models import Campaign, HouseRules
from campaigns.services.house_rules import house_rules_change
from core.testing import race_marks

pytestmark = race_marks()


def test_twenty_saves_of_the_same_house_rules_make_one_version(make_campaign, at_once):
    campaign = make_campaign(gangs=2)
    arbitrator = campaign.arbitrators.first().user
    outcomes = at_once(
        20,
        lambda c: house_rules_change(campaign=c, actor=arbitrator, winner_credits=25, banned_items=["lasgun"]),
        load=lambda: Campaign.objects.get(pk=campaign.pk),
    )
    assert outcomes == ["done"] + ["refused"] * 19
    assert HouseRules.objects.filter(campaign=campaign).count() == 2
