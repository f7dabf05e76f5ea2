"""Chems in the battle assistant (issue 25): each chem a fighter takes before the battle changes the stat line the
queries read, its rolls come as prompts with the command line's exact odds, Spur, Kalma and Obscura wear off (the
stat line goes back), Ghast's D6 and Icrotic Slime's checks are rolled once, Stinger Mould is not taken, and what
the assistant leaves to the table is on the card with its reason."""

from fractions import Fraction as F
from urllib.parse import urlencode

import pytest
from django.core.exceptions import ValidationError

from battles.display import fighter_rows
from battles.models import Phase
from battles.roster import snapshot
from battles.selectors import action_odds, action_plan, battle_prompts, charge_reach_odds
from battles.services import action_resolve, action_undo, battle_start
from battles.tests.test_battles_odds_cli import cli_odds
from content.models import Equipment
from gangs.models import Purchase
from gangs.services import purchase_buy
from gangs.testing import make_chem
from rulebook.dice import SeededDice
from rulebook.n18 import kit

pytestmark = pytest.mark.django_db

NAMES = {
    "spur": "Spur",
    "kalma": "Kalma",
    "obscura": "Obscura",
    "ghast": "Ghast",
    "icrotic-slime": "Icrotic Slime",
    "stinger-mould": "Stinger Mould",
    "slaught": "'Slaught",
}


def chem_item(slug: str) -> Equipment:
    return Equipment.objects.filter(edition="n18", slug=slug).first() or make_chem(slug, NAMES[slug])


@pytest.fixture
def under(make_gang, make_fighter):
    """``under(*slugs)`` → (battle, the fighter in play who carried those chems into it, his roster fighter)."""

    def make(*slugs):
        gang, rival = make_gang(edition="n18", extra_credits=500), make_gang(edition="n18")
        ganger = make_fighter(gang, "ganger")
        make_fighter(rival, "ganger")
        for slug in slugs:
            purchase_buy(gang=gang, equipment=chem_item(slug), actor=gang.owner, fighter=ganger, override_reason="test")
        battle = battle_start(gang_a=gang, gang_b=rival, started_by=gang.owner, dice=SeededDice(2))
        return battle, battle.fighters.get(fighter=ganger), ganger

    return make


def prompts_for(battle, fighter, slug):
    return [p for p in battle_prompts(battle) if p.params.get("chem") == slug and p.params["fighter"] == fighter.pk]


def chem_roll(battle, fighter, slug, dice):
    params = {"test": "chem", "chem": slug, "fighter": fighter}
    action = action_resolve(session=battle, kind="test", params=params, actor=battle.player_a, dice=dice)
    fighter.refresh_from_db()
    battle.refresh_from_db()
    return action


def odds_of(battle, fighter, slug) -> dict:
    plan = action_plan(session=battle, kind="test", params={"test": "chem", "chem": slug, "fighter": fighter})
    odds = action_odds(session=battle, plan=plan)
    assert odds == cli_odds("n18", "chem", plan.query)  # what the command line answers for the same query
    return odds


def reach(battle, fighter) -> F:
    """The Charge odds the card shows for an enemy 8" away (Movement + D3)."""
    return F(charge_reach_odds(session=battle, fighter=fighter, distance=8, plan=None)["p_reaches_exact"])


def at_phase(battle, phase):
    battle.phase = phase
    battle.save()


