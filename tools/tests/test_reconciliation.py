"""Issue 21's reconciliation breaks for each reason it reconciles: one machine-played campaign (reported by hand,
with territories, caskets, captives dealt with), then, one at a time, a ledger entry of a battle paid wrong, or
one that no rule explains, and the invariant names the gang, the battle and the reason.

Each case changes the rows inside its test's own transaction (rolled back after it): the campaign is played once
for the module."""

import pytest
from django.db.models import F

from campaigns.models import Battle, Campaign
from campaigns.selectors import territories_held
from gangs.ledger import ledger_record
from gangs.models import LedgerEntry, LedgerKind
from postbattle.models import Sequence, SequenceState
from tools.simulation import invariants, simulate
from tools.simulation.campaign import HOUSE_RULES


@pytest.fixture(scope="module")
def season(module_content, django_db_blocker):
    """The campaign of the hand-reported test in test_simulate_campaign, played once: its pk."""
    with django_db_blocker.unblock():
        simulate(edition="n18", gangs=3, cycles=3, seed=4, out=lambda *a: None, policy="hand")
        return Campaign.objects.get().pk


@pytest.fixture
def loaded_content(module_content, db):
    return module_content


def _live(season, **filters):
    entries = LedgerEntry.objects.filter(
        battle_link__battle__campaign=season, reverses__isnull=True, reversed_by__isnull=True, **filters
    )
    entry = entries.select_related("gang", "fighter__gang", "battle_link__battle").order_by("pk").first()
    assert entry is not None, f"the season has no entry {filters}: the case cannot be tried"
    return entry, entry.battle_link.battle


def _broken(battle: Battle, gang_name: str, reason: str) -> None:
    problem = invariants.reconciled(battle)
    assert problem.startswith(f"{gang_name} in battle {battle.pk} ("), problem
    assert reason in problem, problem


def test_the_season_reconciles(loaded_content, season):
    for battle in Battle.objects.filter(campaign=season, status="confirmed"):
        assert invariants.reconciled(battle) == ""


# An entry of each reason paid 10 more than its rule gives: (its reason starts so, or its kind is, the words named).
PAID_MORE = [
    ("Collect Income: Settlement", {"reason": "Collect Income: Settlement"}, "Collect Income: Settlement"),
    ("Collect Income: Home Settlement", {"reason": "Collect Income: Home Settlement"}, "Collect Income: Home"),
    ("Loot casket", {"reason__startswith": "Loot casket"}, "loot caskets"),
    ("Claim Bounties", {"reason__startswith": "Post-battle action: Claim Bounties:"}, "Claim Bounties"),
    ("Sell to Guilders", {"reason__startswith": "Post-battle action: Sell to Guilders:"}, "Sell to Guilders"),
    ("a scenario's credits", {"reason__startswith": "credits for ", "credits__gt": 0}, "credits for "),
]


@pytest.mark.parametrize(("case", "filters", "reason"), PAID_MORE, ids=[c[0] for c in PAID_MORE])
def test_ten_credits_more_than_the_rule_gives_are_found(loaded_content, season, case, filters, reason):
    entry, battle = _live(season, **filters)
    LedgerEntry.objects.filter(pk=entry.pk).update(credits=F("credits") + 10)
    _broken(battle, entry.gang.name, reason)


def test_experience_more_than_the_record_gives_is_found(loaded_content, season):
    entry, battle = _live(season, reason__startswith="experience for fighter: 1 x")
    LedgerEntry.objects.filter(pk=entry.pk).update(experience=F("experience") + 1)
    _broken(battle, entry.fighter.gang.name, "standard experience")


def test_a_scenario_reward_that_is_not_its_dice_is_found(loaded_content, season):
    entry, battle = _live(season, reason__startswith="credits for ", credits__gt=0)
    die = next(d for d in entry.dice if d["die"] == "D6")
    die["value"] = 1 if die["value"] != 1 else 2  # the amount stays, the recorded die says otherwise
    LedgerEntry.objects.filter(pk=entry.pk).update(dice=entry.dice)
    _broken(battle, entry.gang.name, "the recorded dice give")


def _sequence(battle: Battle, gang) -> Sequence:
    return Sequence.objects.get(battle=battle, gang=gang, state=SequenceState.APPLIED)


def _extra(battle: Battle, gang, **fields) -> None:
    """An entry written in the name of ``gang``'s applied sequence of ``battle``, as the sequence writes them."""
    data = {"post_battle": _sequence(battle, gang).pk, **fields.pop("data", {})}
    ledger_record(gang=gang, battle=battle, data=data, description=fields.pop("description", "Extra"), **fields)


def _any_battle(season) -> Battle:
    return Battle.objects.filter(campaign=season, status="confirmed").select_related("attacker").order_by("pk").first()


def test_a_bounty_without_a_captive_is_found(loaded_content, season):
    battle = _any_battle(season)
    reason = "Post-battle action: Claim Bounties: Nobody (the bounty: all of 250)"
    _extra(battle, battle.attacker, kind=LedgerKind.CREDITS, credits=250, reason=reason)
    _broken(battle, battle.attacker.name, "Post-battle action: Claim Bounties: owed 0 credits")


