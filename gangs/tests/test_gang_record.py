"""The owner's record between battles: each change a ledger entry by the rules, undone by a reversing entry."""

import uuid

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from content.models import Equipment
from gangs import selectors, services
from gangs.ledger import ledger_totals
from gangs.models import FighterStatus, LedgerEntry, Purchase
from gangs.services import record, undo
from gangs.stats import current_stats, fighter_snapshot
from rulebook.dice import ScriptedDice
from rulebook.n18.campaign.lasting_injury import LASTING_INJURY_RULES
from rulebook.outcomes import LastingInjury, injury_outcomes


def token() -> str:
    return uuid.uuid4().hex


def totals_match(gang) -> None:
    gang.refresh_from_db()
    totals = ledger_totals(gang)
    assert (gang.stash, gang.reputation) == (totals["stash"], totals["reputation"])
    assert {f.pk: f.experience for f in gang.fighters.all() if f.experience} == {
        k: v for k, v in totals["experience"].items() if v
    }


@pytest.fixture
def n18_gang(make_gang, make_fighter):
    gang = make_gang(edition="n18", name="Forge Born")
    leader = make_fighter(gang, "leader", name="Krag")
    make_fighter(gang, "ganger", name="Dorn")
    return gang, leader


# --- experience and kills -----------------------------------------------------------------------


@pytest.mark.django_db
def test_experience_is_an_entry_with_why_and_undo_reverses_it(n18_gang):
    gang, krag = n18_gang
    entry = record.record_experience(
        fighter=krag, amount=3, reason="Won a skirmish at home", actor=gang.owner, token=token()
    )
    krag.refresh_from_db()
    assert krag.experience == 3 and entry.reason == "Won a skirmish at home" and entry.actor == gang.owner
    [reversal] = undo.entry_undo(entry=entry, actor=gang.owner)
    krag.refresh_from_db()
    assert krag.experience == 0 and reversal.reverses == entry and reversal.experience == -3
    totals_match(gang)
    with pytest.raises(ValidationError, match="already undone"):
        undo.entry_undo(entry=entry, actor=gang.owner)


@pytest.mark.django_db
def test_the_same_form_sent_twice_counts_once(n18_gang):
    gang, krag = n18_gang
    sent = token()
    record.record_experience(fighter=krag, amount=2, reason="Battle", actor=gang.owner, token=sent)
    with pytest.raises(ValidationError, match="already recorded"):
        record.record_experience(fighter=krag, amount=2, reason="Battle", actor=gang.owner, token=sent)
    krag.refresh_from_db()
    assert krag.experience == 2


@pytest.mark.django_db
def test_experience_already_spent_cannot_be_undone(n18_gang):
    gang, krag = n18_gang
    entry = record.record_experience(fighter=krag, amount=6, reason="Battle", actor=gang.owner, token=token())
    services.fighter_advance_n18(fighter=krag, actor=gang.owner, characteristic="M")
    with pytest.raises(ValidationError, match="experience"):
        undo.entry_undo(entry=entry, actor=gang.owner)


@pytest.mark.django_db
def test_kills_add_up_and_undo_takes_them_away(n18_gang):
    gang, krag = n18_gang
    first = record.record_kills(fighter=krag, count=2, reason="", actor=gang.owner, token=token())
    record.record_kills(fighter=krag, count=1, reason="Second battle", actor=gang.owner, token=token())
    krag.refresh_from_db()
    assert krag.kills == 3
    undo.entry_undo(entry=first, actor=gang.owner)
    krag.refresh_from_db()
    assert krag.kills == 1
    with pytest.raises(ValidationError, match="1 or more"):
        record.record_kills(fighter=krag, count=0, reason="", actor=gang.owner, token=token())


@pytest.mark.django_db
def test_notes_are_kept_in_the_ledger_and_undo_restores_the_old_text(n18_gang):
    gang, krag = n18_gang
    record.record_notes(fighter=krag, notes="Hates Escher", actor=gang.owner)
    entry = record.record_notes(fighter=krag, notes="Hates everyone", actor=gang.owner)
    undo.entry_undo(entry=entry, actor=gang.owner)
    krag.refresh_from_db()
    assert krag.notes == "Hates Escher"
    assert record.record_notes(fighter=krag, notes="Hates Escher", actor=gang.owner) is None  # no change, no entry


