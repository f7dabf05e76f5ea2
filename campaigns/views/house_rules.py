"""The campaign's house rules (its settings section): arbitrators change them from now on."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import render
from django.urls import reverse

from campaigns.forms import HouseRulesForm
from campaigns.models import RULE_FIELDS
from campaigns.permissions import campaign_access
from campaigns.selectors import rules_in_force, settings_panel
from campaigns.services import house_rules
from campaigns.views._common import GET_POST
from core.responses import moved


def house_rules_form(campaign, data=None) -> HouseRulesForm:
    rules = rules_in_force(campaign)
    initial = {name: getattr(rules, name) for name in RULE_FIELDS}
    return HouseRulesForm(data, initial=initial, edition=campaign.edition)


@login_required
@GET_POST
def house_rules_edit(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    campaign = access.campaign
    form = house_rules_form(campaign, request.POST or None)
    if request.method == "POST" and form.is_valid():
        values = {name: form.cleaned_data[name] for name in RULE_FIELDS}
        try:
            house_rules.house_rules_change(
                campaign=campaign, actor=request.user, note=form.cleaned_data["note"], **values
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return moved(request, reverse("campaigns:campaign-detail", args=[pk]) + "#settings")
    context = {"campaign": campaign, "house_rules_form": form, **settings_panel(campaign)}
    return render(request, "campaigns/house_rules_form.html", context)
