"""A chem's side effect settled after the battle is rolled in the post-battle sequence's first step, once, for the
fighter who took it (issue 25): Ghast's Willpower test (Willpower worse, or Insane for good: a mark on the fighter
with its ledger entry), Icrotic Slime's 2D6 (dead, Into Recovery, a Lasting Injury) and the Toughness check of an
addictive chem; a chem that leaves nothing behind rolls nothing."""

from types import SimpleNamespace

import pytest

from gangs.models import FighterStatus, Injury, LedgerKind, Purchase
from gangs.services.equipment import take_chem_doses
from gangs.stats import current_stats
from gangs.testing import make_chem
from postbattle import services
from postbattle.engine import steps_for
from postbattle.selectors import battle_context
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db

NAMES = {
    "slaught": "'Slaught",
    "kalma": "Kalma",
    "ghast": "Ghast",
    "icrotic-slime": "Icrotic Slime",
    "frenzon": "Frenzon",
}


@pytest.fixture
def battle(make_confirmed_battle):
    # The attacker's Ganger 0 fought and ended the battle fine; Ganger 1 is in the roster too.
    return make_confirmed_battle(edition="n18", results=[("attacker", 0, "ok", None, {})])


def took(battle, fighter, slug):
    """``fighter`` carried a dose of ``slug`` into ``battle``: the battle's start took it (the assistant's session
    names its campaign battle)."""
    Purchase.objects.create(gang=fighter.gang, fighter=fighter, equipment=make_chem(slug, NAMES[slug]), price=30)
    take_chem_doses(fighters=[fighter], session=SimpleNamespace(pk=1, campaign_battle=battle), actor=fighter.gang.owner)


def first_step(battle, dice):
    gang = battle.attacker
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    sequence = services.sequence_step_submit(sequence=sequence, dice=ScriptedDice(dice), entered=True, actor=gang.owner)
    return sequence, sequence.draft["steps"]["injury-tests"]


def chem_lines(record):
    return [(line["fighter"], line["text"], [d["value"] for d in line["dice"]]) for line in record["lines"]]


def apply(sequence):
    for _ in range(5):
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice([3] * 8), choices={"recruit": False}, actor=sequence.gang.owner
        )
    services.sequence_apply(sequence=sequence, actor=sequence.gang.owner)


def test_an_addictive_chem_rolls_its_toughness_check_and_kalma_nothing(battle):
    fought, other = battle.attacker.fighters.order_by("pk")[:2]
    took(battle, fought, "slaught")
    took(battle, other, "kalma")  # leaves nothing behind
    toughness = current_stats(fought)["T"]
    _, record = first_step(battle, [toughness + 1])  # over Toughness: failed
    (line,) = [line for line in record["lines"] if line["rule"] == "Chems"]
    assert line["fighter"] == fought.name and [d["value"] for d in line["dice"]] == [toughness + 1]
    assert line["text"].startswith("'Slaught: Toughness check failed: addicted (Wrap-up:")
    assert "the roster keeps no addiction" in line["text"]
    assert not record["effects"]


def test_frenzon_adds_two_to_its_toughness_check(battle):
    fought = battle.attacker.fighters.order_by("pk").first()
    took(battle, fought, "frenzon")
    toughness = current_stats(fought)["T"]
    _, record = first_step(battle, [toughness - 1])  # +2 on the dice: one over Toughness
    (line,) = [line for line in record["lines"] if line["rule"] == "Chems"]
    assert "failed: addicted" in line["text"]


def test_ghast_failed_willpower_test_worsens_willpower_for_good(battle):
    fought = battle.attacker.fighters.order_by("pk").first()
    took(battle, fought, "ghast")
    willpower = current_stats(fought)["Wil"]
    sequence, record = first_step(battle, [1, 1])  # 2 fails any Willpower test but 2+
    (effect,) = record["effects"]
    assert (effect["op"], effect["deltas"], [d["value"] for d in effect["dice"]]) == ("injury", {"Wil": 1}, [1, 1])
    apply(sequence)
    assert current_stats(fought)["Wil"] == willpower + 1
    (entry,) = fought.gang.ledger.filter(kind=LedgerKind.INJURY, fighter=fought)
    assert entry.data["code"] == "ghast-willpower" and "Ghast" in entry.reason


def test_ghast_natural_twelve_leaves_the_fighter_insane_at_every_battle(battle):
    fought = battle.attacker.fighters.order_by("pk").first()
    took(battle, fought, "ghast")
    sequence, record = first_step(battle, [6, 6])
    (effect,) = record["effects"]
    assert effect["code"] == "ghast-insane" and effect["notes"] == [
        "begins every battle subject to the Insane condition"
    ]
    apply(sequence)
    assert Injury.objects.get(fighter=fought).code == "ghast-insane"


