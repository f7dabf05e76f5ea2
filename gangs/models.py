"""Player data: gangs, their fighters, what they own, and the ledger of every change.

Content (house lists, equipment, skills) lives in ``content``; a gang refers to it but keeps
what it paid and the stat line a fighter was hired with, so editing content never rewrites a
roster. Every change of credits, experience, reputation, equipment or a fighter's state is a
:class:`LedgerEntry`; the Stash, Reputation and experience totals stored here are kept equal to
the sum of the entries by :func:`gangs.ledger.ledger_record`, the only writer of those totals.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse

from content.models import Edition, FighterCategory
from core.caching import KeepsVersion

# Characteristic codes in roster order. Classic uses the first nine; the 2018+ rules add the last three.
STATS_CLASSIC = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld")
STATS_N18 = STATS_CLASSIC + ("Cl", "Wil", "Int")
STATS_BY_EDITION = {Edition.CLASSIC: STATS_CLASSIC, Edition.N18: STATS_N18}
STAT_CHOICES = [(code, code) for code in STATS_N18]


class Gang(KeepsVersion, models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="gangs")
    edition = models.CharField(max_length=8, choices=Edition.choices)
    house = models.ForeignKey("content.House", on_delete=models.PROTECT, related_name="gangs")
    name = models.CharField(max_length=80)
    stash = models.IntegerField(default=0, help_text="Credits in the Stash; equals the sum of the ledger's credits.")
    reputation = models.IntegerField(default=0, help_text="Equals the sum of the ledger's reputation.")
    notes = models.TextField(blank=True)
    # Set when a campaign import made the gang: its whole history was typed in a file, which an arbitrator it
    # asks to join later should see (campaigns.selectors.join_flags).
    imported_with_campaign = models.BooleanField(default=False, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    version = models.PositiveBigIntegerField(
        default=0,
        editable=False,
        help_text="Moves on every change to the gang; its rendered roster is cached under it.",
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(stash__gte=0), name="gang_stash_not_negative"),
            models.CheckConstraint(condition=Q(edition__in=Edition.values), name="gang_edition_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("gangs:gang-detail", args=[self.pk])


class FighterStatus(models.TextChoices):
    ACTIVE = "active", "Active"
    RECOVERY = "recovery", "In Recovery"
    CONVALESCENCE = "convalescence", "Convalescence"
    CAPTURED = "captured", "Captured"
    DEAD = "dead", "Dead"
    RETIRED = "retired", "Retired"
    # Taken back before the gang's first battle, with a refund (gangs.services.fighter_remove): off every list.
    REMOVED = "removed", "Removed before the first battle"


# Fighters who count towards the gang rating and can be picked for a battle.
ON_ROSTER = (FighterStatus.ACTIVE, FighterStatus.RECOVERY, FighterStatus.CONVALESCENCE, FighterStatus.CAPTURED)
AVAILABLE_FOR_BATTLE = (FighterStatus.ACTIVE,)
# Fighters no longer with the gang, for good: dead or retired.
GONE = (FighterStatus.DEAD, FighterStatus.RETIRED)


class Fighter(models.Model):
    gang = models.ForeignKey(Gang, on_delete=models.CASCADE, related_name="fighters")
    fighter_type = models.ForeignKey("content.FighterType", on_delete=models.PROTECT, related_name="fighters")
    name = models.CharField(max_length=80)
    cost = models.PositiveIntegerField(help_text="What the gang paid to hire this fighter.")
    base_stats = models.JSONField(help_text="The fighter type's stat line when hired, e.g. {'M': 4, 'WS': 3, ...}.")
    status = models.CharField(max_length=16, choices=FighterStatus.choices, default=FighterStatus.ACTIVE)
    experience = models.IntegerField(default=0, help_text="Equals the sum of the ledger's experience for this fighter.")
    starting_experience = models.PositiveIntegerField(
        default=0, help_text="Experience on joining; classic advance rolls count thresholds passed above it."
    )
    kills = models.PositiveIntegerField(default=0)
    captured_by = models.ForeignKey(
        Gang, null=True, blank=True, on_delete=models.SET_NULL, related_name="captives", help_text="While Captured."
    )
    notes = models.TextField(blank=True)
    # A Hired Gun's battle is campaigns.models.BattleHire: the link lives on the floor above.
    order = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["order", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(experience__gte=0), name="fighter_experience_not_negative"),
            models.CheckConstraint(condition=Q(status__in=FighterStatus.values), name="fighter_status_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_hired_gun(self) -> bool:
        return self.fighter_type.category == FighterCategory.HIRED_GUN


class StatChangeSource(models.TextChoices):
    ADVANCEMENT = "advancement", "Advancement"
    INJURY = "injury", "Lasting Injury"
    BIONIC = "bionic", "Bionic"
    OTHER = "other", "Other"


class Advancement(models.Model):
    """One advance: a characteristic, a skill or another improvement, with what it cost and is worth."""

    class Kind(models.TextChoices):
        CHARACTERISTIC = "characteristic", "Characteristic"
        SKILL = "skill", "Skill"
        OTHER = "other", "Other"

    fighter = models.ForeignKey(Fighter, on_delete=models.CASCADE, related_name="advancements")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    # Composed from names (a fighter type, a skill and its table): a text field, so no name is too long for it.
    description = models.TextField()
    xp_cost = models.PositiveIntegerField(
        default=0, help_text="2018+: experience spent. Classic: 0 (advances are rolled)."
    )
    value = models.IntegerField(default=0, help_text="Credits this advance adds to the fighter's value (2018+).")
    dice = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.description


class Injury(models.Model):
    """A Lasting Injury (2018+) or Serious Injury (classic) the fighter carries."""

    fighter = models.ForeignKey(Fighter, on_delete=models.CASCADE, related_name="injuries")
    code = models.SlugField(max_length=60, help_text="The table result's slug, e.g. 'eye-injury'.")
    name = models.CharField(max_length=80)
    roll = models.PositiveSmallIntegerField(null=True, blank=True)
    effects = models.JSONField(
        default=dict,
        blank=True,
        help_text="Its notes ({'notes': ...}); its characteristic changes are its StatChange rows, never here.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.name

    @staticmethod
    def notes_only(effects) -> dict:
        """What an injury keeps of ``effects`` from a file written before its characteristic changes were stored
        once (as ``StatChange`` rows): its notes."""
        return {"notes": effects["notes"]} if isinstance(effects, dict) and effects.get("notes") else {}


class StatChange(models.Model):
    """A change to one characteristic, from an advancement, an injury or another cause.

    The stat line shown is the hired ``base_stats`` plus these; each says where it came from.
    """

    fighter = models.ForeignKey(Fighter, on_delete=models.CASCADE, related_name="stat_changes")
    stat = models.CharField(max_length=3, choices=STAT_CHOICES)
    delta = models.SmallIntegerField()
    source = models.CharField(max_length=12, choices=StatChangeSource.choices)
    advancement = models.ForeignKey(
        Advancement, null=True, blank=True, on_delete=models.CASCADE, related_name="stat_changes"
    )
    injury = models.ForeignKey(Injury, null=True, blank=True, on_delete=models.CASCADE, related_name="stat_changes")

    class Meta:
        ordering = ["pk"]
        constraints = [models.CheckConstraint(condition=~Q(delta=0), name="stat_change_not_zero")]

    def __str__(self) -> str:
        return f"{self.stat} {self.delta:+d} ({self.get_source_display()})"


class FighterSkill(models.Model):
    fighter = models.ForeignKey(Fighter, on_delete=models.CASCADE, related_name="skills")
    skill = models.ForeignKey("content.Skill", on_delete=models.PROTECT, related_name="+")
    advancement = models.ForeignKey(Advancement, null=True, blank=True, on_delete=models.CASCADE, related_name="skills")
    injury = models.ForeignKey(Injury, null=True, blank=True, on_delete=models.CASCADE, related_name="skills")

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["fighter", "skill"], name="fighter_skill_once")]

    def __str__(self) -> str:
        return str(self.skill)


class Purchase(models.Model):
    """A piece of equipment the gang owns, at the price it paid; held by a fighter or in the Stash."""

    gang = models.ForeignKey(Gang, on_delete=models.CASCADE, related_name="purchases")
    fighter = models.ForeignKey(
        Fighter,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="purchases",
        help_text="Empty: in the Stash.",
    )
    equipment = models.ForeignKey("content.Equipment", on_delete=models.PROTECT, related_name="purchases")
    price = models.PositiveIntegerField(help_text="Credits paid; kept when content prices change.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.equipment} ({self.price} credits)"


class LedgerKind(models.TextChoices):
    CREDITS = "credits", "Credits"
    HIRE = "hire", "Hire"
    PURCHASE = "purchase", "Purchase"
    SALE = "sale", "Sale"
    EQUIPMENT = "equipment", "Equipment"
    EXPERIENCE = "experience", "Experience"
    ADVANCEMENT = "advancement", "Advancement"
    REPUTATION = "reputation", "Reputation"
    STATUS = "status", "Status"
    INJURY = "injury", "Injury"
    TERRITORY = "territory", "Territory"
    OVERRIDE = "override", "Arbitrator override"
    OTHER = "other", "Other"


class LedgerEntry(models.Model):
    """What changed, why, by whom and with which dice. Append-only: a mistake is undone by a reversing entry."""

    gang = models.ForeignKey(Gang, on_delete=models.CASCADE, related_name="ledger")
    fighter = models.ForeignKey(Fighter, null=True, blank=True, on_delete=models.SET_NULL, related_name="ledger")
    kind = models.CharField(max_length=16, choices=LedgerKind.choices)
    credits = models.IntegerField(default=0, help_text="Change to the Stash.")
    experience = models.IntegerField(default=0, help_text="Change to the fighter's experience.")
    reputation = models.IntegerField(default=0, help_text="Change to the gang's Reputation.")
    # Both are composed from names players choose (gangs, fighters, campaigns) and the rules' words, and a
    # reversing entry quotes the entry it reverses: text fields, so no combination of long names overflows.
    description = models.TextField(help_text="What happened, in the game's words.")
    reason = models.TextField(blank=True, help_text="Why: the rule or the decision behind it.")
    dice = models.JSONField(default=list, blank=True, help_text="Every die rolled: [{'die', 'for', 'value'}].")
    data = models.JSONField(default=dict, blank=True, help_text="Structured detail for history and reverts.")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reverses = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by")
    # The battle an entry came from is campaigns.models.BattleEntry: the link lives on the floor above.
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        verbose_name_plural = "ledger entries"
        indexes = [models.Index(fields=["gang", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(experience=0) | Q(fighter__isnull=False), name="ledger_experience_needs_fighter"
            )
        ]

    def __str__(self) -> str:
        return self.description


class ImportState(models.TextChoices):
    WAITING = "waiting", "Importing…"
    DONE = "done", "Imported"
    REFUSED = "refused", "Refused"


class ImportKind(models.TextChoices):
    YAKTRIBE = "yaktribe", "Import from YakTribe"
    GANG = "gang", "Import a gang"
    CAMPAIGN = "campaign", "Import a campaign"


class FileImport(models.Model):
    """A large file confirmed for import, imported by the worker (the outbox: written in the request that takes the
    file, so a worker that stops loses nothing; gangs.background_import). ``kind`` says which importer reads it;
    ``token`` makes the same form posted twice queue one import; ``made_url`` is the page of what it made (a gang
    or a campaign: the campaigns app is above this one, so no key to it), ``problems`` why it was refused."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="file_imports")
    kind = models.CharField(max_length=8, choices=ImportKind.choices, default=ImportKind.YAKTRIBE)
    raw = models.TextField()
    choices = models.JSONField(default=dict, blank=True)
    token = models.CharField(max_length=64, unique=True)
    state = models.CharField(max_length=8, choices=ImportState.choices, default=ImportState.WAITING)
    gang = models.ForeignKey(Gang, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    made_url = models.CharField(max_length=200, blank=True)
    problems = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(state__in=ImportState.values), name="file_import_state_valid"),
            models.CheckConstraint(condition=Q(kind__in=ImportKind.values), name="file_import_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.pk} of {self.owner}: {self.get_state_display()}"
