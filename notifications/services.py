"""The outbox: writing events in the caller's transaction, and the worker's side (expand, send, retry).

``notify`` is the one call a service makes: it writes the event rows in the service's own transaction (so
an event exists exactly when its change was committed) and, once that commits, wakes the worker through the
Tasks API. Waking is a hint only: if the queue is down the event waits in the outbox, and the worker's
start-up sweep (``manage.py worker``) and the next event's task find it. A send is at least once: a worker
killed after a webhook answered but before its row was marked sent sends that one again; nothing is lost.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Min, Q
from django.urls import reverse
from django.utils import timezone

from notifications import webhooks
from notifications.events import DESCRIBE
from notifications.models import (
    CampaignWebhook,
    Channel,
    Delivery,
    DeliveryStatus,
    Event,
    EventKind,
    MailChoice,
    MailMute,
)

logger = logging.getLogger(__name__)

# The waits after each failed send: eight attempts over about ten hours, then the arbitrators see it failed.
BACKOFF = (
    timedelta(seconds=30),
    timedelta(minutes=2),
    timedelta(minutes=10),
    timedelta(minutes=30),
    timedelta(hours=1),
    timedelta(hours=3),
    timedelta(hours=6),
)
MAX_ATTEMPTS = len(BACKOFF) + 1
# The most one task does before handing on to the next one (the worker's loop stays short and bounded).
BATCH = 200


def notify(kind: EventKind, subject) -> list[Event]:
    """Tell of ``subject`` (the battle, cycle or post-battle sequence the caller just changed) in the caller's
    transaction; the worker sends it once the transaction commits."""
    events = Event.objects.bulk_create(
        [Event(campaign_id=t.campaign_id, kind=t.kind, text=t.text, path=t.path) for t in DESCRIBE[kind](subject)]
    )
    transaction.on_commit(wake_worker)
    return events


def wake_worker(at: datetime | None = None) -> None:
    """Ask the queue for a delivery run (at ``at``, or now). A queue that refuses is logged, not raised: the
    outbox still holds the work."""
    from notifications.tasks import deliver_notifications, run_waiting  # the task module imports this one

    try:
        if at is not None:
            deliver_notifications.using(run_after=at).enqueue()
        elif not run_waiting():
            deliver_notifications.enqueue()
    except Exception:
        logger.exception("Could not queue a notification run; the outbox keeps the events for the worker")


def _readers(campaign_ids: set[int]) -> dict[int, set[int]]:
    """The people of each campaign (arbitrators and active players) who asked to be mailed, have an address and
    did not stop mail from that campaign."""
    wanted = Q(mail_choice__campaign_events=True) & ~Q(email="")
    user_model = apps.get_model(settings.AUTH_USER_MODEL)
    arbitrators = apps.get_model("campaigns", "CampaignArbitrator").objects.filter(
        campaign_id__in=campaign_ids, user__in=user_model.objects.filter(wanted)
    )
    players = apps.get_model("campaigns", "CampaignGang").objects.filter(
        campaign_id__in=campaign_ids, removed_at__isnull=True, gang__owner__in=user_model.objects.filter(wanted)
    )
    # A campaign a reader stopped mail from (MailMute): the others still mail them.
    muted = set(MailMute.objects.filter(campaign_id__in=campaign_ids).values_list("campaign_id", "user_id"))
    readers: dict[int, set[int]] = {}
    for campaign_id, user_id in [
        *arbitrators.values_list("campaign_id", "user_id"),
        *players.values_list("campaign_id", "gang__owner_id"),
    ]:
        if (campaign_id, user_id) not in muted:
            readers.setdefault(campaign_id, set()).add(user_id)
    return readers


@transaction.atomic
def events_expand(*, limit: int = BATCH) -> int:
    """Write the deliveries of up to ``limit`` new events: the webhook if the campaign has one, and a mail to
    each reader. Locked rows are skipped, so two workers never expand one event twice."""
    events = list(
        Event.objects.select_for_update(skip_locked=True)
        .filter(expanded_at__isnull=True)
        .order_by("created_at", "pk")[:limit]
    )
    if not events:
        return 0
    campaign_ids = {event.campaign_id for event in events}
    hooked = set(CampaignWebhook.objects.filter(campaign_id__in=campaign_ids).values_list("campaign_id", flat=True))
    readers = _readers(campaign_ids)
    now = timezone.now()
    rows = []
    for event in events:
        if event.campaign_id in hooked:
            rows.append(Delivery(event=event, channel=Channel.WEBHOOK, next_attempt_at=now))
        rows += [
            Delivery(event=event, channel=Channel.MAIL, user_id=user_id, next_attempt_at=now)
            for user_id in sorted(readers.get(event.campaign_id, ()))
        ]
    Delivery.objects.bulk_create(rows)
    Event.objects.filter(pk__in=[event.pk for event in events]).update(expanded_at=now)
    return len(events)


def _link(path: str) -> str:
    return f"{settings.SITE_URL.rstrip('/')}{path}" if settings.SITE_URL else path


def _send(delivery: Delivery) -> None:
    event = delivery.event
    if delivery.channel == Channel.WEBHOOK:
        try:
            hook = event.campaign.webhook  # read with the delivery (select_related)
        except CampaignWebhook.DoesNotExist:
            raise webhooks.SendError("The campaign has no webhook any more.", final=True) from None
        webhooks.post(hook.url, f"**{event.campaign.name}**: {event.text}\n{_link(event.path)}")
        return
    if not delivery.user.email:
        raise webhooks.SendError(f"{delivery.user.username} has no mail address any more.", final=True)
    choices = _link(reverse("notifications:mail-choice"))
    body = f"{event.text}\n\n{_link(event.path)}\n\nYou asked to be mailed your campaigns' events: {choices}\n"
    try:
        send_mail(f"[{event.campaign.name}] {event.get_kind_display()}", body, None, [delivery.user.email])
    except (smtplib.SMTPException, OSError) as error:
        raise webhooks.SendError(f"The mail server refused: {error}") from None


def _attempt_next() -> bool:
    """Send the oldest due delivery, in a transaction that holds its row: a second worker skips it, and a
    worker killed mid-send leaves it waiting. False when nothing is due."""
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("event__campaign__webhook", "user")
            .filter(status=DeliveryStatus.PENDING, next_attempt_at__lte=timezone.now())
            .order_by("next_attempt_at", "pk")
            .first()
        )
        if delivery is None:
            return False
        delivery.attempts += 1
        try:
            _send(delivery)
        except webhooks.SendError as error:
            delivery.last_error = str(error)[:300]
            if error.final or delivery.attempts >= MAX_ATTEMPTS:
                delivery.status = DeliveryStatus.FAILED
            else:
                delivery.next_attempt_at = timezone.now() + BACKOFF[delivery.attempts - 1]
                transaction.on_commit(lambda at=delivery.next_attempt_at: wake_worker(at))
        else:
            delivery.status, delivery.delivered_at, delivery.last_error = DeliveryStatus.DELIVERED, timezone.now(), ""
        delivery.save(update_fields=["attempts", "status", "next_attempt_at", "last_error", "delivered_at"])
    return True


def deliveries_send(*, limit: int = BATCH) -> int:
    """Send up to ``limit`` due deliveries, one transaction each; how many were tried."""
    tried = 0
    while tried < limit and _attempt_next():
        tried += 1
    return tried


@transaction.atomic
def deliveries_retry(*, campaign) -> int:
    """An arbitrator sends the campaign's failed deliveries again, from a fresh count of attempts."""
    count = Delivery.objects.filter(event__campaign=campaign, status=DeliveryStatus.FAILED).update(
        status=DeliveryStatus.PENDING, attempts=0, next_attempt_at=timezone.now(), last_error=""
    )
    if count:
        transaction.on_commit(wake_worker)
    return count


