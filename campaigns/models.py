"""Campaigns: who runs them, which gangs play, their territories, and the battles they fight.

A campaign follows the club campaign guide ("Playing Necromunda Games in Cycle 1 & 2") for the
2018+ rules: numbered cycles, random pairings in Cycle 1 and challenges from Cycle 2, the 2D6
scenario roll, crews and the battle report that the post-battle sequence starts from. A classic
(1995) campaign has no cycles: the arbitrator pairs battles freely.

Every battle is one :class:`Battle` row from the moment it is paired or challenged: it stores how it
came about (pairing, challenge, arranged), the stakes (a territory or a Rescue Mission), the scenario
roll with its dice, each side's crew with its dice, and, once played, the report and its per-fighter
results. The report is only final when the opponent or an arbitrator confirms it; the post-battle
sequence reads confirmed battles through :mod:`campaigns.selectors`.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q

from content.models import Edition
from core.caching import KeepsVersion


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class CampaignStatus(models.TextChoices):
    NOT_STARTED = "not_started", "Not started"
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"


class Campaign(KeepsVersion, models.Model):
    edition = models.CharField(max_length=8, choices=Edition.choices)
    name = models.CharField(max_length=100)
    description = models.TextField(blank=True)
    starting_credits = models.PositiveIntegerField(default=1000)
    house_rules = models.TextField(blank=True, help_text="The club's own rules for this campaign, in plain words.")
    status = models.CharField(max_length=12, choices=CampaignStatus.choices, default=CampaignStatus.NOT_STARTED)
    cycle = models.PositiveSmallIntegerField(default=0, help_text="The current cycle; 0 before the first (2018+ only).")
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    # House rules for arbitrators' overrides (issue 26, "nothing minted"): what they may add over the campaign.
    override_credits_per_gang = models.PositiveIntegerField(
        default=300, help_text="Most credits the arbitrators may add to one gang by override, over the campaign."
    )
    override_credits_per_campaign = models.PositiveIntegerField(
        default=1000, help_text="Most credits the arbitrators may add by override to all gangs together."
    )
    override_reputation_per_gang = models.PositiveIntegerField(
        default=3, help_text="Most Reputation the arbitrators may add to one gang by override, over the campaign."
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    version = models.PositiveBigIntegerField(
        default=0,
        editable=False,
        help_text="Moves on every change to what the campaign page shows; its data is cached under it.",
    )

    class Meta:
        ordering = ["-created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(edition__in=Edition.values), name="campaign_edition_valid"),
            models.CheckConstraint(condition=Q(status__in=CampaignStatus.values), name="campaign_status_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def has_cycles(self) -> bool:
        """The 2018+ campaign guide runs numbered cycles; the classic rules pair battles freely."""
        return self.edition == Edition.N18


class CampaignArbitrator(models.Model):
    """An arbitrator of the campaign: its creator, and any co-arbitrators they add."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="arbitrators")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arbitrated")
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["added_at", "pk"]
        constraints = [models.UniqueConstraint(fields=["campaign", "user"], name="campaign_arbitrator_once")]

    def __str__(self) -> str:
        return f"{self.user} ({self.campaign})"


