"""Helpers the campaign views share: redirects that also work for htmx, refusals as messages, dice."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from campaigns.forms import (
    DiceForm,
)
from campaigns.permissions import campaign_access
from core.responses import moved, refused
from rulebook.dice import entered_or_random

GET_POST = require_http_methods(["GET", "POST"])


def _dice(form: DiceForm):
    """Server dice, or the dice the players entered; the second value says which."""
    entered = form.cleaned_data.get("dice")
    return entered_or_random(entered), bool(entered)


def _run(request, url: str, action, success: str):
    """Call ``action()``; a refusal becomes an error message. Either way, back to ``url``."""
    try:
        action()
    except ValidationError as err:
        return refused(request, err, url)
    messages.success(request, success)
    return moved(request, url)


def _arbitrator_move(request, pk: int, action, success: str):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    return _run(request, reverse("campaigns:campaign-detail", args=[pk]), lambda: action(access.campaign), success)


def _battle_url(battle) -> str:
    return reverse("campaigns:battle-detail", args=[battle.campaign_id, battle.pk])
