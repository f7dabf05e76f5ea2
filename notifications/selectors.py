"""Reads the notification pages need."""

from __future__ import annotations

from django.db.models import QuerySet

from notifications.models import Delivery, DeliveryStatus


def troubled_deliveries(campaign, *, limit: int = 30) -> QuerySet[Delivery]:
    """The campaign's deliveries that failed at least once and are not yet sent: retrying, or given up."""
    return (
        Delivery.objects.filter(event__campaign=campaign, attempts__gt=0)
        .exclude(status=DeliveryStatus.DELIVERED)
        .select_related("event", "user")
        .order_by("-event__created_at", "-pk")[:limit]
    )