def test_spur_raises_the_stat_line_and_wears_off_in_an_end_phase(under):
    battle, fighter, ganger = under("spur")
    base = fighter.profile["chems"]["base"]
    assert base["T"] == 4  # a Goliath Ganger
    assert fighter.stats["M"] == base["M"] + 2 and fighter.stats["I"] == 2
    assert base["M"] == 4
    assert reach(battle, fighter) == F(2, 3)  # Movement 6 + D3 covers 8" on a 2 or 3 (4 + D3 never does)
    assert not prompts_for(battle, fighter, "spur")  # only in the End phase
    at_phase(battle, Phase.END)
    (prompt,) = prompts_for(battle, fighter, "spur")
    assert not prompt.conditional
    assert F(odds_of(battle, fighter, "spur")["p_pass_exact"]) == F(13, 18)  # 2D6 + 4 of 10 or more: 6+ on 2D6
    action = chem_roll(battle, fighter, "spur", [1, 2])  # 3 + 4 = 7: still under Spur
    assert action.changes == [f"{fighter.name} is still under Spur (7)"] and fighter.stats["M"] == base["M"] + 2
    assert not prompts_for(battle, fighter, "spur")  # once an End phase
    action = chem_roll(battle, fighter, "spur", [3, 4])  # 7 + 4 = 11: worn off
    assert fighter.stats["M"] == base["M"] and fighter.stats["I"] == base["I"] and reach(battle, fighter) == 0
    assert fighter.chems_working() == [] and action.dice[0]["value"] == 3
    (row,) = [r for r in fighter_rows([fighter], (), "n18") if r["fighter"] == fighter]
    assert row["chems"]["worn_off"] == ["Spur"]  # the card says so
    action_undo(session=battle, actor=battle.player_a)
    fighter.refresh_from_db()
    assert fighter.stats["M"] == base["M"] + 2 and fighter.chems_working() == ["spur"]
    with pytest.raises(ValidationError, match="not under Kalma"):
        odds_of(battle, fighter, "kalma")


def test_kalma_rolls_before_each_action_until_shaken_off(under):
    battle, fighter, _ = under("kalma")
    at_phase(battle, Phase.ACTION)
    (prompt,) = prompts_for(battle, fighter, "kalma")
    assert prompt.conditional  # the table knows when he acts
    assert F(odds_of(battle, fighter, "kalma")["p_pass_exact"]) == F(5, 12)  # 2D6 + 4 of 12: 8+ on 2D6
    action = chem_roll(battle, fighter, "kalma", [3, 4])
    assert action.changes == [f"{fighter.name} is still under Kalma (11): the action is wasted"]
    assert prompts_for(battle, fighter, "kalma")  # before the next action too
    chem_roll(battle, fighter, "kalma", [5, 4])
    assert fighter.chems_working() == [] and not prompts_for(battle, fighter, "kalma")


def test_obscura_may_be_shaken_off_in_an_end_phase_and_is_listed_for_the_table(under):
    battle, fighter, _ = under("obscura")
    (listed,) = [n for n in fighter.profile["not_applied"] if n["name"] == "Obscura"]
    assert "D6" in listed["reason"] and "Reckless" in listed["reason"]
    at_phase(battle, Phase.END)
    assert reach(battle, fighter) == F(1, 6)  # Movement D6" + D3 covering 8": 6+2, 5+3, 6+3 of 18
    (prompt,) = prompts_for(battle, fighter, "obscura")
    assert prompt.conditional  # if the player wishes
    assert F(odds_of(battle, fighter, "obscura")["p_pass_exact"]) == F(5, 12)
    action = chem_roll(battle, fighter, "obscura", [6, 3])
    assert "one action an activation" in action.changes[0] and fighter.chems_working() == []
    assert reach(battle, fighter) == 0  # Movement 4 again: 4 + D3 never covers 8"


def test_ghast_rolls_its_d6_once(under):
    battle, fighter, _ = under("ghast")
    (prompt,) = prompts_for(battle, fighter, "ghast")
    outcome = {k: F(v) for k, v in odds_of(battle, fighter, "ghast")["outcome_exact"].items()}
    assert outcome == {"insane": F(1, 6), "wyrd_power": F(2, 3), "both": F(1, 6)}
    action = chem_roll(battle, fighter, "ghast", [6])
    assert action.changes == [f"{fighter.name}'s Ghast (6): a random Wyrd Power and Insane (played at the table)"]
    assert not prompts_for(battle, fighter, "ghast")
    with pytest.raises(ValidationError, match="made already"):
        odds_of(battle, fighter, "ghast")
    assert [n["name"] for n in fighter.profile["not_applied"]] == ["Ghast"]  # Insane and Wyrd Powers: the table's