@transaction.atomic
def webhook_set(*, campaign, url: str) -> CampaignWebhook | None:
    """Set (or, with an empty ``url``, remove) the campaign's Discord webhook; refused if not allowed."""
    if not url.strip():
        CampaignWebhook.objects.filter(campaign=campaign).delete()
        return None
    url = webhooks.check_url(url)
    if len(url) > CampaignWebhook._meta.get_field("url").max_length:
        raise ValidationError("That webhook address is too long.")
    hook, _ = CampaignWebhook.objects.update_or_create(campaign=campaign, defaults={"url": url})
    return hook


@transaction.atomic
def mail_choice_set(*, user, campaign_events: bool, muted: Iterable[int] | None = None) -> MailChoice:
    """Mail on or off; with ``muted``, the ids of the campaigns the person no longer wants mailed (every other
    campaign of theirs mails them again)."""
    choice, _ = MailChoice.objects.update_or_create(user=user, defaults={"campaign_events": campaign_events})
    if muted is not None:
        muted = set(muted)
        MailMute.objects.filter(user=user).exclude(campaign_id__in=muted).delete()
        kept = set(MailMute.objects.filter(user=user).values_list("campaign_id", flat=True))
        MailMute.objects.bulk_create([MailMute(user=user, campaign_id=pk) for pk in sorted(muted - kept)])
    return choice


@dataclass(frozen=True)
class OutboxStatus:
    """How the worker keeps up (for /healthz): ``oldest_overdue`` is when the oldest work the worker should
    already have done became due (an event not yet expanded, a delivery whose time has come), or None."""

    waiting: int
    failed: int
    oldest_overdue: datetime | None

    def lag(self, now: datetime | None = None) -> timedelta:
        return (now or timezone.now()) - self.oldest_overdue if self.oldest_overdue else timedelta(0)

    def keeping_up(self, most: timedelta = timedelta(minutes=5)) -> bool:
        """False when work has waited longer than ``most``: the worker is down or far behind."""
        return self.lag() <= most


def outbox_status() -> OutboxStatus:
    now = timezone.now()
    pending = Delivery.objects.filter(status=DeliveryStatus.PENDING)
    new = Event.objects.filter(expanded_at__isnull=True).aggregate(oldest=Min("created_at"))["oldest"]
    due = pending.filter(next_attempt_at__lte=now).aggregate(oldest=Min("next_attempt_at"))["oldest"]
    overdue = min((at for at in (new, due) if at), default=None)
    return OutboxStatus(
        waiting=pending.count() + Event.objects.filter(expanded_at__isnull=True).count(),
        failed=Delivery.objects.filter(status=DeliveryStatus.FAILED).count(),
        oldest_overdue=overdue,
    )