class CampaignGang(models.Model):
    """A gang's membership of a campaign. Removing a gang keeps the row (its battles stay in history)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    gang = models.ForeignKey("gangs.Gang", on_delete=models.CASCADE, related_name="memberships")
    wants_to_play = models.BooleanField(default=True, help_text="Cycle 1 pairs only the gangs who want to play.")
    joined_at = models.DateTimeField(auto_now_add=True)
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "gang"], name="campaign_gang_once"),
            # A gang plays one campaign at a time: its Stash and roster cannot serve two.
            models.UniqueConstraint(fields=["gang"], condition=Q(removed_at__isnull=True), name="gang_one_campaign"),
        ]

    def __str__(self) -> str:
        return f"{self.gang} in {self.campaign}"

    @property
    def is_active(self) -> bool:
        return self.removed_at is None


class JoinRequest(models.Model):
    """A gang asking to join through the invitation link. It joins only when an arbitrator accepts it, having
    seen what its history says (imported, overridden, totals the ledger does not explain), and with at most the
    campaign's starting credits in its Stash unless the arbitrator gives a reason (issue 26, "nothing minted")."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="join_requests")
    gang = models.ForeignKey("gangs.Gang", on_delete=models.CASCADE, related_name="join_requests")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    requested_at = models.DateTimeField(auto_now_add=True)
    accepted = models.BooleanField(null=True, help_text="None while waiting for an arbitrator.")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    credits = models.PositiveIntegerField(null=True, blank=True, help_text="The Stash it was accepted with.")
    reason = models.TextField(blank=True, help_text="The arbitrator's reason (for more credits, or a refusal).")

    class Meta:
        ordering = ["requested_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "gang"], condition=Q(accepted__isnull=True), name="join_request_one_waiting"
            )
        ]

    def __str__(self) -> str:
        return f"{self.gang} asks to join {self.campaign}"


class Cycle(models.Model):
    """A numbered cycle of a 2018+ campaign: its pairing dice (Cycle 1) and who passed on challenging."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="cycles")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    pairing_dice = models.JSONField(default=list, blank=True, help_text="Dice of the last random pairing.")
    odd_gang_out = models.ForeignKey(
        "gangs.Gang", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="Left unpaired."
    )
    passed = models.ManyToManyField(
        "gangs.Gang", blank=True, related_name="+", help_text="Gangs who chose not to issue a challenge this cycle."
    )

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="cycle_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="cycle_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Cycle {self.number}"


class CampaignTerritory(models.Model):
    """A territory of the campaign's pool, held by a gang or unclaimed. A Home Settlement cannot be lost."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="territories")
    territory = models.ForeignKey("content.Territory", on_delete=models.PROTECT, related_name="+")
    holder = models.ForeignKey(
        "gangs.Gang", null=True, blank=True, on_delete=models.SET_NULL, related_name="campaign_territories"
    )
    is_home_settlement = models.BooleanField(default=False)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["territory__name", "pk"]
        verbose_name_plural = "campaign territories"
        constraints = [
            models.CheckConstraint(
                condition=Q(is_home_settlement=False) | Q(holder__isnull=False), name="home_settlement_has_holder"
            ),
            models.UniqueConstraint(
                fields=["campaign", "holder"], condition=Q(is_home_settlement=True), name="one_home_settlement"
            ),
        ]

    def __str__(self) -> str:
        return self.territory.name


class BattleOrigin(models.TextChoices):
    PAIRING = "pairing", "Cycle 1 pairing"
    CHALLENGE = "challenge", "Challenge"
    ARRANGED = "arranged", "Arranged by an arbitrator"


