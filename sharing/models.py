"""Read-only links for people without an account (a club's Discord): a gang's roster and fighter cards, shared
by its owner, or a campaign's standings and log, shared by an arbitrator. Whoever has the address may look;
revoking the link ends that. What a link shows follows the visibility rule: a shared gang shows nothing of its
campaign (its territories, the campaign's name), and a shared campaign shows only its standings and log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q


def new_token() -> str:
    return secrets.token_urlsafe(24)


class ShareLink(models.Model):
    token = models.CharField(max_length=40, unique=True, default=new_token)
    gang = models.ForeignKey("gangs.Gang", null=True, blank=True, on_delete=models.CASCADE, related_name="share_links")
    campaign = models.ForeignKey(
        "campaigns.Campaign", null=True, blank=True, on_delete=models.CASCADE, related_name="share_links"
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(gang__isnull=True, campaign__isnull=False) | Q(gang__isnull=False, campaign__isnull=True),
                name="share_link_one_subject",
            )
        ]

    def __str__(self) -> str:
        return f"Read-only link to {self.gang or self.campaign}"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None
