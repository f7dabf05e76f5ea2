"""Every form of the campaigns, battles and post-battle apps refuses a stale or forged choice in the game's words
(core.forms.GameWords), never Django's "Select a valid choice. 148 is not one of the available choices."."""

from __future__ import annotations

import inspect
from types import SimpleNamespace

import pytest
from django import forms
from django.http import QueryDict

from battles import forms as battle_forms
from campaigns import forms as campaign_forms
from campaigns.models import CampaignTerritory
from core.forms import GameWords
from gangs.models import Gang
from postbattle import forms as postbattle_forms
from postbattle.engine import Field

MODULES = (campaign_forms, battle_forms, postbattle_forms)
STALE = "148"


def _forms_of(module) -> list[type]:
    return [
        cls
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, forms.BaseForm) and cls.__module__ == module.__name__
    ]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_every_form_speaks_the_games_words(module):
    strangers = [cls.__name__ for cls in _forms_of(module) if not issubclass(cls, GameWords)]
    assert _forms_of(module) and strangers == []


def _gang(name):
    return SimpleNamespace(name=name)


BATTLE = SimpleNamespace(
    edition="n18",
    gang=lambda side: _gang(f"Gang {side}"),
    gang_a=_gang("Gang A"),
    gang_b=_gang("Gang B"),
    campaign_battle_id=None,
    facts={},
)
REPORTED = SimpleNamespace(
    attacker=_gang("Attackers"),
    defender=_gang("Defenders"),
    campaign=SimpleNamespace(edition="n18"),
    scenario="",
    scenario_facts={},
)
NO_GANGS = {"gangs": Gang.objects.none()}
AT_TABLE = {"session": BATTLE, "fighters": []}
# Each form with a choice to make, with what its page hands it (no choice on offer: every one posted is stale).
CASES = {
    "CampaignForm": (campaign_forms.CampaignForm, {}),
    "JoinForm": (campaign_forms.JoinForm, NO_GANGS),
    "FoundForForm": (campaign_forms.FoundForForm, {"edition": "n18"}),
    "RolesForm": (campaign_forms.RolesForm, {}),
    "PairForm": (campaign_forms.PairForm, {**NO_GANGS, "territories": CampaignTerritory.objects.none()}),
    "ChallengeForm": (
        campaign_forms.ChallengeForm,
        {**NO_GANGS, "challengers": Gang.objects.none(), "territories": CampaignTerritory.objects.none()},
    ),
    "GangChoiceForm": (campaign_forms.GangChoiceForm, NO_GANGS),
    "TerritoryAddForm": (campaign_forms.TerritoryAddForm, {"edition": "n18"}),
    "TerritoryAssignForm": (campaign_forms.TerritoryAssignForm, NO_GANGS),
    "ScenarioChoiceForm": (campaign_forms.ScenarioChoiceForm, {**NO_GANGS, "choices": [("ambush", "Ambush")]}),
    "CrewForm": (campaign_forms.CrewForm, {"fighters": []}),
    "ReportForm": (campaign_forms.ReportForm, {"battle": REPORTED, "attacker_fighters": [], "defender_fighters": []}),
    "LogFilterForm": (campaign_forms.LogFilterForm, {"gangs": []}),
    "HouseRulesForm": (campaign_forms.HouseRulesForm, {"edition": "n18"}),
    "BattleStartForm": (battle_forms.BattleStartForm, {"user": None}),
    "ShootForm": (battle_forms.ShootForm, AT_TABLE),
    "FightForm": (battle_forms.FightForm, AT_TABLE),
    "CoupDeGraceForm": (battle_forms.CoupDeGraceForm, AT_TABLE),
    "MultiFightForm": (battle_forms.MultiFightForm, AT_TABLE),
    "TestForm": (battle_forms.TestForm, {**AT_TABLE, "test": "bottle"}),
    "ScenarioForm": (battle_forms.ScenarioForm, {**AT_TABLE, "action": "ammo-cache"}),
    "ReinforceForm": (battle_forms.ReinforceForm, {"session": BATTLE}),
    "BattleEndForm": (battle_forms.BattleEndForm, {"session": BATTLE}),
    "GroupForm": (
        battle_forms.GroupForm,
        {
            "leader": SimpleNamespace(pk=1, name="Krag", side="attacker", profile={"group_activation": 2}),
            "fighters": [],
        },
    ),
    "StepForm": (postbattle_forms.StepForm, {"fields": [Field("who", "Who", "select", (("1", "Rex"),))]}),
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", CASES)
def test_a_stale_choice_is_refused_in_the_games_words(name):
    form_class, kwargs = CASES[name]
    unbound = form_class(**kwargs)
    choices = [n for n, f in unbound.fields.items() if isinstance(f, forms.ChoiceField)]
    data = QueryDict(mutable=True)
    for field_name in choices:
        data.setlist(unbound.add_prefix(field_name), [STALE])
    form = form_class(data, **kwargs)
    assert not form.is_valid()
    refused = {n: form.errors[n] for n in choices if n in form.errors}
    stale = f"That choice is not on offer now ({form.changed} changed since this page was drawn): choose again from the list."
    assert refused and all(errors == [stale] for errors in refused.values()), refused
    assert "valid choice" not in str(form.errors) and STALE not in str(form.errors)


def test_every_form_with_a_choice_is_tried():
    """A new form with a choice field joins CASES (or this test says which)."""
    with_choices = {
        cls.__name__
        for module in MODULES
        for cls in _forms_of(module)
        if any(isinstance(f, forms.ChoiceField) for f in cls.base_fields.values())
    }
    assert with_choices - set(CASES) - {"ActionForm"} == set()