class BattleStatus(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    REPORTED = "reported", "Reported, awaiting confirmation"
    CONFIRMED = "confirmed", "Confirmed"
    CANCELLED = "cancelled", "Cancelled"


class Side(models.TextChoices):
    """One of the two gangs of a battle: the campaign's battle (:class:`Battle`, its ``attacker`` and ``defender``)
    and the battle assistant's session of it (``battles.BattleSession``, its ``gang_a`` and ``gang_b``) name them
    with these two codes, and so does the post-battle sequence.

    The codes name the gang's place. A campaign battle's attacker is its challenger (or roll-off winner), the
    session's first gang, and the scenario's Attacker when the scenario has roles; when it names no attacker or
    defender (Border Dispute, ``Battle.has_roles`` false) the two are simply its two sides. A friendly battle
    (a session without a campaign battle) has no challenger: its first gang, the one named first when it was
    started, is the ``attacker`` side and its opponent the ``defender`` side, whatever scenario role its players
    gave them (``BattleSession.role_a``/``role_b``, ``battles.models.Role``, which is what the rules read).
    """

    ATTACKER = "attacker", "Attacker"
    DEFENDER = "defender", "Defender"


def other_side(side: str) -> str:
    return Side.DEFENDER if side == Side.ATTACKER else Side.ATTACKER


class Battle(models.Model):
    """One battle of a campaign, from pairing or challenge to confirmed report.

    ``attacker`` is the challenger (or the roll-off winner); when the scenario has no attacker and
    defender (Border Dispute) ``has_roles`` is false and the two are simply the two sides.

    JSON fields, as the post-battle sequence and the battle assistant read them:

    - ``scenario_roll``: ``{"roll": 7, "dice": [{"die", "for", "value"}], "entered": bool,
      "roll_off": {...} or absent}``;
    - ``crews``: ``{"attacker": <select_crew result + "size_dice">, "defender": ...}``, fighter ids as strings;
    - ``scenario_facts``: the scenario's own facts, e.g. ``{"caskets_opened": 3, "caskets": [{"side":
      "attacker", "fighter": "12", "result": "jackpot", "credits": 130}], "relic_defiled":
      {"attacker": true, "defender": false}, "caches_destroyed": 1, "caches_recovered": 2,
      "victory_points": {"attacker": 4, "defender": 2}, "reinforcements": [31]}`` (``reinforcements``: the
      roster fighters who arrived as Reinforcements; a battle stored without the key had none);
    - ``rewards``: the scenario's rewards as data (``rulebook`` ``Reward.as_json()``), to be rolled
      after the battle;
    - ``held_at_confirmation``: ``{"<gang id>": [campaign territory ids]}``, what each gang held once the report
      was confirmed (the stakes moved): the post-battle sequence collects income from these, so a re-run after a
      revert gives the same income whatever changed hands since;
    - ``roster_at_confirmation``: ``{"<gang id>": {...}}``, what the post-battle sequence reads of each gang's roster,
      as it stood once the report was confirmed (``campaigns.selectors.roster_facts``): a re-run after a revert
      reads the same fighters, captives and rating whatever the roster did since.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    cycle = models.ForeignKey(Cycle, null=True, blank=True, on_delete=models.CASCADE, related_name="battles")
    origin = models.CharField(max_length=10, choices=BattleOrigin.choices)
    attacker = models.ForeignKey("gangs.Gang", on_delete=models.PROTECT, related_name="battles_as_attacker")
    defender = models.ForeignKey("gangs.Gang", on_delete=models.PROTECT, related_name="battles_as_defender")
    has_roles = models.BooleanField(default=True, help_text="False when the scenario names no attacker or defender.")
    stakes = models.ForeignKey(
        CampaignTerritory,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="challenges",
        help_text="The territory challenged for.",
    )
    is_rescue = models.BooleanField(default=False, help_text="A Rescue Mission challenge against the captors.")
    scenario = models.SlugField(max_length=40, blank=True, help_text="The scenario's slug in the rulebook.")
    scenario_name = models.CharField(max_length=80, blank=True)
    scenario_roll = models.JSONField(default=dict, blank=True)
    crews = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=BattleStatus.choices, default=BattleStatus.SCHEDULED)
    winner = models.ForeignKey("gangs.Gang", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    is_draw = models.BooleanField(default=False)
    attacker_bottled = models.BooleanField(default=False)
    defender_bottled = models.BooleanField(default=False)
    attacker_fled = models.BooleanField(default=False)
    defender_fled = models.BooleanField(default=False)
    scenario_facts = models.JSONField(default=dict, blank=True)
    rewards = models.JSONField(default=list, blank=True)
    held_at_confirmation = models.JSONField(
        default=dict, blank=True, help_text="Each gang's campaign territories (ids) when the report was confirmed."
    )
    roster_at_confirmation = models.JSONField(
        default=dict, blank=True, help_text="What the post-battle sequence reads of each gang's roster at confirmation."
    )
    notes = models.TextField(blank=True)
    cancel_reason = models.CharField(
        max_length=300, blank=True, help_text="Why an arbitrator cancelled it (the battle stays, with its log)."
    )
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["campaign", "status"])]
        constraints = [
            models.CheckConstraint(condition=~Q(attacker=models.F("defender")), name="battle_two_gangs"),
            models.CheckConstraint(condition=Q(status__in=BattleStatus.values), name="battle_status_valid"),
            models.CheckConstraint(condition=Q(origin__in=BattleOrigin.values), name="battle_origin_valid"),
            models.CheckConstraint(
                condition=~(Q(is_draw=True) & Q(winner__isnull=False)), name="battle_draw_no_winner"
            ),
            models.CheckConstraint(
                condition=Q(winner__isnull=True) | Q(winner=models.F("attacker")) | Q(winner=models.F("defender")),
                name="battle_winner_is_a_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.attacker} v {self.defender}"

    def gang_of(self, side: str):
        return self.attacker if side == Side.ATTACKER else self.defender

    def side_of(self, gang) -> str | None:
        if gang.pk == self.attacker_id:
            return Side.ATTACKER
        if gang.pk == self.defender_id:
            return Side.DEFENDER
        return None

    @property
    def loser(self):
        if self.is_draw or self.winner_id is None:
            return None
        return self.defender if self.winner_id == self.attacker_id else self.attacker

    @property
    def has_scenario(self) -> bool:
        return bool(self.scenario)

    @property
    def is_cancelled(self) -> bool:
        return self.status == BattleStatus.CANCELLED


# The two links from gang rows to the battle they belong to live here, on the floor above gangs, so gangs' models
# and migrations know nothing of campaigns (the floors hold for foreign keys as for imports; issue 27).


class BattleHire(models.Model):
    """A Hired Gun hired for one campaign battle: it joins that battle's crew and leaves when its report is
    confirmed (campaigns.services.hired_guns). Gone with the battle or the fighter."""

    fighter = models.OneToOneField(
        "gangs.Fighter", primary_key=True, on_delete=models.CASCADE, related_name="battle_hire"
    )
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="hires")

    def __str__(self) -> str:
        return f"{self.fighter_id} hired for {self.battle_id}"


class BattleEntry(models.Model):
    """The campaign battle a ledger entry came from (post-battle results, a territory taken), for the logs,
    histories and the revert of a post-battle sequence. PROTECT: the ledger is append-only history, so a battle
    with entries cannot disappear from under them; a battle is only ever cancelled before its report, when nothing
    points to it yet."""

    entry = models.OneToOneField(
        "gangs.LedgerEntry", primary_key=True, on_delete=models.CASCADE, related_name="battle_link"
    )
    battle = models.ForeignKey(Battle, on_delete=models.PROTECT, related_name="entry_links")

    class Meta:
        verbose_name_plural = "battle entries"

    def __str__(self) -> str:
        return f"{self.entry_id} from {self.battle_id}"


class Outcome(models.TextChoices):
    OK = "ok", "Fine"
    SERIOUSLY_INJURED = "seriously_injured", "Seriously Injured at the end"
    OUT_OF_ACTION = "out_of_action", "Out of Action"
    # Fled the battlefield (a failed Cool test once the gang bottled out): not Out of Action, so no Lasting
    # Injury and no enemy credited (rulebook.n18.campaign.record).
    FLED = "fled", "Fled the battlefield"


class BattleFighterResult(models.Model):
    """How one fighter ended the battle: what happened to them, by whom, and the awards they earned.

    ``awards`` holds the counts the record cannot tell, which the post-battle sequence turns into
    experience: ``{"rallies": 1, "relic_defiled": 1, "caches_destroyed": 0, "caches_recovered": 0}``. The
    standard experience for enemies taken Out of Action (and killed) comes from the enemies' rows
    (``caused_by``, ``killed``), never from a count here.
    """

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="fighter_results")
    fighter = models.ForeignKey("gangs.Fighter", on_delete=models.CASCADE, related_name="battle_results")
    side = models.CharField(max_length=8, choices=Side.choices)
    outcome = models.CharField(max_length=20, choices=Outcome.choices, default=Outcome.OK)
    caused_by = models.ForeignKey(
        "gangs.Fighter", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="The enemy."
    )
    captured = models.BooleanField(default=False, help_text="Taken captive by the opposing gang.")
    killed = models.BooleanField(default=False, help_text="Killed during the battle (Out of Action, and dead).")
    webbed = models.BooleanField(
        default=False, help_text="2018+: Webbed when taken Out of Action (a Webbed D6, not a Lasting Injury)."
    )
    awards = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["side", "fighter__order", "fighter__pk"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "fighter"], name="battle_fighter_once"),
            models.CheckConstraint(condition=Q(outcome__in=Outcome.values), name="battle_outcome_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.fighter}: {self.get_outcome_display()}"


class StandingSnapshot(models.Model):
    """A gang's rating and Reputation at a moment of the campaign (joining, a new cycle, a confirmed
    battle), for the charts of the campaign page."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="snapshots")
    gang = models.ForeignKey("gangs.Gang", on_delete=models.CASCADE, related_name="+")
    rating = models.IntegerField()
    reputation = models.IntegerField()
    # "<scenario>: <gang> v <gang>" and the like: a text field, so the longest gang names fit.
    reason = models.TextField()
    taken_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["taken_at", "pk"]

    def __str__(self) -> str:
        return f"{self.gang}: {self.rating} / {self.reputation} ({self.reason})"