@pytest.mark.parametrize(
    ("dice", "status"),
    [([1, 1], FighterStatus.DEAD), ([3, 4], FighterStatus.RECOVERY), ([5, 6], FighterStatus.RECOVERY)],
)
def test_icrotic_slime_is_scraped_off_after_the_battle(battle, dice, status):
    fought = battle.attacker.fighters.order_by("pk").first()
    took(battle, fought, "icrotic-slime")
    sequence, record = first_step(battle, dice)
    (effect,) = record["effects"]
    assert (effect["op"], effect["status"], [d["value"] for d in effect["dice"]]) == ("status", status, dice)
    apply(sequence)
    fought.refresh_from_db()
    assert fought.status == status


def test_icrotic_slime_twelve_is_a_lasting_injury_with_its_re_rolls(battle):
    fought = battle.attacker.fighters.order_by("pk").first()
    took(battle, fought, "icrotic-slime")
    # 12, then the Lasting Injury table: 66 Memorable Death is re-rolled, 65 Critical Injury too, then 44 Eye Injury
    # (Into Recovery, Ballistic Skill one step worse).
    _, record = first_step(battle, [6, 6, 6, 6, 6, 5, 4, 4])
    (injury,) = [e for e in record["effects"] if e["op"] == "injury"]
    assert (injury["roll"], injury["deltas"]) == (44, {"BS": 1})
    assert [d["value"] for d in injury["dice"]] == [6, 6, 6, 5, 4, 4]
    assert [e["status"] for e in record["effects"] if e["op"] == "status"] == [FighterStatus.RECOVERY]
    assert any("Icrotic Slime (12): removed, with a Lasting Injury" in line["text"] for line in record["lines"])


@pytest.fixture
def taken_out(make_confirmed_battle):
    # The attacker's Ganger 0 was taken Out of Action by the defender's Ganger 0.
    return make_confirmed_battle(edition="n18", results=[("attacker", 0, "out_of_action", 0, {})])


def lasting_injury(battle, dice, use_mould: bool):
    """The first two steps: the injury tests (nothing to roll), then the Lasting Injury roll of the attacker's
    Ganger 0, offered a dose of Stinger Mould and using it or not."""
    gang = battle.attacker
    fighter = gang.fighters.order_by("pk").first()
    sequence, _ = first_step(battle, [])
    context, fighters = battle_context(battle, gang)
    (step,) = [step for step in steps_for("n18") if step.slug == "lasting-injuries"]
    assert [field.name for field in step.fields(context, fighters)] == [f"stinger_{fighter.pk}"]
    sequence = services.sequence_step_submit(
        sequence=sequence,
        dice=ScriptedDice(dice),
        entered=True,
        choices={f"stinger_{fighter.pk}": use_mould},
        actor=gang.owner,
    )
    return sequence, sequence.draft["steps"]["lasting-injuries"], fighter


def test_stinger_mould_from_the_stash_turns_a_lasting_injury_into_out_cold(taken_out):
    gang = taken_out.attacker
    Purchase.objects.create(gang=gang, fighter=None, equipment=make_chem("stinger-mould", "Stinger Mould"), price=75)
    sequence, record, fighter = lasting_injury(taken_out, [4, 4], use_mould=True)  # 44 Eye Injury, set aside
    (used,) = record["effects"]
    assert (used["op"], used["chem"], [d["value"] for d in used["dice"]]) == ("chem", "stinger-mould", [4, 4])
    assert "Eye Injury" in used["reason"] and "Out Cold" in used["reason"]
    for _ in range(4):
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice([3] * 8), choices={"recruit": False}, actor=gang.owner
        )
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    fighter.refresh_from_db()
    assert fighter.status == FighterStatus.ACTIVE and not Injury.objects.filter(fighter=fighter).exists()
    assert not Purchase.objects.filter(gang=gang, equipment__slug="stinger-mould").exists()
    (entry,) = gang.ledger.filter(kind=LedgerKind.EQUIPMENT, data__chem_used=True)
    assert entry.fighter == fighter and entry.dice and "Stinger Mould" in entry.description
    sequence.refresh_from_db()
    services.sequence_revert(sequence=sequence, actor=taken_out.campaign.created_by, reason="test")
    (dose,) = Purchase.objects.filter(gang=gang, equipment__slug="stinger-mould")
    assert dose.fighter is None  # back in the Stash


def test_stinger_mould_cannot_undo_a_memorable_death(taken_out):
    gang = taken_out.attacker
    Purchase.objects.create(gang=gang, fighter=None, equipment=make_chem("stinger-mould", "Stinger Mould"), price=75)
    _, record, _ = lasting_injury(taken_out, [6, 6], use_mould=True)
    assert "chem" not in [e["op"] for e in record["effects"]]  # the dose is kept
    assert [e["status"] for e in record["effects"] if e["op"] == "status"] == ["dead"]