def test_income_from_a_territory_not_held_is_found(loaded_content, season):
    battle = _any_battle(season)
    _extra(battle, battle.attacker, kind=LedgerKind.CREDITS, credits=30, reason="Collect Income: Old Ruins")
    _broken(battle, battle.attacker.name, "Collect Income: Old Ruins: not held at confirmation")


def test_a_free_recruit_no_roll_gave_is_found(loaded_content, season):
    battle = _any_battle(season)
    _extra(battle, battle.attacker, kind=LedgerKind.HIRE, reason="Free recruit: Home Settlement recruit (66)")
    _broken(battle, battle.attacker.name, "free recruit")


def test_reputation_for_a_territory_the_battle_was_not_fought_for_is_found(loaded_content, season):
    battle = Battle.objects.filter(campaign=season, status="confirmed", stakes__isnull=True).order_by("pk").first()
    _extra(battle, battle.attacker, kind=LedgerKind.TERRITORY, reputation=1, description="Took Settlement")
    _broken(battle, battle.attacker.name, "Took Settlement: a territory the battle was not fought for")


def test_house_rule_credits_unpaid_and_unowed_are_found(loaded_content, season):
    """The simulation's house rules pay the winner (tools.simulation.campaign.HOUSE_RULES)."""
    battle = Battle.objects.filter(campaign=season, status="confirmed", winner__isnull=False).order_by("pk").first()
    won = HOUSE_RULES["winner_credits"]
    _extra(battle, battle.winner, kind=LedgerKind.CREDITS, credits=50, data={"house_rule": "winner_credits"})
    _broken(battle, battle.winner.name, f"house rule winner_credits: owed {won} credits, the ledger holds {won + 50}")
    LedgerEntry.objects.filter(battle_link__battle=battle, data__house_rule="winner_credits").update(credits=0)
    _broken(battle, battle.winner.name, f"house rule winner_credits: owed {won} credits, the ledger holds 0")


def test_credits_no_rule_explains_are_found(loaded_content, season):
    battle = _any_battle(season)
    _extra(battle, battle.attacker, kind=LedgerKind.OTHER, credits=5, reason="Found under a floor plate")
    _broken(battle, battle.attacker.name, "Found under a floor plate: +5 credits that no rule explains")


def test_workshop_income_to_a_law_abiding_gang_is_found(loaded_content, season):
    """The Workshop pays income to an Outlaw gang only (rulebook.n18.campaign.territories): the simulated gangs are
    Law-abiding, so whatever its dice, a Law-abiding holder is owed none of it."""
    for battle in Battle.objects.filter(campaign=season, status="confirmed").order_by("pk"):
        for gang in (battle.attacker, battle.defender):
            roster = battle.roster_at_confirmation[str(gang.pk)]
            held = [t.territory.name for t in territories_held(battle, gang)]
            if "Workshop" in held and not roster["outlaw"]:
                _extra(battle, gang, kind=LedgerKind.CREDITS, credits=30, reason="Collect Income: Workshop")
                _broken(battle, gang.name, "Collect Income: Workshop: the recorded dice give 0 credits")
                return
    pytest.fail("no Law-abiding gang held the Workshop in a battle of the season")


def test_lasting_injury_experience_that_is_not_its_die_is_found(loaded_content, season):
    battle = _any_battle(season)
    fighter = battle.attacker.fighters.order_by("pk").first()
    d3 = [{"die": "D3", "for": "Lesson Learned experience", "value": 2}]
    reason = "Lasting Injury: Lesson Learned (41): goes into Convalescence and gains D3 experience"
    _extra(battle, battle.attacker, kind=LedgerKind.EXPERIENCE, fighter=fighter, experience=3, reason=reason, dice=d3)
    _broken(battle, battle.attacker.name, "3 XP; the recorded D3 gives [2]")


# A Rescue Mission's rewards (2023 Core Rulebook), each paid wrong by one: (its reason starts so).
RESCUE_PAID_WRONG = [
    "experience for fighter who freed a captive",
    "experience for captive freed",
    "reputation for attacker: 2",
    "reputation for defender: -1",
]


@pytest.mark.parametrize("reason", RESCUE_PAID_WRONG)
def test_a_rescue_mission_reward_paid_wrong_is_found(loaded_content, season, reason):
    """The season's Rescue Missions won reconcile; one reward paid one more (or the captive's entry left unpaid, the
    captive's XP being exactly 1) is found."""
    entry, battle = _live(season, reason__startswith=reason)
    field = "experience" if reason.startswith("experience") else "reputation"
    LedgerEntry.objects.filter(pk=entry.pk).update(**{field: F(field) + 1})
    _broken(battle, (entry.fighter.gang if entry.fighter_id else entry.gang).name, reason)


def test_a_rescue_reward_left_unpaid_is_found(loaded_content, season):
    entry, battle = _live(season, reason__startswith="experience for captive freed")
    LedgerEntry.objects.filter(pk=entry.pk).delete()
    _broken(battle, entry.fighter.gang.name, "experience for captive freed")