# --- status -----------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_status_changes_need_a_reason_and_refuse_what_the_rules_do_not_allow(n18_gang):
    gang, krag = n18_gang
    with pytest.raises(ValidationError, match="already Active"):
        record.record_status(fighter=krag, status="active", reason="x", actor=gang.owner, token=token())
    with pytest.raises(ValidationError, match="can be set to"):
        record.record_status(fighter=krag, status="retired", reason="x", actor=gang.owner, token=token())
    with pytest.raises(ValidationError, match="Say why"):
        record.record_status(fighter=krag, status="recovery", reason=" ", actor=gang.owner, token=token())
    record.record_status(fighter=krag, status="recovery", reason="Hurt in a game", actor=gang.owner, token=token())
    record.record_status(fighter=krag, status="active", reason="Recovered", actor=gang.owner, token=token())
    krag.refresh_from_db()
    assert krag.status == "active"


@pytest.mark.django_db
def test_death_sends_the_kit_to_the_stash_and_undo_brings_it_back(n18_gang):
    gang, krag = n18_gang
    knife = Equipment.objects.get(edition="n18", slug="fighting-knife")
    services.purchase_buy(gang=gang, equipment=knife, fighter=krag, actor=gang.owner)
    entry = record.record_status(
        fighter=krag, status="dead", reason="Fell from a gantry", actor=gang.owner, token=token()
    )
    assert Purchase.objects.get(gang=gang).fighter is None
    with pytest.raises(ValidationError, match="undo the entry"):
        record.record_status(fighter=krag, status="active", reason="x", actor=gang.owner, token=token())
    undo.entry_undo(entry=entry, actor=gang.owner)
    krag.refresh_from_db()
    assert krag.status == "active" and Purchase.objects.get(gang=gang).fighter == krag


@pytest.mark.django_db
def test_classic_death_loses_the_kit_and_undo_restores_it(make_gang, make_fighter):
    gang = make_gang(edition="classic")
    ganger = make_fighter(gang, "ganger", name="Vex")
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    services.purchase_buy(gang=gang, equipment=lasgun, fighter=ganger, actor=gang.owner)
    with pytest.raises(ValidationError, match="Active, Captured, Dead"):
        record.record_status(fighter=ganger, status="recovery", reason="x", actor=gang.owner, token=token())
    entry = record.record_status(fighter=ganger, status="dead", reason="Shot", actor=gang.owner, token=token())
    assert not Purchase.objects.filter(gang=gang).exists()
    undo.entry_undo(entry=entry, actor=gang.owner)
    restored = Purchase.objects.get(gang=gang)
    assert (restored.fighter, restored.equipment, restored.price) == (ganger, lasgun, 25)


@pytest.mark.django_db
def test_an_older_status_change_waits_for_the_later_one_to_be_undone(n18_gang):
    gang, krag = n18_gang
    first = record.record_status(fighter=krag, status="recovery", reason="Hurt", actor=gang.owner, token=token())
    record.record_status(fighter=krag, status="captured", reason="Taken", actor=gang.owner, token=token())
    with pytest.raises(ValidationError, match="undo the later status change first"):
        undo.entry_undo(entry=first, actor=gang.owner)


# --- Lasting Injury -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_entered_eye_injury_worsens_bs_by_the_rulebook_and_undo_restores_it(n18_gang):
    gang, krag = n18_gang
    before = current_stats(krag)
    done = record.record_lasting_injury(fighter=krag, mode="entered", dice=[4, 4], actor=gang.owner, token=token())
    krag.refresh_from_db()
    assert current_stats(krag)["BS"] == before["BS"] + 1  # BS 4+ -> 5+: one step worse (2018+ target number)
    assert krag.status == FighterStatus.RECOVERY
    assert [i.code for i in krag.injuries.all()] == ["eye-injury"]
    injury_entry, status_entry = done.entries
    assert injury_entry.dice[0]["value"] == 4 and "dice rolled at the table" in injury_entry.reason
    assert status_entry.kind == "status"
    undo.entry_undo(entry=injury_entry, actor=gang.owner)
    krag.refresh_from_db()
    assert current_stats(krag) == before and krag.status == "active" and not krag.injuries.exists()
    assert LedgerEntry.objects.filter(reverses__isnull=False, fighter=krag).count() == 2


