"""The post-battle sequence's services: each step with scripted dice (both editions), apply once, revert."""

import pytest
from django.core.exceptions import ValidationError
from django.db.models import ProtectedError

from content.models import Equipment
from gangs.ledger import ledger_totals
from gangs.models import FighterStatus, LedgerEntry, LedgerKind
from gangs.services import purchase_buy
from gangs.stats import current_stats
from postbattle import services
from postbattle.models import SequenceState
from postbattle.selectors import fighters_before
from rulebook.dice import ScriptedDice

pytestmark = pytest.mark.django_db

OOA, SI = "out_of_action", "seriously_injured"


def fighters(gang):
    return list(gang.fighters.order_by("pk"))


def run(sequence, *steps):
    """Submit each step: (dice, choices)."""
    for dice, choices in steps:
        sequence = services.sequence_step_submit(
            sequence=sequence, dice=ScriptedDice(dice), entered=True, choices=choices, actor=sequence.gang.owner
        )
    return sequence


def n18_battle(make_confirmed_battle):
    return make_confirmed_battle(
        edition="n18",
        scenario="the-trap",
        winner="attacker",
        results=[
            ("attacker", 0, OOA, 2, {}),
            ("attacker", 1, SI, 3, {}),
            ("attacker", 2, "ok", None, {}),
            ("defender", 0, OOA, 2, {}),  # the attacker's Leader took a defending Ganger Out of Action
        ],
    )


def n18_full_run(battle):
    gang = battle.attacker
    ganger0, ganger1, leader, champion = fighters(gang)
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    return run(
        sequence,
        ([1, 4, 4], {}),  # ganger1 succumbs (1), Lasting Injury 44 Eye Injury
        ([6, 1], {}),  # ganger0 Lasting Injury 61 Critical Injury
        ([3, 2, 1], {}),  # The Trap: D6x10 credits, Leader D3 XP, D3 Reputation; +1 XP standard
        ([5, 6, 2], {"recruit": True, "recruit_name": "Kid"}),  # Home Settlement 50 credits, recruit 62: a Juve
        (
            [3, 3, 1],
            {
                f"action_{leader.pk}": "Medical Escort",
                f"target_{leader.pk}": f"patient:{ganger0.pk}",
                f"action_{champion.pk}": "Trade",
            },
        ),  # Stabilised, then 31 Convalescence → Recovery
        ([], {}),
    )


def test_n18_sequence_every_step_then_apply(make_confirmed_battle):
    battle = n18_battle(make_confirmed_battle)
    gang = battle.attacker
    ganger0, ganger1, leader, champion = fighters(gang)
    stash, reputation, bs = gang.stash, gang.reputation, current_stats(ganger1)["BS"]
    sequence = n18_full_run(battle)
    assert sequence.step == 6 and sequence.state == SequenceState.DRAFT
    assert gang.fighters.count() == 4  # nothing applied yet
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    gang.refresh_from_db()
    assert gang.stash == stash + 30 + 50
    assert gang.reputation == reputation + 1
    ganger0.refresh_from_db(), ganger1.refresh_from_db(), leader.refresh_from_db()
    assert leader.experience == 2 + 1
    assert ganger1.status == FighterStatus.RECOVERY and current_stats(ganger1)["BS"] == bs + 1
    assert list(ganger1.injuries.values_list("code", flat=True)) == ["eye-injury"]
    assert ganger0.status == FighterStatus.RECOVERY
    assert gang.fighters.filter(name="Kid", fighter_type__category="juve").exists()
    assert ledger_totals(gang)["stash"] == gang.stash
    assert battle.campaign.snapshots.filter(gang=gang, reason__startswith="After").count() == 1
    entries = LedgerEntry.objects.filter(data__post_battle=sequence.pk)
    assert entries.exists() and all(e.battle_link.battle_id == battle.pk for e in entries)
    kid_hire = entries.get(kind=LedgerKind.HIRE, fighter__name="Kid")  # the Home Settlement's recruit costs nothing
    assert kid_hire.credits == 0 and kid_hire.data["free"] and kid_hire.reason.startswith("Free recruit")
    with pytest.raises(ValidationError):
        services.sequence_apply(sequence=sequence, actor=gang.owner)
    with pytest.raises(ProtectedError):  # the ledger keeps its battle
        battle.delete()


