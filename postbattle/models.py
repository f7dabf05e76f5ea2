"""The post-battle sequence of one gang after one confirmed battle.

A :class:`Sequence` is a draft while the player walks through its steps: each step's dice and
choices, what they decided and the fighters as they stand after it are saved in ``draft``. Nothing
touches the roster until :func:`postbattle.services.sequence_apply` applies the whole sequence in
one transaction. That happens exactly once: the sequence row is locked and its state checked, and
the :class:`Application` row (one per sequence, a database unique constraint) is written first, so
a second submission that slipped past the lock fails on the constraint and rolls back.

An arbitrator may revert an applied sequence: its ledger entries are reversed, the roster restored
from ``Application.undo``, and a new draft (``run`` + 1) can be run again, with the same dice if
they were right.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class SequenceState(models.TextChoices):
    DRAFT = "draft", "In progress"
    APPLIED = "applied", "Applied"
    REVERTED = "reverted", "Reverted"


class Sequence(models.Model):
    """``draft`` holds ``{"start": {fighter id: snapshot}, "steps": {slug: step record}}`` where a step
    record is ``{"inputs": {"dice": [faces], "entered": bool, "choices": {...}}, "lines": [account
    lines], "effects": [...], "fighters": {fighter id: snapshot after the step}}`` (see
    :mod:`postbattle.engine`)."""

    battle = models.ForeignKey("campaigns.Battle", on_delete=models.CASCADE, related_name="post_battle_sequences")
    gang = models.ForeignKey("gangs.Gang", on_delete=models.CASCADE, related_name="post_battle_sequences")
    edition = models.CharField(max_length=8)
    run = models.PositiveSmallIntegerField(default=1, help_text="1, then 2 after a revert, and so on.")
    state = models.CharField(max_length=8, choices=SequenceState.choices, default=SequenceState.DRAFT)
    step = models.PositiveSmallIntegerField(default=0, help_text="Index of the step the player is on.")
    draft = models.JSONField(default=dict, blank=True)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "gang", "run"], name="post_battle_run_once"),
            # At most one live (draft or applied) sequence per gang and battle.
            models.UniqueConstraint(
                fields=["battle", "gang"], condition=~Q(state="reverted"), name="post_battle_one_live"
            ),
            models.CheckConstraint(condition=Q(state__in=SequenceState.values), name="post_battle_state_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.gang} after {self.battle} (run {self.run})"

    @property
    def is_draft(self) -> bool:
        return self.state == SequenceState.DRAFT

    @property
    def is_applied(self) -> bool:
        return self.state == SequenceState.APPLIED


class Application(models.Model):
    """The one application of a sequence: who applied it, the account, and what a revert must undo.

    ``undo``: ``{"fighters": {id: {"status", "captured_by"}}, "injuries": [ids], "stat_changes": [ids],
    "skills": [ids], "advancements": [ids], "purchases": {purchase id: fighter id}, "recruits": [ids]}``.
    """

    sequence = models.OneToOneField(Sequence, on_delete=models.CASCADE, related_name="application")
    applied_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    applied_at = models.DateTimeField(auto_now_add=True)
    undo = models.JSONField(default=dict, blank=True)
    reverted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reverted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-applied_at", "-pk"]

    def __str__(self) -> str:
        return f"Applied: {self.sequence}"