@pytest.mark.django_db
def test_a_chosen_result_needs_a_reason_and_further_dice_are_the_servers(n18_gang):
    gang, krag = n18_gang
    with pytest.raises(ValidationError, match="needs a reason"):
        record.record_lasting_injury(
            fighter=krag, mode="chosen", slug="lesson-learned", actor=gang.owner, token=token()
        )
    done = record.record_lasting_injury(
        fighter=krag,
        mode="chosen",
        slug="lesson-learned",
        reason="Agreed at the table",
        actor=gang.owner,
        token=token(),
    )
    krag.refresh_from_db()
    xp = next(e for e in done.entries if e.kind == "experience")
    assert 1 <= xp.experience <= 3 and krag.experience == xp.experience and xp.dice[0]["die"] == "D3"
    assert krag.status == FighterStatus.CONVALESCENCE
    totals_match(gang)


@pytest.mark.django_db
def test_entered_dice_must_be_exactly_what_the_result_takes(n18_gang):
    gang, krag = n18_gang
    with pytest.raises(ValidationError, match="not needed"):
        record.record_lasting_injury(fighter=krag, mode="entered", dice=[4, 4, 2], actor=gang.owner, token=token())
    with pytest.raises(ValidationError, match="not a face"):
        record.record_lasting_injury(fighter=krag, mode="entered", dice=[7, 1], actor=gang.owner, token=token())
    assert not krag.injuries.exists() and not LedgerEntry.objects.filter(kind="injury").exists()


@pytest.mark.django_db
def test_a_critical_injury_outside_a_battle_is_untreated(n18_gang):
    gang, krag = n18_gang
    record.record_lasting_injury(fighter=krag, mode="entered", dice=[6, 1], actor=gang.owner, token=token())
    krag.refresh_from_db()
    assert krag.status == FighterStatus.DEAD


@pytest.mark.django_db
def test_a_classic_serious_injury_uses_the_classic_chart(make_gang, make_fighter):
    gang = make_gang(edition="classic")
    ganger = make_fighter(gang, "ganger", name="Vex")
    record.record_lasting_injury(fighter=ganger, mode="entered", dice=[2, 3], actor=gang.owner, token=token())
    ganger.refresh_from_db()
    assert current_stats(ganger)["M"] == 3 and ganger.injuries.get().code == "leg-wound"


@pytest.mark.django_db
def test_a_server_roll_is_final_undoing_it_and_rolling_again_reuses_its_dice(n18_gang, monkeypatch):
    gang, krag = n18_gang
    monkeypatch.setattr("gangs.services.common.RandomDice", lambda: ScriptedDice([4, 4]))
    first = record.record_lasting_injury(fighter=krag, mode="roll", actor=gang.owner, token=token())
    assert first.outcome.results == ("Eye Injury",) and first.entries[0].data["server_rolled"]
    assert [d["value"] for d in first.entries[0].dice] == [4, 4]
    undo.entry_undo(entry=first.entries[-1], actor=gang.owner)
    # The server would now roll 1 1 (Lesson Learned); the undone roll comes back instead.
    monkeypatch.setattr("gangs.services.common.RandomDice", lambda: ScriptedDice([1, 1, 2]))
    second = record.record_lasting_injury(fighter=krag, mode="roll", actor=gang.owner, token=token())
    assert second.outcome.results == ("Eye Injury",)
    undo.entry_undo(entry=second.entries[0], actor=gang.owner)
    third = record.record_lasting_injury(fighter=krag, mode="roll", actor=gang.owner, token=token())
    assert third.outcome.results == ("Eye Injury",)  # each undo hands the same dice on once more


@pytest.mark.django_db
def test_a_fighter_off_the_roster_takes_no_injury(n18_gang):
    gang, krag = n18_gang
    services.fighter_retire(fighter=krag, actor=gang.owner)
    with pytest.raises(ValidationError, match="Retired"):
        record.record_lasting_injury(fighter=krag, mode="entered", dice=[4, 4], actor=gang.owner, token=token())