def test_n18_account_reads_the_recruit_dice_and_reward_conditions_plainly(make_confirmed_battle):
    sequence = n18_full_run(n18_battle(make_confirmed_battle))
    texts = [line["text"] for step in sequence.draft["steps"].values() for line in step["lines"]]
    assert "two D6 rolled 6 and 2: Free Juve" in texts
    leader_xp = next(text for text in texts if "victorious gang's Leader" in text)
    assert "(whether or not they took part): D3" in leader_xp and " if " not in leader_xp


def test_n18_a_free_recruit_left_unnamed_gets_a_roster_name_not_new_juve(make_confirmed_battle):
    """Walked in issue 23: a Home Settlement Juve joined as "New Juve"."""
    battle = n18_battle(make_confirmed_battle)
    sequence = services.sequence_start(battle=battle, gang=battle.attacker, actor=battle.attacker.owner)
    sequence = run(sequence, ([1, 4, 4], {}), ([6, 1], {}), ([3, 2, 1], {}), ([5, 6, 2], {"recruit": True}))
    [recruit] = [e for e in sequence.draft["steps"]["income"]["effects"] if e["op"] == "recruit"]
    assert recruit["name"] == "Juve 1"


def test_n18_account_writes_a_target_number_change_the_games_way(make_confirmed_battle):
    sequence = n18_full_run(n18_battle(make_confirmed_battle))
    texts = [line["text"] for step in sequence.draft["steps"].values() for line in step["lines"]]
    bs = current_stats(fighters(sequence.gang)[1])["BS"]
    assert f"BS {bs}+ → {bs + 1}+" in texts  # the Eye Injury: a worse target number


def test_n18_medical_escort_moves_the_patient_in_one_status_line(make_confirmed_battle):
    sequence = n18_full_run(n18_battle(make_confirmed_battle))
    ganger0 = fighters(sequence.gang)[0]
    lines = [ln["text"] for ln in sequence.draft["steps"]["actions"]["lines"] if ln["fighter"] == ganger0.name]
    assert [text for text in lines if "→" in text] == ["critical injury → recovery"]


def roster_state(*gangs):
    """Everything a sequence may change, comparable across runs."""
    state = []
    for gang in gangs:
        gang.refresh_from_db()
        state.append((gang.stash, gang.reputation))
        for f in gang.fighters.filter(status__in=["active", "recovery", "convalescence", "captured"]).order_by("name"):
            skills = sorted(f.skills.values_list("skill__name", flat=True))
            injuries = sorted(f.injuries.values_list("code", flat=True))
            state.append((f.name, f.status, f.captured_by_id, current_stats(f), skills, injuries, f.experience))
    return state


def test_revert_restores_the_roster_and_a_rerun_with_the_same_dice_gives_the_same_roster(make_confirmed_battle):
    battle = n18_battle(make_confirmed_battle)
    gangs = (battle.attacker, battle.defender)
    before = roster_state(*gangs)
    sequence = n18_full_run(battle)
    services.sequence_apply(sequence=sequence, actor=battle.attacker.owner)
    once = roster_state(*gangs)
    arbitrator = battle.campaign.created_by
    services.sequence_revert(sequence=sequence, actor=arbitrator, reason="a die was misread")
    assert roster_state(*gangs) == before
    assert ledger_totals(battle.attacker)["stash"] == battle.attacker.stash
    again = services.sequence_rerun(sequence=sequence, actor=arbitrator, same_dice=True)
    assert again.run == 2 and again.step == 6
    services.sequence_apply(sequence=again, actor=arbitrator)
    assert roster_state(*gangs) == once
    with pytest.raises(ValidationError):
        services.sequence_revert(sequence=sequence, actor=arbitrator, reason="a die was misread")


def test_memorable_death_gives_the_attacker_experience_and_captured_goes_to_the_opponent(make_confirmed_battle):
    battle = make_confirmed_battle(
        edition="n18",
        winner="defender",
        results=[("attacker", 0, OOA, 2, {}), ("attacker", 1, OOA, 3, {})],
    )
    gang, enemy = battle.attacker, battle.defender
    ganger0, ganger1, _, _ = fighters(gang)
    killer = fighters(enemy)[2]
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    run(sequence, ([], {}), ([6, 6, 5, 5], {}), ([1], {}), ([1], {"recruit": False}), ([], {}), ([], {}))
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    ganger0.refresh_from_db(), ganger1.refresh_from_db(), killer.refresh_from_db()
    assert ganger0.status == FighterStatus.DEAD
    assert killer.experience == 1
    assert ganger1.status == FighterStatus.CAPTURED and ganger1.captured_by_id == enemy.pk
    assert ledger_totals(enemy)["experience"][killer.pk] == 1


