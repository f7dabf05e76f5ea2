"""The Trade post-battle action (issue 21): its 2D6 is the Availability Level, recorded and final; until the gang's
next battle it may buy Rare and Illegal items up to that level at the Trading Post, each purchase a ledger entry."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from content.models import Equipment
from gangs.selectors import buyable_equipment, trading_post_level
from gangs.services import purchase_buy
from postbattle import services
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(make_confirmed_battle):
    return make_confirmed_battle(edition="n18")


def item(slug, rarity, cost):
    return Equipment.objects.create(
        edition="n18",
        slug=slug,
        name=slug.replace("-", " ").capitalize(),
        kind="weapon",
        category="special",
        cost=cost,
        rarity=rarity,
    )


def trade(battle, dice):
    """The attacker's sequence, its Leader trading (the Champion too) in the post-battle actions."""
    gang = battle.attacker
    _, _, leader, champion = gang.fighters.order_by("pk")
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    for _ in range(4):
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice([3] * 8), actor=gang.owner, choices={"recruit": False}
        )
    choices = {
        f"action_{leader.pk}": "Trade",
        f"action_{champion.pk}": "Trade",
        f"seek_{leader.pk}": True,
        f"seek_{champion.pk}": True,
    }
    sequence = services.sequence_step_submit(
        sequence=sequence, dice=ScriptedDice(dice), entered=True, choices=choices, actor=gang.owner
    )
    return sequence


def test_a_trade_without_seeking_rare_items_rolls_nothing(battle):
    gang = battle.attacker
    _, _, leader, champion = gang.fighters.order_by("pk")
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    for _ in range(4):
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice([3] * 8), actor=gang.owner, choices={"recruit": False}
        )
    sequence = services.sequence_step_submit(
        sequence=sequence,
        dice=ScriptedDice([]),
        entered=True,
        actor=gang.owner,
        choices={f"action_{leader.pk}": "Trade"},
    )
    assert not [e for e in sequence.draft["steps"]["actions"]["effects"] if e["op"] == "trade"]
    # The account says what happened: no Availability Level was rolled, so it names no 2D6.
    (line,) = [ln for ln in sequence.draft["steps"]["actions"]["lines"] if ln["fighter"] == leader.name]
    assert "2D6" not in line["text"] and "without seeking Rare or Illegal items" in line["text"]


def test_trade_rolls_the_availability_level_and_the_gang_buys_rare_and_illegal_items_up_to_it(battle):
    gang = battle.attacker
    plasma, needler, heavy = (
        item("plasma-gun", "R9", 100),
        item("needle-rifle", "I9", 60),
        item("lascannon", "R12", 200),
    )
    with pytest.raises(ValidationError, match="Trading Post does not sell it now"):
        purchase_buy(gang=gang, equipment=plasma, actor=gang.owner)  # no Trade yet: Common items only
    sequence = trade(battle, [4, 3, 5, 4])  # Leader 7, Champion 9: the gang buys at 9
    lines = [line["text"] for line in sequence.draft["steps"]["actions"]["lines"]]
    assert any("Availability Level 5 + 4 = 9" in text for text in lines)
    assert [e["level"] for e in sequence.draft["steps"]["actions"]["effects"] if e["op"] == "trade"] == [7, 9]
    sequence = services.sequence_step_submit(sequence=sequence, dice=ScriptedDice([]), entered=True, actor=gang.owner)
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    assert trading_post_level(gang) == 9
    offers = {equipment.slug: where for equipment, _, where in buyable_equipment(gang, None)}
    assert "plasma-gun" in offers and "needle-rifle" in offers and "lascannon" not in offers
    gang.refresh_from_db()
    stash = gang.stash
    bought = purchase_buy(gang=gang, equipment=plasma, actor=gang.owner)
    entry = gang.ledger.order_by("-pk").first()
    assert bought.price == 100
    assert entry.credits == -100 and "R9, at Availability Level 9" in entry.reason
    gang.refresh_from_db()
    assert gang.stash == stash - 100
    assert purchase_buy(gang=gang, equipment=needler, actor=gang.owner).price == 60  # Illegal (9): by availability
    with pytest.raises(ValidationError):
        purchase_buy(gang=gang, equipment=heavy, actor=gang.owner)


def test_a_trade_shows_in_the_owners_buy_list_at_once(battle, client, cache_backend):
    """The fighter page's buy list is drawn once per version of the gang (gangs.views._fighter_page): the Trade
    action's entries move it when the sequence is applied."""
    gang = battle.attacker
    plasma = str(item("plasma-gun", "R9", 100).pk)
    champion = gang.fighters.order_by("pk")[3]
    target = reverse("gangs:fighter-detail", args=[gang.pk, champion.pk])
    client.force_login(gang.owner)
    client.get(target)
    assert f'value="{plasma}"' not in client.get(target).content.decode()
    sequence = trade(battle, [4, 3, 5, 4])
    sequence = services.sequence_step_submit(sequence=sequence, dice=ScriptedDice([]), entered=True, actor=gang.owner)
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    assert f'value="{plasma}"' in client.get(target).content.decode()


def test_going_back_cannot_roll_the_trade_again_and_a_revert_closes_the_trading_post(battle):
    gang = battle.attacker
    sequence = trade(battle, [1, 1, 2, 1])
    sequence = services.sequence_step_back(sequence=sequence, to=4, actor=gang.owner)
    _, _, leader, champion = gang.fighters.order_by("pk")
    # Now only the Champion seeks: he is the first trader and gets the first trader's dice, not new ones.
    swapped = {f"action_{leader.pk}": "Trade", f"action_{champion.pk}": "Trade", f"seek_{champion.pk}": True}
    sequence = services.sequence_step_submit(
        sequence=sequence, dice=ScriptedDice([]), entered=True, choices=swapped, actor=gang.owner
    )
    assert [e["level"] for e in sequence.draft["steps"]["actions"]["effects"] if e["op"] == "trade"] == [2]
    sequence = services.sequence_step_submit(sequence=sequence, dice=ScriptedDice([]), entered=True, actor=gang.owner)
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    assert trading_post_level(gang) == 2
    services.sequence_revert(sequence=sequence, actor=battle.campaign.created_by, reason="the wrong fighter traded")
    assert trading_post_level(gang) is None


def test_exotic_furs_add_one_to_their_wearers_trade_roll(battle):
    """Exotic Furs: +1 to the Availability Level roll of the fighter wearing them (2023 Core Rulebook, Status Items,
    necrovox copy; rulebook.n18.campaign.trading). The kit is read as it stood when the battle was confirmed."""
    from gangs.models import Purchase

    gang = battle.attacker
    _, _, leader, _ = gang.fighters.order_by("pk")
    furs = Equipment.objects.filter(edition="n18", slug="exotic-furs").first() or Equipment.objects.create(
        edition="n18", slug="exotic-furs", name="Exotic Furs", kind="wargear", category="status", cost=50, rarity="R12"
    )
    Purchase.objects.create(gang=gang, fighter=leader, equipment=furs, price=50)
    sequence = trade(battle, [4, 3, 5, 4])  # Leader 7 + 1 (Exotic Furs) = 8, Champion 9
    lines = [line["text"] for line in sequence.draft["steps"]["actions"]["lines"]]
    assert any("Availability Level 4 + 3 + 1 (Exotic Furs) = 8" in text for text in lines)
    assert [e["level"] for e in sequence.draft["steps"]["actions"]["effects"] if e["op"] == "trade"] == [8, 9]