# --- sale and discard -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_an_undone_sale_gives_the_item_back_and_selling_again_reuses_the_dice(n18_gang):
    gang, krag = n18_gang
    knife = Equipment.objects.get(edition="n18", slug="fighting-knife")
    purchase = services.purchase_buy(gang=gang, equipment=knife, fighter=krag, actor=gang.owner)
    gang.refresh_from_db()
    stash = gang.stash
    sale = services.purchase_sell(purchase=purchase, actor=gang.owner)
    [reversal] = undo.entry_undo(entry=sale, actor=gang.owner)
    gang.refresh_from_db()
    back = Purchase.objects.get(gang=gang)
    assert gang.stash == stash and back.fighter == krag and back.price == 15 and reversal.credits == -sale.credits
    again = services.purchase_sell(purchase=back, actor=gang.owner)
    assert again.dice == sale.dice and again.credits == sale.credits
    totals_match(gang)


@pytest.mark.django_db
def test_an_undone_discard_gives_the_item_back(n18_gang):
    gang, krag = n18_gang
    knife = Equipment.objects.get(edition="n18", slug="fighting-knife")
    purchase = services.purchase_buy(gang=gang, equipment=knife, actor=gang.owner)
    entry = services.purchase_discard(purchase=purchase, actor=gang.owner)
    undo.entry_undo(entry=entry, actor=gang.owner)
    assert Purchase.objects.get(gang=gang).fighter is None


@pytest.mark.django_db
def test_a_sale_cannot_be_undone_once_the_credits_are_spent(make_gang, make_fighter):
    gang = make_gang(edition="classic")
    lasgun = Equipment.objects.get(edition="classic", slug="lasgun")
    purchase = services.purchase_buy(gang=gang, equipment=lasgun, actor=gang.owner)
    sale = services.purchase_sell(purchase=purchase, actor=gang.owner)
    gang.refresh_from_db()
    services.gang_override(gang=gang, actor=gang.owner, reason="Spent", credits=-gang.stash)
    with pytest.raises(ValidationError, match="Stash holds 0"):
        undo.entry_undo(entry=sale, actor=gang.owner)


@pytest.mark.django_db
def test_the_move_list_offers_only_where_the_item_may_go(n18_gang, make_fighter):
    gang, krag = n18_gang
    dorn = gang.fighters.get(name="Dorn")
    bully = make_fighter(gang, "juve", name="Skab")
    cannon = Equipment.objects.get(edition="n18", slug="stub-cannon")  # not on the Juve's list nor Common at the TP
    cannon.rarity = "Rare (7)"
    cannon.save()
    purchase = services.purchase_buy(gang=gang, equipment=cannon, fighter=krag, actor=gang.owner)
    targets = [f.pk for f in selectors.move_targets(gang, [purchase])[purchase.pk]]
    assert krag.pk not in targets and dorn.pk in targets and bully.pk not in targets
    with pytest.raises(ValidationError, match="already carries"):
        services.purchase_move(purchase=purchase, fighter=krag, actor=gang.owner)


# --- pages and permissions ---------------------------------------------------------------------------------


def record_url(gang, fighter, what="experience"):
    return reverse("gangs:fighter-record", args=[gang.pk, fighter.pk, what])


XP_POST = {"xp-amount": "2", "xp-reason": "Battle at home", "xp-token": "abc"}


@pytest.mark.django_db
def test_record_views_anonymous_stranger_owner_and_get(client, n18_gang, make_user):
    gang, krag = n18_gang
    url = record_url(gang, krag)
    assert client.post(url, XP_POST)["Location"].startswith(reverse("login"))
    client.force_login(make_user())
    assert client.post(url, XP_POST).status_code == 403
    client.force_login(gang.owner)
    assert client.get(url).status_code == 405
    assert client.post(record_url(gang, krag, "nonsense"), XP_POST).status_code == 404
    response = client.post(url, XP_POST)
    assert response.status_code == 302
    krag.refresh_from_db()
    assert krag.experience == 2
    again = client.post(url, XP_POST, follow=True).content.decode()
    assert "already recorded" in again