def test_multiple_injuries_rolls_again_re_rolling_its_exclusions(make_confirmed_battle):
    battle = make_confirmed_battle(edition="n18", results=[("attacker", 0, OOA, None, {})])
    ganger0 = fighters(battle.attacker)[0]
    m = current_stats(ganger0)["M"]
    sequence = services.sequence_start(battle=battle, gang=battle.attacker, actor=battle.attacker.owner)
    # 54 Multiple Injuries: D3 = 2 more rolls; 55 Captured and 21 Out Cold are re-rolled; 31, then 46 Hobbled.
    sequence = run(sequence, ([], {}), ([5, 4, 2, 5, 5, 2, 1, 3, 1, 4, 6], {}))
    lines = [line["text"] for line in sequence.draft["steps"]["lasting-injuries"]["lines"]]
    assert any("Multiple Injuries (54)" in t for t in lines) and any("Hobbled (46)" in t for t in lines)
    assert not any("Captured (55)" in t and "re-roll" not in t for t in lines[1:2])
    snap = sequence.draft["steps"]["lasting-injuries"]["fighters"][str(ganger0.pk)]
    assert snap["status"] == "recovery" and snap["characteristics"]["M"] == m - 1
    assert snap["injuries"] == ["hobbled"]


def test_an_untreated_critical_injury_dies_and_its_kit_goes_to_the_stash(make_confirmed_battle):
    battle = make_confirmed_battle(edition="n18", results=[("attacker", 0, OOA, None, {})])
    gang = battle.attacker
    ganger0, _, leader, champion = fighters(gang)
    knife = purchase_buy(
        gang=gang,
        equipment=Equipment.objects.get(edition="n18", slug="fighting-knife"),
        fighter=ganger0,
        actor=gang.owner,
        override_reason="test",
    )
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    choices = {f"action_{leader.pk}": "Trade", f"action_{champion.pk}": "Trade"}
    run(sequence, ([], {}), ([6, 2], {}), ([1, 1, 1], {}), ([1], {"recruit": False}), ([], choices), ([], {}))
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    ganger0.refresh_from_db()
    assert ganger0.status == FighterStatus.DEAD
    assert ganger0.purchases.count() == 0 and gang.purchases.filter(fighter__isnull=True).count() >= 1
    assert knife is not None


def test_sell_a_captive_to_the_guilders(make_confirmed_battle):
    """Selling a captive pays half their value; claiming the bounty on another pays all of it (issue 21: a
    bounty needs a real captive and takes its amount from the rule, never a typed number)."""
    battle = make_confirmed_battle(edition="n18")
    gang, enemy = battle.attacker, battle.defender
    captive, bountied = fighters(enemy)[:2]
    for held in (captive, bountied):
        held.status, held.captured_by = FighterStatus.CAPTURED, gang
        held.save()
    leader, champion = fighters(gang)[2:]
    stash = gang.stash
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    choices = {
        f"action_{leader.pk}": "Sell to Guilders",
        f"target_{leader.pk}": f"captive:{captive.pk}",
        f"action_{champion.pk}": "Claim Bounties",
        f"target_{champion.pk}": f"captive:{bountied.pk}",
        f"credits_{champion.pk}": "250",
    }
    run(sequence, ([], {}), ([], {}), ([1, 1, 1], {}), ([1], {"recruit": False}), ([], choices), ([], {}))
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    gang.refresh_from_db(), captive.refresh_from_db(), bountied.refresh_from_db()
    assert captive.status == bountied.status == FighterStatus.DEAD
    assert gang.stash == stash + 10 + 10 + captive.cost // 2 + bountied.cost  # the typed 250 is not read