def test_icrotic_slime_checks_improve_the_stat_line_the_fight_reads(under):
    battle, fighter, _ = under("icrotic-slime")
    base = fighter.profile["chems"]["base"]
    assert (fighter.stats["Ld"], fighter.stats["Int"], fighter.stats["Wil"]) == (
        max(base["Ld"], 10),
        max(base["Int"], 10),
        max(base["Wil"], 10),
    )
    odds = odds_of(battle, fighter, "icrotic-slime")
    assert F(odds["p_T_exact"]) == F(4, 6)  # a D6 equal to or under Toughness 4
    assert F(odds["p_A_exact"]) == F(base["A"], 6)
    assert F(odds["p_Cl_exact"]) == kit.checks.two_d6_test(base["Cl"])
    # M passes on a 1 (+2), S fails on a 6, T passes on a 1 (+1), I fails on a 1, A passes on a 1 (+3), Cl fails.
    dice = [1, 2, 6, 1, 1, 1, 1, 3, 1, 1]
    chem_roll(battle, fighter, "icrotic-slime", dice)
    assert fighter.chem_state["gains"] == {"M": 2, "T": 1, "A": 3}
    assert (fighter.stats["M"], fighter.stats["T"], fighter.stats["A"]) == (base["M"] + 2, 5, base["A"] + 3)
    assert fighter.stats["S"] == base["S"] and fighter.stats["Ld"] == max(base["Ld"], 10)
    rival = next(f for f in battle.fighters.all() if f.side == "defender")
    fight = action_plan(session=battle, kind="fight", params={"fighter": fighter, "target": rival}).query
    assert fight["attacker"]["A"] == base["A"] + 3
    assert not prompts_for(battle, fighter, "icrotic-slime")


def test_stinger_mould_is_not_taken_before_the_battle(under):
    battle, fighter, ganger = under("stinger-mould", "slaught")
    assert fighter.profile["chems"]["taken"] == ["'Slaught"]
    assert Purchase.objects.filter(fighter=ganger, equipment__slug="stinger-mould").count() == 1
    (listed,) = [n for n in fighter.profile["not_applied"] if n["name"] == "Stinger Mould"]
    assert "Lasting Injury" in listed["reason"]
    assert not snapshot(ganger).get("chems")  # the 'Slaught dose is used up; the mould is not a dose taken


def test_the_prompt_opens_the_chem_roll_with_its_odds_and_refuses_a_chem_not_taken(under, client):
    battle, fighter, _ = under("ghast")
    client.force_login(battle.player_a)
    prompt = next(p for p in battle_prompts(battle) if p.params.get("chem") == "ghast")
    page = client.get(f"/battles/{battle.pk}/act/test/?{urlencode(prompt.params)}").content.decode()
    assert "1/6" in page and "2/3" in page  # Ghast's odds, exact, as soon as the prompt opens it
    refused = client.get(f"/battles/{battle.pk}/act/test/?test=chem&chem=spur&fighter={fighter.pk}")
    assert refused.status_code == 200 and f"{fighter.name} is not under Spur" in refused.content.decode()
    for chem in ("", "no-such-chem", "²", "stinger-mould"):
        odd = client.get(f"/battles/{battle.pk}/act/test/?test=chem&chem={chem}&fighter={fighter.pk}")
        assert odd.status_code == 200, chem
    posted = client.post(
        f"/battles/{battle.pk}/act/test/?test=chem",
        {"fighter": fighter.pk, "chem": "kalma", "op": "roll", "dice": "6 6"},
    )
    assert posted.status_code == 200 and "not under Kalma" in posted.content.decode()
    assert not battle.actions.exists()
