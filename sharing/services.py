"""Making and revoking read-only links (permissions are the views')."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from sharing.models import ShareLink

# Enough for a club's channels; more would be links nobody remembers to revoke.
MOST_LIVE_LINKS = 5


@transaction.atomic
def share_link_create(*, actor, gang=None, campaign=None) -> ShareLink:
    live = ShareLink.objects.filter(gang=gang, campaign=campaign, revoked_at__isnull=True)
    if live.count() >= MOST_LIVE_LINKS:
        raise ValidationError(f"At most {MOST_LIVE_LINKS} links at a time: revoke one first.")
    return ShareLink.objects.create(gang=gang, campaign=campaign, created_by=actor)


@transaction.atomic
def share_link_revoke(*, link: ShareLink) -> ShareLink:
    link = ShareLink.objects.select_for_update().get(pk=link.pk)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
    return link
