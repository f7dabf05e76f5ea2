"""Read-only links: the owner's and the arbitrator's pages that make and revoke them, and the shared pages.

The shared pages need no account and are never indexed (an ``X-Robots-Tag`` header and a robots meta tag).
They show a revoked or unknown link as a 404, like anything else nobody may see.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaigns import selectors as campaign_selectors
from campaigns.permissions import campaign_access
from gangs import printing
from gangs.cache import FRAGMENT_SECONDS, fragment_key
from gangs.permissions import gang_for_view
from gangs.selectors import lazy_roster, roster_page
from gangs.views import PRINT_SIZES
from sharing import services
from sharing.models import ShareLink

GET_POST = require_http_methods(["GET", "POST"])
NOINDEX = "noindex, nofollow, noarchive"


def _owned_gang(user, pk: int):
    gang = gang_for_view(user, pk)
    if gang.owner_id != user.pk:
        raise PermissionDenied("Only the gang's owner shares it.")
    return gang


def _manage(request, subject: dict, back: str):
    links = ShareLink.objects.filter(**subject, revoked_at__isnull=True)
    if request.method == "POST":
        try:
            services.share_link_create(actor=request.user, **subject)
        except ValidationError as err:
            messages.error(request, err.messages[0])
        else:
            messages.success(request, "A new read-only link is ready: copy it below.")
        return redirect(request.path)
    rows = [(link, request.build_absolute_uri(reverse("sharing:shared", args=[link.token]))) for link in links]
    return render(request, "sharing/manage.html", {**subject, "links": rows, "back": back})


@login_required
@GET_POST
def gang_links(request, pk: int):
    gang = _owned_gang(request.user, pk)
    return _manage(request, {"gang": gang}, gang.get_absolute_url())


@login_required
@GET_POST
def campaign_links(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    return _manage(
        request, {"campaign": access.campaign}, reverse("campaigns:campaign-detail", args=[pk]) + "#settings"
    )


@login_required
@require_POST
def link_revoke(request, token: str):
    link = get_object_or_404(ShareLink.objects.select_related("gang"), token=token, revoked_at__isnull=True)
    if link.gang_id is not None:
        _owned_gang(request.user, link.gang_id)
        back = reverse("sharing:gang-links", args=[link.gang_id])
    else:
        campaign_access(request.user, link.campaign_id).require_arbitrator()
        back = reverse("sharing:campaign-links", args=[link.campaign_id])
    services.share_link_revoke(link=link)
    messages.success(request, "Revoked: that link shows nothing any more.")
    return redirect(back)


@require_GET
def shared(request, token: str):
    link = get_object_or_404(
        ShareLink.objects.select_related("gang__owner", "campaign"), token=token, revoked_at__isnull=True
    )
    response = _shared_gang(request, link) if link.gang_id is not None else _shared_campaign(request, link)
    response["X-Robots-Tag"] = NOINDEX
    return response


def _shared_gang(request, link: ShareLink):
    """The gang's printed roster or fighter cards, as any viewer who may not see its campaign is shown them."""
    page = roster_page(link.gang.owner, link.gang_id)
    gang = page.gang
    kind = "cards" if request.GET.get("cards") == "1" else "roster"
    size = request.GET.get("size", "a4")
    roster = lazy_roster(gang)
    context = {
        "gang": gang,
        "roster": roster,
        "roster_key": fragment_key(gang, False),
        "kind": kind,
        "fragment_seconds": FRAGMENT_SECONDS,
        "size": size if size in PRINT_SIZES else "a4",
        "sizes": PRINT_SIZES,
        "shared": True,
        **printing.sheet_parts(page, roster, kind, False),
    }
    return render(request, "gangs/gang_print.html", context)


def _shared_campaign(request, link: ShareLink):
    campaign = link.campaign
    context = {
        "campaign": campaign,
        "standings": campaign_selectors.standings(campaign),
        "log": campaign_selectors.campaign_log(campaign, limit=50),
    }
    return render(request, "sharing/campaign.html", context)
