"""A campaign's notifications (its arbitrators only: the webhook is a secret) and a person's mail choice."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.permissions import campaign_access
from notifications import selectors, services
from notifications.forms import MailChoiceForm, WebhookForm
from notifications.models import CampaignWebhook, MailChoice

GET_POST = require_http_methods(["GET", "POST"])


@login_required
@GET_POST
def campaign_notifications(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    campaign = access.campaign
    hook = CampaignWebhook.objects.filter(campaign=campaign).first()
    form = WebhookForm(request.POST if request.method == "POST" else None, initial={"url": hook.url if hook else ""})
    if request.method == "POST" and form.is_valid():
        try:
            saved = services.webhook_set(campaign=campaign, url=form.cleaned_data["url"])
        except ValidationError as err:
            form.add_error("url", err)
        else:
            messages.success(request, "Events go to the Discord channel." if saved else "No more Discord posts.")
            return redirect("notifications:campaign-notifications", pk=pk)
    context = {"campaign": campaign, "form": form, "deliveries": selectors.troubled_deliveries(campaign)}
    return render(request, "notifications/campaign_notifications.html", context)


@login_required
@require_POST
def deliveries_retry(request, pk: int):
    access = campaign_access(request.user, pk)
    access.require_arbitrator()
    count = services.deliveries_retry(campaign=access.campaign)
    messages.success(request, f"{count} failed deliver{'y' if count == 1 else 'ies'} will be sent again.")
    return redirect(reverse("notifications:campaign-notifications", args=[pk]))


@login_required
@GET_POST
def mail_choice(request):
    current = MailChoice.objects.filter(user=request.user).values_list("campaign_events", flat=True).first()
    initial = {"campaign_events": bool(current), "muted": selectors.muted_campaign_ids(request.user)}
    form = MailChoiceForm(
        request.POST if request.method == "POST" else None,
        initial=initial,
        campaigns=selectors.mailing_campaigns(request.user),
    )
    if request.method == "POST" and form.is_valid():
        services.mail_choice_set(
            user=request.user,
            campaign_events=form.cleaned_data["campaign_events"],
            muted=form.cleaned_data.get("muted", []),
        )
        messages.success(request, "Saved.")
        return redirect("notifications:mail-choice")
    return render(request, "notifications/mail_choice.html", {"form": form, "has_email": bool(request.user.email)})
