"""A large campaign file is imported by the worker, as large gang files are (gangs.background_import): this
registers the campaign importer there, when the tools app is ready, so the web process and the worker both know it."""

from __future__ import annotations

from django.urls import reverse

from gangs.background_import import Importer, register
from gangs.models import FileImport, ImportKind
from tools.campaign_exchange.check import parse_campaign_file
from tools.campaign_exchange.load import campaign_import


def _campaign(job: FileImport):
    campaign = campaign_import(user=job.owner, data=parse_campaign_file(job.raw.encode()))
    return None, reverse("campaigns:campaign-detail", args=[campaign.pk])


register(
    ImportKind.CAMPAIGN,
    Importer(
        check=parse_campaign_file,
        run=_campaign,
        again="campaign_exchange:campaign-import",
        done="Imported the campaign: you are its arbitrator.",
    ),
)