def test_claim_bounties_needs_a_captive(make_confirmed_battle):
    battle = make_confirmed_battle(edition="n18")
    gang = battle.attacker
    leader, champion = fighters(gang)[2:]
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    run(sequence, ([], {}), ([], {}), ([1, 1, 1], {}), ([1], {"recruit": False}))
    choices = {f"action_{leader.pk}": "Claim Bounties", f"credits_{leader.pk}": "250", f"action_{champion.pk}": "Trade"}
    with pytest.raises(ValidationError, match="choose a captive the gang holds") as refused:
        run(sequence, ([], choices))
    # Walked in issue 21: the message said "target_14: Butcher 1: ...", the form field's name shown to the player.
    assert refused.value.messages == [f"{leader.name}: choose a captive the gang holds"]


@pytest.mark.parametrize(
    ("dice", "message"),
    [([4, 4, 1], "left over"), ([7, 1], "not a face"), ([4], "ran out")],
)
def test_entered_dice_must_fit_the_step(make_confirmed_battle, dice, message):
    battle = make_confirmed_battle(edition="n18", results=[("attacker", 0, OOA, None, {})])
    sequence = run(services.sequence_start(battle=battle, gang=battle.attacker, actor=None), ([], {}))
    with pytest.raises(ValidationError, match=message):
        run(sequence, (dice, {}))
    sequence.refresh_from_db()
    assert sequence.step == 1


def test_going_back_drops_the_later_steps_and_apply_needs_every_step(make_confirmed_battle):
    battle = n18_battle(make_confirmed_battle)
    sequence = run(services.sequence_start(battle=battle, gang=battle.attacker, actor=None), ([4], {}), ([3, 1], {}))
    with pytest.raises(ValidationError, match="Finish the steps"):
        services.sequence_apply(sequence=sequence, actor=None)
    sequence = services.sequence_step_back(sequence=sequence, to=1)
    assert sequence.step == 1 and list(sequence.draft["steps"]) == ["injury-tests"]


def test_a_second_start_returns_the_live_sequence_and_needs_a_confirmed_battle(make_confirmed_battle):
    battle = n18_battle(make_confirmed_battle)
    first = services.sequence_start(battle=battle, gang=battle.attacker, actor=None)
    assert services.sequence_start(battle=battle, gang=battle.attacker, actor=None) == first
    battle.status = "reported"
    battle.save()
    with pytest.raises(ValidationError):
        services.sequence_start(battle=battle, gang=battle.defender, actor=None)


# --- classic ----------------------------------------------------------------------------------------


def test_classic_sequence_injuries_experience_advances_income(make_confirmed_battle, make_territory):
    from campaigns.services import territory_add, territory_assign

    battle = make_confirmed_battle(
        edition="classic",
        winner="attacker",
        results=[
            ("attacker", 0, OOA, None, {}),
            ("attacker", 1, SI, None, {}),
            ("attacker", 2, "ok", None, {"wounding_hits": 3}),
            ("attacker", 3, "ok", None, {}),
        ],
    )
    gang = battle.attacker
    ganger0, ganger1, leader, ganger3 = fighters(gang)
    held = territory_add(campaign=battle.campaign, territory=make_territory("classic", "Old Ruins", income="10"))
    territory_assign(held=held, holder=gang, actor=battle.campaign.created_by)
    ws, xp, stash = current_stats(ganger0)["WS"], {f.pk: f.experience for f in fighters(gang)}, gang.stash
    sequence = services.sequence_start(battle=battle, gang=gang, actor=gang.owner)
    # ganger0 out of action: 33 Hand Injury (D3 fingers 2), -1 WS; ganger1 down at the end: 2 recovers.
    sequence = run(sequence, ([2, 3, 3, 2], {}), ([6, 1, 2, 3], {}))
    gained = {ganger0.pk: 6, ganger1.pk: 1, leader.pk: 2 + 15 + 10, ganger3.pk: 3}
    advances = sequence.draft["steps"]["experience"]["fighters"]
    assert {int(k): v["xp"] for k, v in advances.items()} == {pk: xp[pk] + gained[pk] for pk in xp}
    assert sequence.draft["steps"]["serious-injuries"]["fighters"][str(ganger0.pk)]["characteristics"]["WS"] == ws - 1
    from postbattle.engine import advances_due
    from postbattle.selectors import battle_context

    context, _ = battle_context(battle, gang)
    count = len(advances_due(context, fighters_before(sequence, 2)))
    assert count >= 1  # the Leader's 17 XP crosses a threshold
    sequence = run(sequence, ([3, 4, 2] * count, {}), ([], {}), ([], {}))  # 2D6 = 7: +1 I or Ld (D6 2: I)
    services.sequence_apply(sequence=sequence, actor=gang.owner)
    gang.refresh_from_db(), ganger0.refresh_from_db()
    assert gang.stash == stash + 10  # Old Ruins 10, worked by the Leader; the Income chart: 0-29 with 4 models
    assert "profit 10 credits" in sequence.draft["steps"]["income"]["lines"][-1]["text"]
    assert current_stats(ganger0)["WS"] == ws - 1 and list(ganger0.injuries.values_list("code", flat=True)) == [
        "hand-injury"
    ]
    assert sum(f.advancements.count() for f in fighters(gang)) == count


