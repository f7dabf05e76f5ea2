"""Blast markers and Flame templates hit every fighter under them (issue 22): after such a shot the page asks who
else is under it (or, for a Blast that missed, who the scattered marker landed on) and resolves each in turn, hit
without a roll and with no Ammo test of its own (``also_under``, docs/rulebook-cli.md)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles.selectors import battle_prompts
from battles.services import action_resolve
from battles.tests.test_battles_n18_effects import arm

pytestmark = pytest.mark.django_db


def test_every_fighter_under_the_marker_is_resolved(make_battle, client):
    battle = make_battle("n18", fighters=3)
    shooter = battle.fighters.get(side="attacker", order=0)
    target, other = battle.fighters.get(side="defender", order=1), battle.fighters.get(side="defender", order=2)
    grenade = arm(shooter, "frag-grenade", "grenade", "4+")
    # hit 6, wound 1 (no wound), the grenade's Ammo test 6
    action_resolve(
        session=battle,
        kind="shoot",
        actor=battle.player_a,
        dice=[6, 1, 6],
        params={"fighter": shooter.pk, "target": target.pk, "weapon": grenade, "distance": 4},
    )
    prompts = [p for p in battle_prompts(battle) if p.params.get("also_under")]
    assert len(prompts) == 1 and "Blast marker" in prompts[0].text
    assert prompts[0].params == {"fighter": shooter.pk, "shooter": f"{shooter.pk}:{grenade}", "also_under": 1}

    client.force_login(battle.player_a)
    url = reverse("battles:battle-act", args=[battle.pk, "shoot"])
    page = client.get(url, {**prompts[0].params, "target": other.pk}).content.decode()
    assert "also hits" in page  # the odds of the fighter under the marker, no range asked

    # wound 6, save 1 (flak? none here), Injury dice 6: only those dice, no hit roll and no Ammo test
    action = action_resolve(
        session=battle,
        kind="shoot",
        actor=battle.player_a,
        dice=[6, 6],
        params={"fighter": shooter.pk, "target": other.pk, "weapon": grenade, "distance": 0, "also_under": True},
    )
    assert [d["for"] for d in action.dice][0].startswith("wound roll")
    assert not any("Ammo" in d["for"] for d in action.dice)
    other.refresh_from_db()
    assert other.out_of_action or other.condition == "seriously_injured" or other.wounds_left < 2
    # Still asked: several fighters may be under it, each resolved in turn.
    assert [p for p in battle_prompts(battle) if p.params.get("also_under")]


def test_an_action_missing_a_choice_is_refused_in_words(make_battle):
    """The Blast prompt resolved without naming anyone was a KeyError (a server error); so was any action whose
    choices lacked one its plan reads. Each is refused plainly and nothing is logged."""
    battle = make_battle("n18", fighters=3)
    shooter, target = battle.fighters.get(side="attacker", order=0), battle.fighters.get(side="defender", order=1)
    grenade = arm(shooter, "frag-grenade", "grenade", "4+")
    action_resolve(
        session=battle,
        kind="shoot",
        actor=battle.player_a,
        dice=[6, 1, 6],
        params={"fighter": shooter.pk, "target": target.pk, "weapon": grenade, "distance": 4},
    )
    under = {"fighter": shooter.pk, "weapon": grenade, "distance": 0, "also_under": True}
    refused = {
        "who is hit": ("shoot", under),
        "who is hit ": ("shoot", {**under, "target": None}),
        "the range or distance": ("shoot", {"fighter": shooter.pk, "target": target.pk, "weapon": grenade}),
        "no such weapon": ("shoot", {**under, "target": target.pk, "weapon": "p404:0"}),
        "no such weapon ": ("shoot", {**under, "target": target.pk, "weapon": f"{grenade.split(':')[0]}:-1"}),
        "not in this battle": ("shoot", {**under, "target": 987654}),
        "the fighter": ("test", {"test": "nerve"}),
        "no such test": ("test", {"test": "stupidity", "fighter": shooter.pk}),
        "the test": ("test", {"fighter": shooter.pk}),
        "the gang": ("test", {"test": "bottle"}),
        "who is hit  ": ("fight", {"fighter": shooter.pk}),
        "the scenario action": ("scenario", {"fighter": shooter.pk}),
    }
    for words, (kind, params) in refused.items():
        with pytest.raises(ValidationError) as refusal:
            action_resolve(session=battle, kind=kind, params=params, actor=battle.player_a)
        assert words.strip() in " ".join(refusal.value.messages).lower(), (kind, params, refusal.value.messages)
    assert battle.actions.count() == 1
