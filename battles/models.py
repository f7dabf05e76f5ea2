"""The battle assistant's records: a battle in play, each fighter's state in it, and the log of actions.

A :class:`BattleSession` is one game between two saved gangs, friendly or for a campaign battle. Its
fighters are :class:`BattleFighter` rows: a snapshot of the roster entry taken at the start (stat line,
weapons with their profiles, armour save, skills), so the rules queries never touch the roster again, and
the fighter's state in the battle as explicit fields. Which fields and values an edition uses is
:data:`STATE_FIELDS` / :data:`CONDITIONS`; the services refuse the others.

Every change is a :class:`BattleAction` holding the rulebook query, the odds shown, every die, the
result, the changes made and the state of the whole battle before it (``state_before``), so the last
action can be undone exactly.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaigns.models import Side
from content.models import Edition
from rulebook.n18 import kit


class Role(models.TextChoices):
    NONE = "", "No role"
    ATTACKER = "attacker", "Attacker"
    DEFENDER = "defender", "Defender"


class BattleStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", "In progress"
    ENDED = "ended", "Ended"


class Phase(models.TextChoices):
    # The 1995 turn: each player's turn runs these four phases in order.
    MOVEMENT = "movement", "Movement"
    SHOOTING = "shooting", "Shooting"
    HAND_TO_HAND = "hand_to_hand", "Hand-to-hand"
    RECOVERY = "recovery", "Recovery"
    # The 2018+ round: both gangs share it, activating fighters in turn.
    PRIORITY = "priority", "Priority"
    ACTION = "action", "Action"
    END = "end", "End"


PHASES = {
    Edition.CLASSIC: (Phase.MOVEMENT, Phase.SHOOTING, Phase.HAND_TO_HAND, Phase.RECOVERY),
    Edition.N18: (Phase.PRIORITY, Phase.ACTION, Phase.END),
}


class Condition(models.TextChoices):
    # classic: pinned, down (lying wounded) and out of action exclude each other
    STANDING = "standing", "Standing"
    DOWN = "down", "Down"
    # n18: a fighter is Active, Pinned, Seriously Injured or Out of Action (and, apart, Standing or Prone)
    ACTIVE = "active", "Active"
    SERIOUSLY_INJURED = "seriously_injured", "Seriously Injured"
    # both
    PINNED = "pinned", "Pinned"
    OUT_OF_ACTION = "out_of_action", "Out of Action"


CONDITIONS = {
    Edition.CLASSIC: (Condition.STANDING, Condition.PINNED, Condition.DOWN, Condition.OUT_OF_ACTION),
    Edition.N18: (Condition.ACTIVE, Condition.PINNED, Condition.SERIOUSLY_INJURED, Condition.OUT_OF_ACTION),
}
FRESH_CONDITION = {Edition.CLASSIC: Condition.STANDING, Edition.N18: Condition.ACTIVE}

# The state of a fighter in play, by edition: what undo restores and what the page shows.
COMMON_STATE = ("wounds_left", "flesh_wounds", "condition", "broken", "engaged", "failed_weapons")
STATE_FIELDS = {
    Edition.CLASSIC: (*COMMON_STATE, "hidden", "overwatch", "taken_out_by_id"),
    Edition.N18: (
        *COMMON_STATE,
        "jammed_weapons",
        "prone",
        "ready",
        "ablaze",
        "taken_out_by_id",
        "seriously_injured_by_id",
        "chem_state",
    ),
}
# The session's own state (beside its fighters'), which each action records and undo restores.
SESSION_STATE = ("round", "phase", "turn_side", "bottled_a", "bottled_b", "facts", "status")


class BattleSession(models.Model):
    edition = models.CharField(max_length=8, choices=Edition.choices)
    status = models.CharField(max_length=12, choices=BattleStatus.choices, default=BattleStatus.IN_PROGRESS)
    campaign_battle = models.ForeignKey(
        "campaigns.Battle", null=True, blank=True, on_delete=models.SET_NULL, related_name="sessions"
    )
    scenario = models.SlugField(max_length=40, blank=True, help_text="The scenario's slug in the rulebook, if any.")
    scenario_name = models.CharField(max_length=80, blank=True)
    gang_a = models.ForeignKey("gangs.Gang", on_delete=models.PROTECT, related_name="battle_sessions_as_a")
    gang_b = models.ForeignKey("gangs.Gang", on_delete=models.PROTECT, related_name="battle_sessions_as_b")
    player_a = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="battle_sessions_as_a"
    )
    player_b = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="battle_sessions_as_b"
    )
    role_a = models.CharField(max_length=8, choices=Role.choices, blank=True)
    role_b = models.CharField(max_length=8, choices=Role.choices, blank=True)
    starting_crew_a = models.PositiveSmallIntegerField(default=0)
    starting_crew_b = models.PositiveSmallIntegerField(default=0)
    crews = models.JSONField(default=dict, blank=True, help_text="How each crew was picked, with every die.")
    round = models.PositiveSmallIntegerField(default=1)
    turn_side = models.CharField(
        max_length=8,
        choices=Side.choices,
        default=Side.ATTACKER,
        help_text="Classic: whose turn. 2018+: who has Priority.",
    )
    phase = models.CharField(max_length=16, choices=Phase.choices)
    bottled_a = models.BooleanField(default=False)
    bottled_b = models.BooleanField(default=False)
    facts = models.JSONField(default=dict, blank=True, help_text="Scenario facts: caskets opened, relics defiled...")
    report = models.JSONField(default=dict, blank=True, help_text="The battle report, filled in when it ends.")
    version = models.PositiveIntegerField(default=0, help_text="Goes up with every change, for followers.")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(condition=Q(edition__in=Edition.values), name="battle_session_edition_valid"),
            models.CheckConstraint(condition=Q(status__in=BattleStatus.values), name="battle_session_status_valid"),
            models.CheckConstraint(condition=Q(phase__in=Phase.values), name="battle_session_phase_valid"),
            models.CheckConstraint(condition=~Q(gang_a=models.F("gang_b")), name="battle_session_two_gangs"),
            models.CheckConstraint(condition=Q(round__gte=1), name="battle_session_round_positive"),
        ]
        # The battles page lists the newest battles in play to watch: a small index of only those, in its order,
        # so the list never reads the ended battles of the whole site.
        indexes = [
            models.Index(
                fields=["-created_at", "-id"],
                condition=Q(status=BattleStatus.IN_PROGRESS),
                name="battle_session_in_play",
            )
        ]

    def __str__(self) -> str:
        return f"{self.gang_a} v {self.gang_b}"

    @property
    def is_over(self) -> bool:
        return self.status == BattleStatus.ENDED

    def gang(self, side: str):
        return self.gang_a if side == Side.ATTACKER else self.gang_b

    def player(self, side: str):
        return self.player_a if side == Side.ATTACKER else self.player_b

    def bottled(self, side: str) -> bool:
        return self.bottled_a if side == Side.ATTACKER else self.bottled_b

    def bottle_out(self, side: str) -> None:
        if side == Side.ATTACKER:
            self.bottled_a = True
        else:
            self.bottled_b = True

    def starting_crew(self, side: str) -> int:
        return self.starting_crew_a if side == Side.ATTACKER else self.starting_crew_b

    def role(self, side: str) -> str:
        return self.role_a if side == Side.ATTACKER else self.role_b


class BattleFighter(models.Model):
    """A fighter in play: a snapshot of the roster entry and its state, by the battle's edition."""

    session = models.ForeignKey(BattleSession, on_delete=models.CASCADE, related_name="fighters")
    side = models.CharField(max_length=8, choices=Side.choices)
    fighter = models.ForeignKey("gangs.Fighter", null=True, on_delete=models.SET_NULL, related_name="battle_states")
    name = models.CharField(max_length=80)
    order = models.PositiveSmallIntegerField(default=0)
    profile = models.JSONField(
        default=dict,
        help_text="At the start: {'type', 'category', 'stats', 'weapons': [...], 'save', 'armour', 'skills'}.",
    )
    wounds_left = models.PositiveSmallIntegerField()
    flesh_wounds = models.PositiveSmallIntegerField(default=0)
    condition = models.CharField(max_length=20, choices=Condition.choices)
    prone = models.BooleanField(default=False, help_text="2018+: Prone rather than Standing.")
    broken = models.BooleanField(default=False)
    hidden = models.BooleanField(default=False, help_text="Classic.")
    overwatch = models.BooleanField(default=False, help_text="Classic.")
    ready = models.BooleanField(default=True, help_text="2018+: not yet activated this round.")
    ablaze = models.BooleanField(default=False, help_text="2018+: subject to the Blaze condition (on fire).")
    engaged = models.BooleanField(default=False, help_text="In base contact with an enemy (hand-to-hand).")
    failed_weapons = models.JSONField(default=list, blank=True, help_text="Keys of weapons out of ammo or broken.")
    jammed_weapons = models.JSONField(
        default=list,
        blank=True,
        help_text="2018+: keys of failed weapons jammed for the rest of the battle (no reload).",
    )
    chem_state = models.JSONField(
        default=dict,
        blank=True,
        help_text="2018+: the chems taken that have worn off ('worn_off': slugs), those whose roll on taking is made "
        "('rolled'), and what Icrotic Slime's checks gained ('gains': {characteristic: steps}).",
    )
    taken_out_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="Out of Action by."
    )
    seriously_injured_by = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["side", "order", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(side__in=Side.values), name="battle_fighter_side_valid"),
            models.CheckConstraint(condition=Q(condition__in=Condition.values), name="battle_fighter_condition_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def stats(self) -> dict:
        """The stat line now: the snapshot's, or, once a chem has worn off or Icrotic Slime's checks gained something,
        the line before the chems under those still working (``rulebook.n18.kit.stats_in_battle``)."""
        chems = self.profile.get("chems") or {}
        if not self.chem_state or "base" not in chems:
            return self.profile.get("stats", {})
        state = self.chem_state
        return kit.stats_in_battle(chems["base"], chems["slugs"], state.get("worn_off", []), state.get("gains", {}))

    def chems_working(self) -> list[str]:
        """The chems taken before the battle whose effect lasts (not worn or shaken off)."""
        slugs = (self.profile.get("chems") or {}).get("slugs", [])
        return kit.still_working(slugs, (self.chem_state or {}).get("worn_off", []))

    @property
    def out_of_action(self) -> bool:
        return self.condition == Condition.OUT_OF_ACTION

    @property
    def is_casualty(self) -> bool:
        """Counts towards a Bottle test: down or out of action (classic), Seriously Injured or out (2018+)."""
        return self.condition in (Condition.DOWN, Condition.SERIOUSLY_INJURED, Condition.OUT_OF_ACTION)

    def weapon(self, key: str) -> dict | None:
        return next((w for w in self.profile.get("weapons", []) if w["key"] == key), None)


class BattleAction(models.Model):
    """One entry of the battle log: what was asked of the rulebook, the odds, the dice, the result."""

    session = models.ForeignKey(BattleSession, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, help_text="shoot, fight, multi-fight, test, scenario, adjust, phase.")
    rule = models.CharField(max_length=40, blank=True, help_text="The rulebook action called, if any.")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    fighter = models.ForeignKey(BattleFighter, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    target = models.ForeignKey(BattleFighter, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    # Composed from fighter, weapon and gang names: a text field, so no combination of long names overflows.
    summary = models.TextField()
    query = models.JSONField(default=dict, blank=True)
    odds = models.JSONField(default=dict, blank=True)
    dice = models.JSONField(default=list, blank=True, help_text="Every die: [{'die', 'for', 'value'}].")
    dice_entered = models.BooleanField(default=False, help_text="Dice rolled at the table and entered.")
    result = models.JSONField(default=dict, blank=True)
    changes = models.JSONField(default=list, blank=True, help_text="What changed, in words.")
    side = models.CharField(max_length=8, choices=Side.choices, blank=True, help_text="The gang a test was for.")
    casualties = models.JSONField(
        default=list, blank=True, help_text="Fighters this action put down, Seriously Injured or out (ids)."
    )
    round = models.PositiveSmallIntegerField(default=1)
    turn_side = models.CharField(max_length=8, choices=Side.choices, default=Side.ATTACKER)
    phase = models.CharField(max_length=16, choices=Phase.choices, blank=True)
    state_before = models.JSONField(default=dict, blank=True, help_text="The whole battle before, for undo.")
    undone = models.BooleanField(default=False)
    token = models.CharField(
        max_length=32, blank=True, help_text="The one-time token of the form that made it: a second tap finds it."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["session", "number"], name="battle_action_number_once"),
            models.UniqueConstraint(
                fields=["session", "token"], condition=~Q(token=""), name="battle_action_token_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.summary}"