def test_classic_captured_and_dead_fighters_and_no_experience_for_the_dead(make_confirmed_battle):
    battle = make_confirmed_battle(
        edition="classic",
        winner="defender",
        results=[("attacker", 0, OOA, None, {}), ("attacker", 1, OOA, None, {}), ("attacker", 2, "ok", None, {})],
    )
    gang, enemy = battle.attacker, battle.defender
    ganger0, ganger1, leader, ganger3 = fighters(gang)
    knife = Equipment.objects.get(edition="classic", slug="knife")
    purchase_buy(gang=gang, equipment=knife, fighter=ganger0, actor=gang.owner, override_reason="test")
    # ganger0 11 Dead; ganger1 61 Captured; experience: D6 for ganger1 (captured still earns) and the Leader.
    sequence = run(services.sequence_start(battle=battle, gang=gang, actor=None), ([1, 1, 6, 1], {}), ([4, 5], {}))
    lines = sequence.draft["steps"]["experience"]["lines"]
    assert [line["fighter"] for line in lines] == [ganger1.name, leader.name]
    sequence = run(sequence, *[([], {})] * 3)
    services.sequence_apply(sequence=sequence, actor=None)
    ganger0.refresh_from_db(), ganger1.refresh_from_db()
    assert ganger0.status == FighterStatus.DEAD
    assert ganger1.status == FighterStatus.CAPTURED and ganger1.captured_by_id == enemy.pk
    assert not gang.purchases.exists()  # a dead classic fighter's kit is lost with them (S3 p84)
    services.sequence_revert(sequence=sequence, actor=battle.campaign.created_by, reason="a die was misread")
    assert list(ganger0.purchases.values_list("equipment", flat=True)) == [knife.pk]


def test_horrid_scars_gives_fearsome_and_lesson_learned_experience(make_confirmed_battle):
    battle = make_confirmed_battle(
        edition="n18", winner="defender", results=[("attacker", 0, OOA, None, {}), ("attacker", 1, OOA, None, {})]
    )
    gang = battle.attacker
    ganger0, ganger1, _, _ = fighters(gang)
    # ganger0 13 Horrid Scars; ganger1 11 Lesson Learned, D3 = 3 experience.
    sequence = run(services.sequence_start(battle=battle, gang=gang, actor=None), ([], {}), ([1, 3, 1, 1, 3], {}))
    sequence = run(sequence, ([1], {}), ([1], {"recruit": False}), ([], {}), ([], {}))
    services.sequence_apply(sequence=sequence, actor=None)
    ganger0.refresh_from_db(), ganger1.refresh_from_db()
    assert list(ganger0.skills.values_list("skill__name", flat=True)) == ["Fearsome"]
    assert ganger0.injuries.get().code == "horrid-scars"
    assert ganger1.experience == 3 and ganger1.status == FighterStatus.CONVALESCENCE


def test_a_fighter_who_missed_the_battle_in_recovery_comes_back(make_confirmed_battle):
    battle = make_confirmed_battle(edition="n18", winner="defender", results=[("attacker", 0, OOA, None, {})])
    gang = battle.attacker
    ganger0, ganger1, _, _ = fighters(gang)
    ganger1.status = FighterStatus.RECOVERY
    ganger1.save()
    sequence = run(services.sequence_start(battle=battle, gang=gang, actor=None), ([], {}), ([2, 1], {}), ([1], {}))
    sequence = run(sequence, ([1], {"recruit": False}), ([], {}), ([], {}))
    services.sequence_apply(sequence=sequence, actor=None)
    ganger0.refresh_from_db(), ganger1.refresh_from_db()
    assert ganger1.status == FighterStatus.ACTIVE
    assert ganger0.status == FighterStatus.ACTIVE  # 21 Out Cold: no lasting harm
