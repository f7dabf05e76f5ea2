"""Notifications: a campaign's events, written in the same transaction as the change they tell of.

An :class:`Event` is the outbox row: :func:`notifications.services.notify` writes it inside the service's
transaction, so an event exists exactly when its change was committed, and no send can block or break
the request. A worker (:mod:`notifications.tasks`, run through the Tasks API) turns each event into its
:class:`Delivery` rows (the campaign's Discord webhook, mail to each player or arbitrator who asked for
it) and sends them, retrying a failed send with backoff until it gives up and shows the failure to the
arbitrators.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaigns.announcements import EventKind


class Event(models.Model):
    """One thing that happened in a campaign, as the players are told it (``text``, and ``path``, the page
    to act on). ``expanded_at`` is set when the worker has written its deliveries."""

    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=EventKind.choices)
    text = models.TextField()
    path = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expanded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            models.Index(fields=["created_at"], condition=Q(expanded_at__isnull=True), name="event_unexpanded"),
        ]
        constraints = [models.CheckConstraint(condition=Q(kind__in=EventKind.values), name="event_kind_valid")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.text}"


class Channel(models.TextChoices):
    WEBHOOK = "webhook", "Discord"
    MAIL = "mail", "Mail"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Waiting"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed (gave up)"


class Delivery(models.Model):
    """One send of an event: to the campaign's webhook, or by mail to ``user``. The address is read when
    sending (a webhook changed in the meantime, a new mail address), never copied here."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    status = models.CharField(max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    last_error = models.CharField(max_length=300, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "pk"]
        verbose_name_plural = "deliveries"
        indexes = [
            models.Index(fields=["next_attempt_at"], condition=Q(status="pending"), name="delivery_due"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(channel__in=Channel.values), name="delivery_channel_valid"),
            models.CheckConstraint(condition=Q(status__in=DeliveryStatus.values), name="delivery_status_valid"),
            models.CheckConstraint(condition=Q(channel="webhook") | Q(user__isnull=False), name="mail_has_user"),
            models.UniqueConstraint(fields=["event", "channel", "user"], name="delivery_once"),
            models.UniqueConstraint(
                fields=["event"], condition=Q(channel="webhook"), name="delivery_one_webhook_an_event"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} to {self.get_channel_display()}"


class CampaignWebhook(models.Model):
    """A campaign's Discord webhook. Only its arbitrators see or change it: whoever has the address can post
    to the club's channel."""

    campaign = models.OneToOneField("campaigns.Campaign", on_delete=models.CASCADE, related_name="webhook")
    url = models.URLField(max_length=500)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Webhook of {self.campaign}"


class MailChoice(models.Model):
    """A person's choice to be mailed their campaigns' events (off until they ask)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_choice")
    campaign_events = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.user}: {'mail' if self.campaign_events else 'no mail'}"


class MailMute(models.Model):
    """One campaign a person does not want mailed, while the others still are (their :class:`MailChoice` on)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_mutes")
    campaign = models.ForeignKey("campaigns.Campaign", on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "campaign"], name="mail_mute_once")]

    def __str__(self) -> str:
        return f"{self.user}: no mail from {self.campaign}"
