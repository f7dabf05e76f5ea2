"""The 2018+ territories' boons (rulebook.n18.campaign.territories): every territory the content ships has
one, with its source; income, who collects, enhanced boons, doubles, the Gambling Den's card."""

import pytest

from rulebook.dice import ScriptedDice
from rulebook.errors import RulesInputError
from rulebook.n18.campaign import territories as t

DOMINION = {
    "settlement",
    "old-ruins",
    "rogue-doc-shop",
    "promethium-cache",
    "wastes",
    "workshop",
    "sludge-sea",
    "collapsed-dome",
    "refuse-drift-cawdor",
    "corpse-farm-cawdor",
    "bone-shrine-cawdor",
    "drinking-hole-delaque",
    "gambling-den-delaque",
    "needle-ways-delaque",
    "synth-still-escher",
    "stinger-mould-sprawl-escher",
    "narco-den-escher",
    "slag-furnace-goliath",
    "fighting-pit-goliath",
    "smelting-works-goliath",
    "mine-workings-orlock",
    "tunnels-orlock",
    "toll-crossing-orlock",
    "generatorium-van-saar",
    "archaeotech-device-van-saar",
    "tech-bazaar-van-saar",
}


def test_every_dominion_territory_is_content_with_a_boon_and_a_source():
    records = {r["slug"]: r for r in t.data()["territories"]}
    assert DOMINION | {"home-settlement"} == set(records)
    for slug, record in records.items():
        assert "boon" in record and record["sources"], slug
        assert all(source in t.data()["sources"] for source in record["sources"])
        found = t.boon(slug)
        # the content's income text agrees with the boon the sequence rolls
        assert bool(record["income"]) == found.has_income or slug in ("gambling-den-delaque", "corpse-farm-cawdor")


@pytest.mark.parametrize(
    ("slug", "outlaw", "dice", "credits"),
    [
        ("workshop", False, [], 0),
        ("workshop", True, [4], 40),
        ("rogue-doc-shop", False, [], 0),
        ("rogue-doc-shop", True, [2], 20),
        ("settlement", False, [5], 50),
        ("toll-crossing-orlock", False, [3], 15),
        ("old-ruins", False, [3], 30),
        ("sludge-sea", False, [], 0),
    ],
)
def test_income_and_who_collects_it(slug, outlaw, dice, credits):
    source = ScriptedDice(dice)
    assert t.collect(t.boon(slug), source, outlaw=outlaw).credits == credits
    assert source.remaining == 0


def test_old_ruins_add_one_to_the_d3_for_each_dome_runner():
    assert t.collect(t.boon("old-ruins"), ScriptedDice([2]), outlaw=False, dome_runners=2).credits == 40


def test_enhanced_boons_follow_the_house_and_the_other_territory_held():
    assert t.boon("narco-den-escher", house="Goliath").income == "D6x5"
    assert t.boon("narco-den-escher", house="House Escher").income == "2D6x5"
    assert t.boon("narco-den-escher", house="Escher", held=["synth-still-escher"]).income == "2D6x10"
    assert t.boon("smelting-works-goliath", house="Goliath", held=["slag-furnace-goliath"]).income == "2D6x10"
    assert t.reputation_while_held("bone-shrine-cawdor", "Cawdor") == 2
    assert t.reputation_while_held("bone-shrine-cawdor", "Escher") == 0
    assert t.reputation_while_held("settlement", "Escher") == 1
    assert t.boon("slag-furnace-goliath", house="Goliath").recruit_roll
    assert not t.boon("slag-furnace-goliath", house="Orlock").recruit_roll


def test_a_double_on_the_refuse_drift_keeps_a_fighter_out_unless_cawdor():
    struck = t.collect(t.boon("refuse-drift-cawdor"), ScriptedDice([3, 3, 2]), outlaw=False, fighters=2)
    assert (struck.credits, struck.struck, struck.consequence) == (30, 0, "miss-next-battle")
    cawdor = t.collect(t.boon("refuse-drift-cawdor", house="Cawdor"), ScriptedDice([3, 3]), outlaw=False, fighters=2)
    assert (cawdor.credits, cawdor.struck) == (30, None)


def test_collapsed_dome_dice_are_the_players_choice_within_the_rule():
    assert t.collect(t.boon("collapsed-dome"), ScriptedDice([1, 2, 3, 4]), outlaw=False, dice_count=4).credits == 100
    with pytest.raises(RulesInputError):
        t.collect(t.boon("collapsed-dome"), ScriptedDice([]), outlaw=False, dice_count=7)


def test_corpse_farm_and_mine_workings_count_the_dead_and_the_captives():
    assert t.collect(t.boon("corpse-farm-cawdor"), ScriptedDice([2, 5]), outlaw=False, deleted=2).credits == 70
    mine = t.collect(t.boon("mine-workings-orlock"), ScriptedDice([1, 6]), outlaw=False, captives=1)
    assert mine.credits == 70


def test_the_gambling_den_draws_one_card_of_54():
    # Three D6 read as one number from 0 to 215, in 54 bands of 4: 1 1 1 is the first card, the 2 of Hearts.
    drawn = t.collect(t.boon("gambling-den-delaque"), ScriptedDice([1, 1, 1]), outlaw=False, suit="Hearts")
    assert drawn.credits == 20
    other = t.collect(t.boon("gambling-den-delaque"), ScriptedDice([1, 1, 1]), outlaw=False, suit="Diamonds")
    assert other.credits == 10
    black = t.collect(t.boon("gambling-den-delaque"), ScriptedDice([1, 1, 1]), outlaw=False, suit="Spades")
    assert black.credits == 0
    with pytest.raises(RulesInputError):
        t.collect(t.boon("gambling-den-delaque"), ScriptedDice([]), outlaw=False, suit="")


def test_outlaw_gangs_are_those_their_house_list_makes_outlaw():
    assert t.is_outlaw(["Outlaw"]) and t.is_outlaw(["Outlaw outlanders"])
    assert not t.is_outlaw(["Gang Hierarchy", "Law-abiding"]) and not t.is_outlaw([])