@pytest.mark.django_db
def test_the_fighter_page_shows_the_record_forms_history_and_undo(client, n18_gang):
    gang, krag = n18_gang
    client.force_login(gang.owner)
    client.post(
        record_url(gang, krag, "injury"), {"injury-mode": "entered", "injury-dice": "4 4", "injury-token": "t1"}
    )
    page = client.get(reverse("gangs:fighter-detail", args=[gang.pk, krag.pk])).content.decode()
    assert "Eye Injury" in page and 'data-testid="fighter-history"' in page and "Record the injury" in page
    entry = LedgerEntry.objects.get(fighter=krag, kind="injury")
    assert f'data-testid="undo-{entry.pk}"' in page
    response = client.post(reverse("gangs:entry-undo", args=[gang.pk, entry.pk]), {"back": "fighter"})
    assert response["Location"] == reverse("gangs:fighter-detail", args=[gang.pk, krag.pk])
    krag.refresh_from_db()
    assert krag.status == "active"
    page = client.get(reverse("gangs:gang-history", args=[gang.pk])).content.decode()
    assert "(undone)" in page and "Undone: " in page


@pytest.mark.django_db
def test_a_bad_injury_form_says_why_and_changes_nothing(client, n18_gang):
    gang, krag = n18_gang
    client.force_login(gang.owner)
    url = record_url(gang, krag, "injury")
    page = client.post(url, {"injury-mode": "chosen", "injury-token": "t2"}).content.decode()
    assert "Choose the result." in page and "needs a reason" in page
    page = client.post(url, {"injury-mode": "entered", "injury-dice": "4 9", "injury-token": "t3"}).content.decode()
    assert "not a face" in page
    assert not LedgerEntry.objects.filter(kind="injury").exists()


@pytest.mark.django_db
def test_in_a_campaign_the_record_is_the_arbitrators(client, make_campaign, make_fighter, make_user):
    arbitrator = make_user()
    campaign = make_campaign(gangs=1, arbitrator=arbitrator)
    gang = campaign.memberships.get().gang
    krag = make_fighter(gang, "leader", name="Krag")
    client.force_login(gang.owner)
    response = client.post(record_url(gang, krag), XP_POST)
    assert response.status_code == 403 and "Ask your arbitrator" in response.content.decode()
    page = client.get(reverse("gangs:fighter-detail", args=[gang.pk, krag.pk])).content.decode()
    assert 'data-testid="record-refusal"' in page and "Record experience" not in page
    entry = record.record_experience(fighter=krag, amount=1, reason="x", actor=arbitrator, token=token())
    assert client.post(reverse("gangs:entry-undo", args=[gang.pk, entry.pk])).status_code == 403
    client.force_login(arbitrator)
    assert client.post(record_url(gang, krag), {**XP_POST, "xp-token": "other"}).status_code == 302
    assert client.post(reverse("gangs:entry-undo", args=[gang.pk, entry.pk])).status_code == 302
    krag.refresh_from_db()
    assert krag.experience == 2


@pytest.mark.django_db
def test_sell_asks_first_and_says_what_it_pays(client, n18_gang):
    gang, krag = n18_gang
    knife = Equipment.objects.get(edition="n18", slug="fighting-knife")
    purchase = services.purchase_buy(gang=gang, equipment=knife, fighter=krag, actor=gang.owner)
    client.force_login(gang.owner)
    url = reverse("gangs:purchase-sell", args=[gang.pk, purchase.pk])
    page = client.get(url).content.decode()
    assert "Sell Fighting knife?" in page and "5 to 5 credits" in page and Purchase.objects.filter(pk=purchase.pk)
    assert client.post(url)["Location"] == reverse("gangs:fighter-detail", args=[gang.pk, krag.pk])
    assert not Purchase.objects.filter(pk=purchase.pk).exists()


@pytest.mark.django_db
def test_a_retired_fighter_is_offered_no_purchases_and_no_record(client, n18_gang):
    gang, krag = n18_gang
    services.fighter_retire(fighter=krag, actor=gang.owner)
    client.force_login(gang.owner)
    response = client.get(reverse("gangs:fighter-detail", args=[gang.pk, krag.pk]))
    assert "buy_form" not in response.context and "injury_form" not in response.context
    assert "status_form" not in response.context


