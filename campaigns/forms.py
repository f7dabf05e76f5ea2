"""Campaign forms: validation only; the services decide the rules."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator

from campaigns.models import RULE_FIELDS, Campaign, CampaignTerritory, HouseRules, Outcome
from campaigns.services import report_check, report_rows
from content.models import Equipment, House, HouseKind, Territory
from core.forms import EnteredDiceField, GameForm, GameModelForm
from gangs.models import AVAILABLE_FOR_BATTLE, Gang, LedgerKind
from rulebook.n18.campaign.record import CASKET_TABLES, casket_rules, other
from rulebook.n18.campaign.scenarios import SCENARIOS


class CampaignGameForm(GameForm):
    changed = "the campaign"  # a stale choice says what changed (core.forms.GameWords)


class CampaignModelForm(GameModelForm):
    changed = "the campaign"


class CampaignForm(CampaignModelForm):
    class Meta:
        model = Campaign
        fields = ["edition", "name", "description", "starting_credits", "house_rules"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3}), "house_rules": forms.Textarea(attrs={"rows": 4})}


OVERRIDE_BOUNDS = ["override_credits_per_gang", "override_credits_per_campaign", "override_reputation_per_gang"]


class CampaignEditForm(CampaignForm):
    class Meta(CampaignForm.Meta):
        # The starting credits are a house rule (the settings), whose changes are logged.
        fields = ["name", "description", "house_rules", *OVERRIDE_BOUNDS]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in OVERRIDE_BOUNDS:  # left empty: kept as they are
            self.fields[name].required = False
            self.fields[name].widget.attrs["max"] = self.fields[name].max_value = 100_000

    def clean(self):
        data = super().clean()
        for name in OVERRIDE_BOUNDS:
            if data.get(name) is None:
                data[name] = getattr(self.instance, name)
        return data


class ArbitratorForm(CampaignGameForm):
    username = forms.CharField(max_length=150, help_text="The co-arbitrator's user name.")

    def clean_username(self):
        user = get_user_model().objects.filter(username=self.cleaned_data["username"]).first()
        if user is None:
            raise forms.ValidationError("No user has that name.")
        return user


class JoinForm(CampaignGameForm):
    gang = forms.ModelChoiceField(queryset=Gang.objects.none(), empty_label=None)

    def __init__(self, *args, gangs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["gang"].queryset = gangs


class FoundForForm(CampaignGameForm):
    """A gang founded for the campaign from its invitation page: a house list of the campaign's edition."""

    name = forms.CharField(max_length=80, label="Gang name")
    house = forms.ModelChoiceField(queryset=House.objects.none(), label="House")

    def __init__(self, *args, edition: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["house"].queryset = House.objects.active().filter(edition=edition, kind=HouseKind.GANG_LIST)


class JoinDecisionForm(CampaignGameForm):
    """An arbitrator's answer to a gang asking to join: the Stash it keeps (empty: at most the starting credits)
    and the reason, needed for more than the starting credits (campaigns.services.joining.join_accept)."""

    credits = forms.IntegerField(required=False, min_value=0, max_value=10_000_000, label="Credits it joins with")
    reason = forms.CharField(required=False, max_length=500, label="Reason")
    keep_unvouched = forms.BooleanField(
        required=False, label="Keep the Reputation and experience its history does not vouch for (give the reason)"
    )


class DiceForm(CampaignGameForm):
    """Dice rolled by the server, or entered from the table (``"3 5"``)."""

    dice = EnteredDiceField(
        max_length=100,
        label="Dice rolled at the table",
        help_text="Leave empty for the server to roll; or enter each die in order, e.g. 3 5.",
    )


class ScenarioRollForm(DiceForm):
    """The scenario roll; rolling again (an arbitrator) sets the last roll's dice aside, for a reason."""

    reason = forms.CharField(max_length=200, required=False, label="Reason to roll again (if rolled already)")


class CancelForm(CampaignGameForm):
    """An arbitrator's reason for cancelling a battle (the battle stays, cancelled, in the campaign log)."""

    reason = forms.CharField(max_length=300, label="Reason to cancel")


class RolesForm(CampaignGameForm):
    """The roll-off winner's choice."""

    role = forms.ChoiceField(choices=[("attack", "Attack"), ("defend", "Defend")], widget=forms.RadioSelect)


class PairingForm(DiceForm):
    """Cycle 1's random pairing; pairing again sets the last pairing's dice aside, for a reason."""

    reason = forms.CharField(max_length=150, required=False, label="Reason to pair again (if paired already)")


class PairForm(CampaignGameForm):
    attacker = forms.ModelChoiceField(queryset=Gang.objects.none(), label="Attacker (or first gang)")
    defender = forms.ModelChoiceField(queryset=Gang.objects.none(), label="Defender (or second gang)")
    stakes = forms.ModelChoiceField(queryset=CampaignTerritory.objects.none(), required=False, label="For territory")
    rescue = forms.BooleanField(
        required=False, label="Rescue Mission (the defender holds one of the attacker's fighters)"
    )

    def __init__(self, *args, gangs, territories, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["attacker"].queryset = gangs
        self.fields["defender"].queryset = gangs
        self.fields["stakes"].queryset = territories


class ChallengeForm(CampaignGameForm):
    challenger = forms.ModelChoiceField(queryset=Gang.objects.none())
    target = forms.ModelChoiceField(queryset=Gang.objects.none(), label="Challenge")
    stakes = forms.ModelChoiceField(
        queryset=CampaignTerritory.objects.none(),
        required=False,
        label="For territory",
        help_text="A territory the challenged gang holds, or an unclaimed one.",
    )
    rescue = forms.BooleanField(required=False, label="Rescue Mission (they hold one of our fighters captive)")

    def __init__(self, *args, challengers, gangs, territories, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["challenger"].queryset = challengers
        self.fields["target"].queryset = gangs
        self.fields["stakes"].queryset = territories


class GangChoiceForm(CampaignGameForm):
    gang = forms.ModelChoiceField(queryset=Gang.objects.none())

    def __init__(self, *args, gangs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["gang"].queryset = gangs


class CycleAdvanceForm(CampaignGameForm):
    """Beginning the next cycle. The arbitrator may leave battles unreported, but has to say so; and post-battle
    sequences unapplied, with a reason (the service refuses without one).

    ``cycle`` is the form's token, as the post-battle step's ``step`` is: the cycle the page was shown in.
    Submitting the same form twice begins one cycle; the second finds that cycle over and is refused."""

    cycle = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    confirm = forms.BooleanField(required=False)
    reason = forms.CharField(max_length=300, required=False)

    def __init__(self, *args, campaign: Campaign, unreported: int, unapplied: int = 0, **kwargs):
        kwargs.setdefault("initial", {"cycle": campaign.cycle})
        super().__init__(*args, **kwargs)
        if unapplied:
            sequences = f"{unapplied} post-battle sequence{'s' if unapplied != 1 else ''}"
            self.fields["reason"].label = (
                f"{sequences} of Cycle {campaign.cycle} {'is' if unapplied == 1 else 'are'} not applied: "
                "the reason to begin the next cycle anyway (it goes into the campaign log)"
            )
        else:
            del self.fields["reason"]
        self.fields["cycle"].error_messages["required"] = (
            "Reload the campaign page: that form did not say which cycle it ends."
        )
        if unreported:
            battles = f"{unreported} battle{'s' if unreported != 1 else ''}"
            were = "is" if unreported == 1 else "are"
            field = self.fields["confirm"]
            field.required = True
            field.label = f"{battles} of Cycle {campaign.cycle} {were} not reported yet: begin the next cycle anyway"
            field.error_messages["required"] = (
                f"{battles} of Cycle {campaign.cycle} {were} not reported yet; tick the box to begin the next cycle anyway."
            )
        else:
            del self.fields["confirm"]


class WantsToPlayForm(CampaignGameForm):
    wants_to_play = forms.BooleanField(required=False)


class TerritoryAddForm(CampaignGameForm):
    territory = forms.ModelChoiceField(queryset=Territory.objects.none())

    def __init__(self, *args, edition, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["territory"].queryset = Territory.objects.active().filter(edition=edition, is_home_settlement=False)


class TerritoryAssignForm(CampaignGameForm):
    holder = forms.ModelChoiceField(queryset=Gang.objects.none(), required=False, empty_label="Unclaimed")
    reason = forms.CharField(max_length=200, required=False)

    def __init__(self, *args, gangs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["holder"].queryset = gangs


class ScenarioChoiceForm(CampaignGameForm):
    scenario = forms.ChoiceField(choices=())
    chooser = forms.ModelChoiceField(queryset=Gang.objects.none(), empty_label=None, label="Chosen by")

    def __init__(self, *args, choices, gangs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["scenario"].choices = choices
        self.fields["chooser"].queryset = gangs


class CrewForm(DiceForm):
    chosen = forms.MultipleChoiceField(
        choices=(), required=False, widget=forms.CheckboxSelectMultiple, label="Fighters you choose"
    )

    def __init__(self, *args, fighters, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["chosen"].choices = [(str(f.pk), f.name) for f in fighters]

    def clean_chosen(self):
        return [int(pk) for pk in self.cleaned_data["chosen"]]


OUTCOME_PREFIX = "fighter"
LEFT_BEHIND = "left-behind"  # a casket row's "opened by" when no fighter opened it (see ReportForm._caskets)
# A scenario's deeds whose rewards name the fighter, with their labels; which scenario asks which of them, and of
# which sides' fighters, is the scenario's data (rulebook.n18.campaign.scenarios: Scenario.deeds).
DEEDS = {
    "relic_defiled": "Defiled the enemy relic",
    "caches_destroyed": "Caches destroyed",
    "caches_recovered": "Caches recovered",
}
# The report's scenario facts (rulebook.n18.campaign.scenarios: Scenario.report_facts) and their fields, with the
# value each takes where the scenario does not ask for it.
FACT_FIELDS = {
    "caskets_opened": {"caskets_opened": None},
    "relic": {"attacker_relic_defiled": False, "defender_relic_defiled": False},
    "caches": {"caches_destroyed": None, "caches_recovered": None},
    "victory_points": {"attacker_victory_points": None, "defender_victory_points": None},
}
AWARD_PARTS = ("rallies", *DEEDS)
# The report's field each part of the record's problems concerns (rulebook.n18.campaign.record.Problem); any other
# is the report's as a whole.
PROBLEM_FIELDS = {
    "result": "result",
    "victory_points.attacker": "attacker_victory_points",
    "victory_points.defender": "defender_victory_points",
}
ROW_PARTS = ("took_part", "outcome", "caused_by", "captured", "killed", "webbed", "reinforcement", *AWARD_PARTS)


class ReportForm(CampaignGameForm):
    """The battle report: result and flags, the scenario's facts, and one row per fighter.

    Fighter rows are fields named ``fighter-<pk>-took_part``, ``-outcome``, ``-caused_by`` (who took them
    down: the standard experience is awarded from it), ``-captured`` and, in a 2018+ campaign, ``-killed``, ``-webbed``,
    ``-rallies``, ``-reinforcement`` (arrived as a Reinforcement, for the sides the scenario reinforces) and the
    scenario's own deeds (``-relic_defiled``, ``-caches_destroyed``, ``-caches_recovered``) whose rewards go to the
    fighter who did them. Built from the two rosters so the form also works without JavaScript. The report is
    checked as the battle's one record (``campaigns.services.report_check``), as the service checks it again.
    """

    result = forms.ChoiceField(choices=(), widget=forms.RadioSelect)
    attacker_bottled = forms.BooleanField(required=False)
    defender_bottled = forms.BooleanField(required=False)
    attacker_fled = forms.BooleanField(required=False)
    defender_fled = forms.BooleanField(required=False)
    caskets_opened = forms.IntegerField(required=False, min_value=0, max_value=5, label="Loot caskets opened")
    attacker_relic_defiled = forms.BooleanField(required=False)
    defender_relic_defiled = forms.BooleanField(required=False)
    caches_destroyed = forms.IntegerField(required=False, min_value=0, max_value=4, label="Caches destroyed")
    caches_recovered = forms.IntegerField(required=False, min_value=0, max_value=4, label="Caches recovered")
    attacker_victory_points = forms.IntegerField(required=False, min_value=0, max_value=99)
    defender_victory_points = forms.IntegerField(required=False, min_value=0, max_value=99)
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, battle, attacker_fighters, defender_fighters, captives=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.battle = battle
        self.fields["result"].choices = [
            ("attacker", f"{battle.attacker.name} won"),
            ("defender", f"{battle.defender.name} won"),
            ("draw", "Draw"),
        ]
        for side, label in (("attacker", battle.attacker.name), ("defender", battle.defender.name)):
            self.fields[f"{side}_bottled"].label = f"{label} bottled out"
            self.fields[f"{side}_fled"].label = f"{label} fled the battlefield"
            self.fields[f"{side}_relic_defiled"].label = f"{label}'s relic defiled"
            self.fields[f"{side}_victory_points"].label = f"{label}'s Victory Points"
        self.is_n18 = battle.campaign.edition == "n18"
        # Only the facts the battle's scenario reads (its Victory and Rewards) are asked; any other posted is ignored.
        self.left_out = {}
        if self.is_n18 and battle.scenario in SCENARIOS:
            for fact, fields in FACT_FIELDS.items():
                if fact not in SCENARIOS[battle.scenario].report_facts:
                    self.left_out.update(fields)
        for name in self.left_out:
            del self.fields[name]
        self.rows = []
        sides = ((attacker_fighters, defender_fighters, "attacker"), (defender_fighters, attacker_fighters, "defender"))
        for fighters, enemies, side in sides:
            for fighter in fighters:
                if fighter.status != "captured":
                    self.rows.append((fighter, side, self._fighter_fields(fighter, enemies, side)))
        self._casket_fields(attacker_fighters, defender_fighters)
        # Rescue Mission: each of the rescuers' fighters the captors hold; ticked when freed (and taken flight).
        self.captives = list(captives)
        rescuers = [("", "no fighter: broke free, or the captors fled")] + [
            (str(f.pk), f.name) for f in attacker_fighters if f.status != "captured"
        ]
        for captive in self.captives:
            self.fields[f"captive-{captive.pk}-freed"] = forms.BooleanField(
                required=False, label=f"{captive.name} freed and taken flight"
            )
            # Who freed them earns D3 XP (2023 Core Rulebook, Rescue Mission: Rewards).
            self.fields[f"captive-{captive.pk}-freed_by"] = forms.ChoiceField(
                required=False, choices=rescuers, label=f"{captive.name} freed by"
            )

    def _casket_fields(self, attacker_fighters, defender_fighters) -> None:
        """2018+: one row per loot casket the scenario places: who opened it, what it held and its credits
        (the record checks them against the scenario: rulebook.n18.campaign.record)."""
        self.casket_rows = []
        if not self.is_n18:
            return
        rules = casket_rules(self.battle.scenario)
        openers = [
            (str(f.pk), f"{f.name} ({gang.name})")
            for fighters, gang, role in (
                (attacker_fighters, self.battle.attacker, "attacker"),
                (defender_fighters, self.battle.defender, "defender"),
            )
            if role in rules.openers
            for f in fighters
            if f.status != "captured"
        ]
        if rules.left_to:
            # Smash & Grab: the caskets still unopened when the other gang fled are rolled for after the battle.
            gangs = {"attacker": self.battle.attacker.name, "defender": self.battle.defender.name}
            openers.append(
                (
                    LEFT_BEHIND,
                    f"Nobody: left behind, rolled for {gangs[rules.left_to]} after {gangs[other(rules.left_to)]} fled",
                )
            )
        contents = [("", "Not recorded")] + [
            (row.details["slug"], row.result) for row in CASKET_TABLES[rules.table].rows
        ]
        for n in range(1, rules.count + 1):
            fields = {
                "fighter": forms.ChoiceField(
                    choices=[("", "—")] + openers, required=False, label=f"Casket {n} opened by"
                ),
                "result": forms.ChoiceField(choices=contents, required=False, label="It held"),
                "credits": forms.IntegerField(required=False, min_value=0, max_value=999, label="Credits"),
            }
            for part, field in fields.items():
                self.fields[f"casket-{n}-{part}"] = field
            self.casket_rows.append([self[f"casket-{n}-{part}"] for part in fields])

    def _caskets(self, data: dict, side_of: dict) -> list[dict]:
        caskets = []
        for n in range(1, len(self.casket_rows) + 1):
            fighter = data.get(f"casket-{n}-fighter")
            contents = {"result": data.get(f"casket-{n}-result") or "", "credits": data.get(f"casket-{n}-credits") or 0}
            if not fighter:
                if contents["result"] or contents["credits"]:
                    self.add_error(None, f"Casket {n}: say which fighter opened it.")
                continue
            if fighter == LEFT_BEHIND:
                # The record's check says whether the other gang did flee (rulebook.n18.campaign.record).
                side = casket_rules(self.battle.scenario).left_to
                caskets.append({"side": side, "fighter": None, "left_behind": True, **contents})
                continue
            caskets.append({"side": side_of[int(fighter)], "fighter": fighter, **contents})
        return caskets

    @property
    def fact_fields(self) -> list:
        """The counts the scenario asks (caskets opened, caches, Victory Points), in the page's order."""
        names = (
            "caskets_opened",
            "caches_destroyed",
            "caches_recovered",
            "attacker_victory_points",
            "defender_victory_points",
        )
        return [self[name] for name in names if name in self.fields]

    @property
    def relic_fields(self) -> list:
        return [
            self[f"{side}_relic_defiled"] for side in ("attacker", "defender") if f"{side}_relic_defiled" in self.fields
        ]

    @property
    def captive_fields(self) -> list:
        return [self[f"captive-{captive.pk}-freed"] for captive in self.captives]

    @property
    def freer_fields(self) -> list:
        return [self[f"captive-{captive.pk}-freed_by"] for captive in self.captives]

    def _fighter_fields(self, fighter, enemies, side) -> list:
        prefix = f"{OUTCOME_PREFIX}-{fighter.pk}"
        fields = {
            "took_part": forms.BooleanField(required=False, label="Took part"),
            "outcome": forms.ChoiceField(choices=Outcome.choices, initial=Outcome.OK, required=False, label="Outcome"),
            "caused_by": forms.TypedChoiceField(
                choices=[("", "—")] + [(str(e.pk), e.name) for e in enemies if e.status != "captured"],
                required=False,
                coerce=int,
                empty_value=None,
                label="By",
            ),
            "captured": forms.BooleanField(required=False, label="Captured"),
        }
        if self.is_n18:
            fields["killed"] = forms.BooleanField(required=False, label="Killed during the battle")
            fields["webbed"] = forms.BooleanField(required=False, label="Webbed when taken Out of Action")
            fields["rallies"] = forms.IntegerField(required=False, min_value=0, max_value=20, label="Rallies")
            scenario = SCENARIOS.get(self.battle.scenario)
            if scenario is not None and side in scenario.reinforced:
                fields["reinforcement"] = forms.BooleanField(required=False, label="Arrived as a Reinforcement")
            for award, sides in scenario.deeds if scenario is not None else ():
                if side in sides:
                    label = DEEDS[award]
                    fields[award] = (
                        forms.BooleanField(required=False, label=label)
                        if award == "relic_defiled"
                        else forms.IntegerField(required=False, min_value=0, max_value=4, label=label)
                    )
        for part, field in fields.items():
            self.fields[f"{prefix}-{part}"] = field
        return [self[f"{prefix}-{part}"] for part in fields]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        data.update(self.left_out)
        results, reinforcements = [], []
        # A correction keeps whoever the report already has, whatever this battle's sequence did to them since.
        reported = set(self.battle.fighter_results.values_list("fighter_id", flat=True))
        for fighter, *_ in self.rows:
            row = {part: data.get(f"{OUTCOME_PREFIX}-{fighter.pk}-{part}") for part in ROW_PARTS}
            awards = {award: int(row[award] or 0) for award in AWARD_PARTS if row[award]}
            if not row["took_part"]:
                if awards or row["killed"] or row["webbed"] or row["reinforcement"]:
                    self.add_error(None, f"{fighter.name} did not take part, so did nothing in the battle.")
                continue
            if fighter.status not in AVAILABLE_FOR_BATTLE and fighter.pk not in reported:
                self.add_error(
                    None,
                    f"{fighter.name} is {fighter.get_status_display()}: such a fighter misses the "
                    "gang's battles until back on the roster, so cannot have taken part.",
                )
                continue
            if row["reinforcement"]:
                reinforcements.append(fighter.pk)
            results.append(
                {
                    "fighter": fighter.pk,
                    "outcome": row["outcome"] or Outcome.OK,
                    "caused_by": row["caused_by"],
                    "captured": bool(row["captured"]),
                    "killed": bool(row["killed"]),
                    "webbed": bool(row["webbed"]),
                    "awards": awards,
                }
            )
        side_of = {f.pk: side for f, side, _ in self.rows}
        data["caskets"] = self._caskets(data, side_of)
        if data["caskets"]:
            # The caskets named are opened; a larger count given alone stands for caskets whose contents are unsaid.
            data["caskets_opened"] = max(data["caskets_opened"] or 0, len(data["caskets"]))
        data["fighter_results"] = results
        data["captives_freed"] = [c.pk for c in self.captives if data.get(f"captive-{c.pk}-freed")]
        data["reinforcements"] = reinforcements
        data["freed_by"] = {}
        took_part = {r["fighter"] for r in results}
        names = {f.pk: f.name for f, _, _ in self.rows}
        for captive in self.captives:
            freer = data.get(f"captive-{captive.pk}-freed_by")
            field = f"captive-{captive.pk}-freed_by"
            if freer and captive.pk not in data["captives_freed"]:
                self.add_error(field, f"{captive.name} was not freed: tick them, or say nobody.")
            elif freer and int(freer) not in took_part:
                self.add_error(field, f"{captive.name}: {names.get(int(freer))} did not take part, so freed nobody.")
            elif freer:
                data["freed_by"][captive.pk] = int(freer)
        if not self.errors:
            self._check_record(data)
        return data

    def _check_record(self, data: dict) -> None:
        """The report as the battle's one record, by the scenario's rules: each problem goes to the field it
        concerns; the relics and cache counts become what the fighters' deeds say."""
        bottled = tuple(side for side in ("attacker", "defender") if data[f"{side}_bottled"])
        fled = tuple(side for side in bottled if data[f"{side}_fled"])
        try:
            rows = report_rows(self.battle, data["fighter_results"])
        except ValidationError as err:
            self.add_error(None, err)
            return
        facts = {
            **self._facts(data),
            "captives_freed": data["captives_freed"],
            "freed_by": [{"captive": c, "fighter": f} for c, f in sorted(data["freed_by"].items())],
        }
        winner = None if data["result"] == "draw" else data["result"]
        record, problems = report_check(self.battle, rows, facts, bottled=bottled, fled=fled, winner=winner)
        for problem in problems:
            field = PROBLEM_FIELDS.get(problem.part)
            self.add_error(field if field in self.fields else None, problem.message)
        for side in ("attacker", "defender"):
            data[f"{side}_relic_defiled"] = bool(record.relic_defiled.get(side))
        data["caches_destroyed"], data["caches_recovered"] = record.caches_destroyed, record.caches_recovered

    def _facts(self, data: dict) -> dict:
        """The scenario's facts the players entered (``None`` and all-false pairs left out)."""
        facts = {
            "caskets_opened": data["caskets_opened"],
            "caskets": data["caskets"] or None,
            "relic_defiled": {s: data[f"{s}_relic_defiled"] for s in ("attacker", "defender")},
            "caches_destroyed": data["caches_destroyed"],
            "caches_recovered": data["caches_recovered"],
            "victory_points": {s: data[f"{s}_victory_points"] for s in ("attacker", "defender")},
            "reinforcements": data["reinforcements"] or None,
        }
        return _drop_empty(facts)

    def report(self) -> dict:
        """Keyword arguments for ``battle_report_submit``."""
        data, battle = self.cleaned_data, self.battle
        return {
            "winner": {"attacker": battle.attacker, "defender": battle.defender}.get(data["result"]),
            "is_draw": data["result"] == "draw",
            "attacker_bottled": data["attacker_bottled"],
            "defender_bottled": data["defender_bottled"],
            "attacker_fled": data["attacker_fled"],
            "defender_fled": data["defender_fled"],
            "fighter_results": data["fighter_results"],
            "scenario_facts": self._facts(data),
            "captives_freed": data["captives_freed"],
            "freed_by": data["freed_by"],
            "notes": data["notes"],
        }


def _drop_empty(facts: dict) -> dict:
    """Keep only the facts the players entered (``None`` and all-false pairs are left out)."""
    out = {}
    for key, value in facts.items():
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if v not in (None, False)}
        if value not in (None, {}):
            out[key] = value
    return out


class LogFilterForm(CampaignGameForm):
    gang = forms.TypedChoiceField(choices=(), required=False, coerce=int, empty_value=None)
    kind = forms.ChoiceField(choices=[("", "Every kind")] + LedgerKind.choices, required=False)

    def __init__(self, *args, gangs, **kwargs):
        """``gangs``: the campaign's gangs as (id, name) pairs (the campaign page's cached head)."""
        super().__init__(*args, **kwargs)
        self.fields["gang"].choices = [("", "Every gang")] + [(str(pk), name) for pk, name in gangs]


HOUSE_RULE_MOST = 100_000  # far inside the columns: a house rule is a few hundred credits at most


class HouseRulesForm(CampaignModelForm):
    """The campaign's house rules that apply (campaigns.services.house_rules); ``initial`` is the rules in force."""

    banned_items = forms.MultipleChoiceField(
        required=False,
        label="Items the campaign's Trading Post does not sell",
        help_text="Refused to every gang of the campaign (an arbitrator's override aside).",
        widget=forms.SelectMultiple(attrs={"size": 8}),
    )
    note = forms.CharField(required=False, max_length=300, label="Why (shown in the change log)")

    class Meta:
        model = HouseRules
        fields = list(RULE_FIELDS)
        labels = {"additions_before_first_battle": "Hangers-on and Brutes may be hired before the first battle"}

    def __init__(self, *args, edition: str, **kwargs):
        super().__init__(*args, **kwargs)
        items = Equipment.objects.active().filter(edition=edition, cost__isnull=False).order_by("name")
        self.fields["banned_items"].choices = [(e.slug, e.name) for e in items]
        for name, field in self.fields.items():
            if isinstance(field, forms.IntegerField):
                least = -HOUSE_RULE_MOST if name == "starting_reputation" else 0
                field.validators += [MinValueValidator(least), MaxValueValidator(HOUSE_RULE_MOST)]
                field.widget.attrs.update(min=least, max=HOUSE_RULE_MOST)
