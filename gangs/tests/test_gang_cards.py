"""Cards (issue 24): kills on every card, the classic free knife, notes written on the ruled lines, "Int 10+" kept
on one line (print.css; the print browser test checks nothing is cut off)."""

from pathlib import Path

import pytest
from django.urls import reverse

from content.models import Equipment
from gangs import services


@pytest.mark.django_db
def test_kills_and_the_classic_free_knife_on_every_card(client, make_gang, make_fighter):
    gang = make_gang()
    leader, ganger = make_fighter(gang, "leader", name="Krag"), make_fighter(gang, "ganger", name="Mira")
    services.purchase_buy(
        gang=gang, equipment=Equipment.objects.get(edition="classic", slug="knife"), fighter=ganger, actor=gang.owner
    )
    leader.kills = 3
    leader.save()
    client.force_login(gang.owner)
    page = client.get(gang.get_absolute_url()).content.decode()
    assert "3 kills" in page and "0 kills" in page
    assert page.count("Knife: carried free") == 1  # Krag; Mira bought one
    cards = client.get(reverse("gangs:gang-print", args=[gang.pk]) + "?cards=1").content.decode()
    assert "3 kills" in cards and cards.count("free, every fighter carries one") == 1


@pytest.mark.django_db
def test_no_free_knife_in_the_2018_rules(client, make_gang, make_fighter):
    gang = make_gang(edition="n18")
    make_fighter(gang, "leader")
    client.force_login(gang.owner)
    assert "carried free" not in client.get(gang.get_absolute_url()).content.decode()


def test_notes_sit_on_the_ruled_lines_and_a_stat_never_wraps():
    css = (Path(__file__).resolve().parents[1] / "static" / "gangs" / "print.css").read_text()
    notes = css[css.index(".fcard .notes {") :].split("}")[0]
    # One line of writing per rule: the line height is the rules' period (3.4 + 0.15 mm).
    assert "line-height: 3.55mm" in notes and "#999 3.4mm 3.55mm" in notes
    assert ".fcard .statline th, .fcard .statline td { white-space: nowrap; }" in css
