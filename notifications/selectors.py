"""Reads the notification pages need."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from campaigns.models import Campaign
from notifications.models import Delivery, DeliveryStatus, MailMute


def troubled_deliveries(campaign, *, limit: int = 30) -> QuerySet[Delivery]:
    """The campaign's deliveries that failed at least once and are not yet sent: retrying, or given up."""
    return (
        Delivery.objects.filter(event__campaign=campaign, attempts__gt=0)
        .exclude(status=DeliveryStatus.DELIVERED)
        .select_related("event", "user")
        .order_by("-event__created_at", "-pk")[:limit]
    )


def mailing_campaigns(user) -> list[Campaign]:
    """The campaigns whose events may mail ``user``: those they arbitrate or play in with a gang (the readers of
    notifications.services._readers), by name."""
    mine = Q(arbitrators__user=user) | Q(memberships__gang__owner=user, memberships__removed_at__isnull=True)
    return list(Campaign.objects.filter(mine).distinct().order_by("name", "pk"))


def muted_campaign_ids(user) -> list[int]:
    """The campaigns ``user`` stopped mail from."""
    return list(MailMute.objects.filter(user=user).values_list("campaign_id", flat=True))