class IncomeVariant(models.TextChoices):
    STANDARD = "standard", "The rules' income only"
    # Each variant replaces the credits of the rules' income (winner and loser credits are the additions).
    PER_TERRITORY = "per_territory", "Instead: credits for each territory held"
    FLAT = "flat", "Instead: a flat amount after each battle"


class HouseRules(models.Model):
    """The campaign's house rules from ``in_force_from`` on. A change is a new row, never an edit: a battle's
    post-battle sequence reads the rules in force when its report was confirmed, a gang joining those in force
    when it joined, so a change applies from then on and never backwards, and the rows are the change log.
    :mod:`campaigns.services.house_rules` applies them, each with a ledger entry naming the rule."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="house_rule_versions")
    in_force_from = models.DateTimeField()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.TextField(blank=True, help_text="Why the rules changed, for the players.")
    starting_credits = models.PositiveIntegerField(
        default=1000, help_text="A new gang joining starts with this many credits (the difference from its house's)."
    )
    starting_reputation = models.IntegerField(default=0, help_text="Reputation a new gang joining starts with.")
    winner_credits = models.PositiveIntegerField(default=0, help_text="Credits for the winner of a battle.")
    loser_credits = models.PositiveIntegerField(
        default=0, help_text="Credits for the loser of a battle (and for each gang in a draw)."
    )
    credits_per_out_of_action = models.PositiveIntegerField(
        default=0, help_text="Credits for each enemy fighter taken Out of Action in a battle."
    )
    income_variant = models.CharField(max_length=16, choices=IncomeVariant.choices, default=IncomeVariant.STANDARD)
    income_amount = models.PositiveIntegerField(
        default=0, help_text="Per territory held, or the flat amount, after each battle, in place of the rules' income."
    )
    rating_cap = models.PositiveIntegerField(
        null=True, blank=True, help_text="No challenge to or from a gang rated above this."
    )
    rating_gap = models.PositiveIntegerField(
        null=True, blank=True, help_text="No challenge between gangs whose ratings differ by more than this."
    )
    banned_items = models.JSONField(
        default=list, blank=True, help_text="Slugs of equipment the campaign's Trading Post does not sell."
    )
    additions_before_first_battle = models.BooleanField(
        default=True, help_text="Hangers-on and Brutes may be hired before the gang's first battle."
    )

    class Meta:
        ordering = ["campaign", "in_force_from", "pk"]
        verbose_name_plural = "house rules"
        constraints = [
            models.CheckConstraint(
                condition=Q(income_variant__in=IncomeVariant.values), name="house_rules_income_variant_valid"
            )
        ]

    def __str__(self) -> str:
        return f"House rules of {self.campaign} from {self.in_force_from:%Y-%m-%d %H:%M}"


# The fields a change may set, in the order the settings form and the change log show them.
RULE_FIELDS = (
    "starting_credits",
    "starting_reputation",
    "winner_credits",
    "loser_credits",
    "credits_per_out_of_action",
    "income_variant",
    "income_amount",
    "rating_cap",
    "rating_gap",
    "banned_items",
    "additions_before_first_battle",
)
