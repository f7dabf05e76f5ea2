"""The campaign export (arbitrators), the standings as CSV (anyone who may see the campaign), and the import."""

from __future__ import annotations

import json
import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_GET, require_http_methods

from campaigns.permissions import campaign_access
from gangs import background_import
from gangs.forms import ImportForm
from gangs.models import ImportKind
from tools.campaign_exchange import campaign_export, campaign_import, parse_campaign_file, standings_csv
from tools.campaign_exchange.check import MAX_FILE_BYTES


def _attachment(body: str, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def export_json(request, pk: int):
    """The whole campaign: every gang's ledger is in it, so only its arbitrators may take it away."""
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    name = f"campaign-{slugify(access.campaign.name)[:40] or access.campaign.pk}.json"
    return _attachment(json.dumps(campaign_export(access.campaign), indent=1), "application/json", name)


@login_required
@require_GET
def export_standings(request, pk: int):
    access = campaign_access(request.user, pk)
    name = f"standings-{slugify(access.campaign.name)[:40] or access.campaign.pk}.csv"
    return _attachment(standings_csv(access.campaign), "text/csv; charset=utf-8", name)


@login_required
@require_http_methods(["GET", "POST"])
def import_file(request):
    form = ImportForm(request.POST or None, request.FILES or None)
    form.fields["file"].help_text = "A campaign exported from Underhive Ledger (JSON, version 1 or 2)."
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            # One byte past the limit at most: the parser refuses what is longer, never reading it all.
            raw = form.cleaned_data["file"].read(MAX_FILE_BYTES + 1)
            if background_import.in_background(
                ImportKind.CAMPAIGN, raw
            ):  # a large file (seconds to import): the worker imports it
                queued = background_import.import_queue(
                    kind=ImportKind.CAMPAIGN, owner=request.user, raw=raw, token=uuid.uuid4().hex
                )
                return redirect("gangs:import-status", pk=queued.pk)
            campaign = campaign_import(user=request.user, data=parse_campaign_file(raw))
        except ValidationError as error:
            problems = error.messages
        else:
            messages.success(request, f"Imported {campaign.name}: you are its arbitrator.")
            return redirect("campaigns:campaign-detail", pk=campaign.pk)
    return render(request, "campaign_exchange/import.html", {"form": form, "problems": problems})