@pytest.mark.django_db
def test_in_a_campaign_notes_and_their_undo_stay_the_owners(client, make_campaign, make_fighter):
    campaign = make_campaign(gangs=1)
    gang = campaign.memberships.get().gang
    krag = make_fighter(gang, "leader", name="Krag")
    client.force_login(gang.owner)
    client.post(reverse("gangs:fighter-notes", args=[gang.pk, krag.pk]), {"notes": "Owes the Guild"})
    entry = LedgerEntry.objects.get(fighter=krag, data__has_key="notes_before")
    assert client.post(reverse("gangs:entry-undo", args=[gang.pk, entry.pk])).status_code == 302
    krag.refresh_from_db()
    assert krag.notes == ""


@pytest.mark.django_db
def test_the_hire_and_buy_forms_offer_only_what_the_services_accept(n18_gang):
    from gangs import forms
    from gangs.selectors import gang_queryset

    gang, krag = n18_gang
    loaded = gang_queryset().get(pk=gang.pk)
    hire = forms.HireForm(gang=loaded)
    offered = [label for _, group in hire.fields["fighter_type"].choices for _, label in group]
    assert not any(label.startswith("Forge Tyrant") for label in offered)  # one Leader already
    assert "Forge Tyrant: at most one" in hire.fields["fighter_type"].help_text
    assert any(
        label.startswith("Forge Tyrant")
        for _, group in forms.HireForm(gang=loaded, can_override=True).fields["fighter_type"].choices
        for _, label in group
    )
    services.gang_override(gang=gang, actor=gang.owner, reason="Spent", credits=-(gang.stash - 12))
    gang.refresh_from_db()
    buy = forms.BuyForm(gang=gang, fighter=krag)
    assert sorted(label for _, group in buy.fields["equipment"].choices for _, label in group) == [
        "Autopistol — 10 credits (Trading Post)",
        "Flak armour — 10 credits (Trading Post)",
    ]
    assert "dearer than the 12 credits in the Stash" in buy.fields["equipment"].help_text


@pytest.mark.django_db
def test_dice_typed_in_are_the_roll_even_if_the_server_roll_was_left_ticked(client, n18_gang):
    gang, krag = n18_gang
    client.force_login(gang.owner)
    client.post(record_url(gang, krag, "injury"), {"injury-mode": "roll", "injury-dice": "4 5", "injury-token": "t9"})
    assert krag.injuries.get().code == "hand-injury"
    page = client.post(
        record_url(gang, krag, "injury"), {"injury-mode": "roll", "injury-result": "hobbled", "injury-token": "t10"}
    ).content.decode()
    assert "pick &#x27;Choose the result from the table&#x27;" in page and krag.injuries.count() == 1


@pytest.mark.django_db
def test_the_record_writes_the_sequences_typed_outcome_and_stores_a_stat_change_once(n18_gang):
    """The Record card and the post-battle sequence read an injury the same way (rulebook.outcomes.injury_outcomes)
    and write it through the same gangs service: the characteristic change is a StatChange row and nowhere else."""
    gang, krag = n18_gang
    rolled = LASTING_INJURY_RULES.apply(fighter_snapshot(krag), 53, ScriptedDice([]))
    planned = injury_outcomes(str(krag.pk), rolled, rule="Lasting Injury")
    [head] = [o for o in planned if isinstance(o, LastingInjury)]
    assert (head.code, head.roll, head.deltas) == ("head-injury", 53, {"Int": 1, "Wil": 1})
    before = current_stats(krag)
    record.record_lasting_injury(fighter=krag, mode="entered", dice=[5, 3], actor=gang.owner, token=token())
    [injury] = krag.injuries.all()
    assert (injury.code, injury.roll) == (head.code, head.roll)
    assert sorted(injury.stat_changes.values_list("stat", "delta")) == sorted(head.deltas.items())
    assert injury.effects == {}  # not a second copy of the changes
    entry = LedgerEntry.objects.get(fighter=krag, kind="injury")
    assert "stat_deltas" not in entry.data and entry.data["injury"] == injury.pk
    after = current_stats(krag)
    assert {k: after[k] - before[k] for k in after if after[k] != before[k]} == head.deltas
