"""Hire with kit in one step, copy a fighter, and a hire form that offers what can be hired now with each choice's
stats and one short line for the rest (issue 24)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from content.models import Equipment
from gangs import forms, services
from gangs.ledger import ledger_record, ledger_totals
from gangs.models import Gang, LedgerKind


def n18(slug: str) -> Equipment:
    return Equipment.objects.get(edition="n18", slug=slug)


@pytest.mark.django_db
def test_a_fighter_is_hired_with_kit_in_one_step_or_not_at_all(client, make_gang):
    gang = make_gang(edition="n18")
    boss = gang.house.fighter_types.get(category="champion")
    client.force_login(gang.owner)
    url = reverse("gangs:fighter-hire", args=[gang.pk])
    assert not forms.HireForm(gang=gang).fields["kit"].choices  # until a type is chosen
    page = client.post(url, {"fighter_type": boss.pk, "name": "Vex", "choose_kit": "1"}).content.decode()
    assert "Stub cannon (20)" in page and not gang.fighters.exists()  # the kit step hires nobody yet
    form = forms.HireForm(gang=gang, kit_for=str(boss.pk))
    kit = {label: value for _, group in form.fields["kit"].choices for value, label in group}
    assert "Stub cannon (20)" in kit and "Combat shotgun (70)" not in kit  # the Leader's list, not the Boss's
    leader = gang.house.fighter_types.get(category="leader")
    shotgun = forms.HireForm(gang=gang, kit_for=str(leader.pk)).kit_items
    kit["Combat shotgun (70)"] = next(pk for pk, item in shotgun.items() if item.slug == "combat-shotgun")
    client.post(
        url, {"fighter_type": boss.pk, "name": "Vex", "kit": [kit["Stub cannon (20)"], kit["Fighting knife (15)"]]}
    )
    vex = gang.fighters.get(name="Vex")
    assert sorted(p.equipment.name for p in vex.purchases.all()) == ["Fighting knife", "Stub cannon"]
    gang = Gang.objects.get(pk=gang.pk)
    assert gang.stash == 1000 - 100 - 20 - 15 == ledger_totals(gang)["stash"]
    # The combat shotgun is on the Leader's list only: the hire is refused whole, nothing bought or hired.
    response = client.post(url, {"fighter_type": boss.pk, "name": "Kor", "kit": [kit["Combat shotgun (70)"]]})
    assert "That choice is not on offer now" in response.content.decode()
    before = gang.stash
    with pytest.raises(ValidationError, match="Combat shotgun is not on Kor"):  # the service refuses it too
        services.fighter_hire(gang=gang, fighter_type=boss, name="Kor", actor=gang.owner, kit=[n18("combat-shotgun")])
    assert not gang.fighters.filter(name="Kor").exists() and Gang.objects.get(pk=gang.pk).stash == before


@pytest.mark.django_db
def test_a_fighter_is_copied_with_its_kit(client, make_gang, make_fighter):
    gang = make_gang(edition="n18")
    grug = make_fighter(gang, "ganger", name="Grug")
    services.purchase_buy(gang=gang, equipment=n18("stub-cannon"), fighter=grug, actor=gang.owner)
    client.force_login(gang.owner)
    page = client.get(reverse("gangs:fighter-detail", args=[gang.pk, grug.pk])).content.decode()
    assert "Hire another Bruiser with the same kit" in page
    response = client.post(reverse("gangs:fighter-copy", args=[gang.pk, grug.pk]), {"name": "Grog"})
    grog = gang.fighters.get(name="Grog")
    assert response["Location"] == reverse("gangs:fighter-detail", args=[gang.pk, grog.pk])
    assert grog.fighter_type == grug.fighter_type and [p.equipment.slug for p in grog.purchases.all()] == [
        "stub-cannon"
    ]
    gang.refresh_from_db()
    ledger_record(gang=gang, kind=LedgerKind.CREDITS, credits=-(gang.stash - 60), description="Spent elsewhere")
    with pytest.raises(ValidationError):  # 55 for the Bruiser and 20 for the cannon: the Stash holds 60
        services.fighter_copy(fighter=grug, name="Rich", actor=gang.owner)
    assert not gang.fighters.filter(name="Rich").exists() and Gang.objects.get(pk=gang.pk).stash == 60


@pytest.mark.django_db
def test_the_hire_form_offers_what_can_be_hired_now_with_stats_and_one_line_for_the_rest(make_gang, make_fighter):
    gang = make_gang(edition="n18")
    make_fighter(gang, "leader")
    form = forms.HireForm(gang=gang)
    labels = [label for _, group in form.fields["fighter_type"].choices for _, label in group]
    assert 'Forge Boss (100 credits) · M 4" WS 3+ BS 4+ S 4 T 4 W 2 I 4+ A 2 Ld 6+ Cl 6+ Wil 6+ Int 7+' in labels
    assert not any(label.startswith("Forge Tyrant") for label in labels)
    assert form.fields["fighter_type"].help_text == "Not now: Forge Tyrant: at most one Forge Tyrant per gang."
    # A stale choice is refused in the game's words.
    stale = forms.HireForm({"fighter_type": "148", "name": "X"}, gang=gang)
    assert not stale.is_valid()
    assert stale.errors["fighter_type"] == [
        "That choice is not on offer now (the roster or the Stash changed since this page was drawn): "
        "choose again from the list."
    ]
