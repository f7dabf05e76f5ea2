"""The integrity harness runs in the suite: a small campaign of each edition, played by the machine through the
services, finishes with every invariant intact; and a broken invariant stops it with a non-zero exit naming it."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db.models import F

from campaigns.models import Campaign
from content.loader import load_content
from gangs.models import Gang

pytestmark = pytest.mark.django_db


@pytest.fixture
def content(db):
    load_content()


def simulate(*args) -> list[str]:
    out = io.StringIO()
    call_command("simulate_campaign", *args, stdout=out)
    return out.getvalue().strip().splitlines()


def test_a_small_n18_campaign_with_the_longest_names_keeps_its_invariants(content):
    lines = simulate("--edition", "n18", "--gangs", "2", "--cycles", "2", "--seed", "3", "--long-names", "--keep")
    assert lines[-1].startswith("simulate_campaign n18 gangs=2 cycles=2 seed=3: 2 battles")
    assert lines[-1].endswith("invariants intact")
    campaign = Campaign.objects.get()
    assert campaign.cycle == 2 and len(campaign.name) == 100
    assert all(len(gang.name) == 80 for gang in Gang.objects.all())
    # Both battles were confirmed (long names in every composed description) and each gang's sequence applied.
    assert campaign.battles.filter(status="confirmed").count() == 2
    assert all(battle.post_battle_sequences.filter(state="applied").count() == 2 for battle in campaign.battles.all())


def test_a_small_classic_campaign_keeps_its_invariants_and_rolls_back(content):
    lines = simulate("--edition", "classic", "--gangs", "2", "--cycles", "1", "--seed", "5")
    assert "1 battles" in lines[-1] and lines[-1].endswith("invariants intact")
    assert not Campaign.objects.exists() and not Gang.objects.exists()  # rolled back without --keep


def test_a_broken_invariant_stops_the_run_naming_it(content, monkeypatch):
    from core.simulation.campaign import Simulation

    scenario = Simulation.scenario

    def with_a_stray_credit(self, battle):
        Gang.objects.filter(pk=battle.attacker_id).update(stash=F("stash") + 1)  # no ledger entry: the bug to find
        return scenario(self, battle)

    monkeypatch.setattr(Simulation, "scenario", with_a_stray_credit)
    with pytest.raises(CommandError, match=r"invariant broken after battle \d+ .*: ledger: .* Stash"):
        simulate("--edition", "n18", "--gangs", "2", "--cycles", "1", "--seed", "1")
