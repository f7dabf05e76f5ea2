"""Forms for the gang pages: validation only; the services decide the rules."""

from __future__ import annotations

import re
import uuid

from django import forms

from content.models import ADDITION_CATEGORIES, Edition, EquipmentCategory, FighterType, House, HouseKind, Skill
from core.forms import EnteredDiceField, GameForm
from gangs.models import ON_ROSTER, Fighter, FighterStatus, Gang
from gangs.selectors import (
    buyable_equipment,
    gang_founding,
    held_additions,
    house_rules,
    house_types,
    injury_rows,
    replacement_reason,
    rule_recruit_refusal,
)
from gangs.services.record import SETTABLE_STATUSES, InjuryMode
from rulebook import gang_rules
from rulebook.classic.campaign.experience import SKILL_TABLES as CLASSIC_SKILL_TABLES
from rulebook.n18.advancement import GANGER_ADVANCEMENT


class GangCreateForm(GameForm):
    name = forms.CharField(max_length=80)
    house = forms.ChoiceField(label="Edition and house")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Gang Additions (Hangers-on, Brutes, Hired Guns) is content, not a gang a player founds.
        houses = list(House.objects.active().filter(kind=HouseKind.GANG_LIST).order_by("name"))
        self.houses = {str(h.pk): h for h in houses}
        self.fields["house"].choices = [("", "Choose a house")] + [
            (label, [(str(h.pk), h.name) for h in houses if h.edition == value]) for value, label in Edition.choices
        ]

    def clean_house(self) -> House:
        return self.houses[self.cleaned_data["house"]]


class RenameForm(GameForm):
    name = forms.CharField(max_length=80)


class NotesForm(GameForm):
    notes = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=10_000)


class OverrideField(forms.CharField):
    def __init__(self, **kwargs):
        super().__init__(
            required=False,
            max_length=300,
            label="Arbitrator override: reason",
            help_text="Only for an arbitrator: allow what the rules refuse, recorded in the ledger.",
            **kwargs,
        )


class HireForm(GameForm):
    """Offers only the hires the service accepts: types the Stash can pay for and the composition maximums
    allow (an arbitrator, who may override, sees every type). The help text says what is left out and why."""

    fighter_type = forms.ChoiceField(label="Fighter type")
    name = forms.CharField(max_length=80)
    kit = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Kit from the list",
        help_text="Bought for the new fighter in the same step, at its list's price: all of it, or no hire.",
    )

    def __init__(
        self,
        *args,
        gang: Gang,
        additions=(),
        can_override: bool = False,
        kit_for: str = "",
        founding: bool | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        # ``additions`` are the Hangers-on and Brutes of gangs.selectors.gang_additions, priced for the house;
        # ``founding`` is gangs.selectors.gang_founding when the page has read it (gangs.selectors.RosterPage).
        types = sorted((t for t in house_types(gang.house) if t.is_active), key=lambda t: (t.order, t.name))
        additions = list(additions)
        left_out: dict[str, list[str]] = {}  # why → the types it leaves out
        if not can_override:
            founding = gang_founding(gang) if founding is None else founding
            types, additions = self._offered(gang, founding, types, additions, left_out)
        self.types = {str(t.pk): t for t in [*types, *additions]}
        # Each with its price and stat line, so a player compares choices without leaving the form.
        house = [(str(t.pk), f"{t.name} ({t.cost} credits) · {_stats(t)}") for t in types]
        extra = [
            (str(t.pk), f"{t.name} ({t.get_category_display()}, {t.price} credits) · {_stats(t)}") for t in additions
        ]
        self.fields["fighter_type"].choices = [(gang.house.name, house)] + (
            [("Hangers-on and Brutes", extra)] if extra else []
        )
        if left_out:
            self.fields["fighter_type"].help_text = (
                "Not now: " + "; ".join(f"{_few(names)}: {why}" for why, names in left_out.items()) + "."
            )
        # The kit of the chosen type: after "Choose kit" (``kit_for``), or as posted with the hire.
        chosen = self.types.get(str(self.data.get(self.add_prefix("fighter_type"), "")) if self.is_bound else kit_for)
        self._kit_choices(chosen)
        if can_override:
            self.fields["override_reason"] = OverrideField()

    def _kit_choices(self, fighter_type: FighterType | None) -> None:
        """What ``fighter_type`` may take from its list (not the kit its price includes), by category, at its list's
        price; none until a type is chosen."""
        self.kit_items = {}
        if fighter_type is None:
            return
        groups: dict[str, list] = {}
        entries = fighter_type.equipment_list.filter(is_included=False).select_related("equipment")
        for entry in sorted(entries, key=lambda e: (e.equipment.category, e.equipment.name)):
            self.kit_items[str(entry.equipment_id)] = entry.equipment
            label = f"{entry.equipment.name} ({entry.cost})"
            groups.setdefault(entry.equipment.get_category_display(), []).append((str(entry.equipment_id), label))
        self.fields["kit"].choices = list(groups.items())

    def clean_kit(self) -> list:
        return [self.kit_items[pk] for pk in self.cleaned_data["kit"]]

    @staticmethod
    def _offered(gang: Gang, founding: bool, types: list, additions: list, left_out: dict) -> tuple[list, list]:
        """The types a hire would accept now; the others grouped by the reason, for one short line."""
        # One query for the roster's types: the gang page loads its fighters only when the cache misses.
        # Hangers-on, Brutes and Hired Guns count toward no other fighter's limit (gangs.selectors.roster_types).
        # From Fighter, not gang.fighters: a prefetched roster's queryset would bring its own prefetches along.
        fighters = list(Fighter.objects.filter(gang=gang, status__in=ON_ROSTER).select_related("fighter_type"))
        roster = [f.fighter_type.slug for f in fighters if f.fighter_type.category not in ADDITION_CATEGORIES]
        rules = house_rules(gang.house)
        held = held_additions(gang, fighters=fighters)
        offered, extra = [], []
        for fighter_type in types:
            breaches = gang_rules.hire_breaches(rules, roster, fighter_type.slug, founding=founding)
            if breaches:
                left_out.setdefault(_without_count(breaches[0].message), []).append(fighter_type.name)
            elif fighter_type.recruited_by_rule:
                # Never bought: offered (free) only while the rule gives one (gangs.services.fighter_hire).
                if replacement_reason(gang, fighter_type):
                    offered.append(fighter_type)
                else:
                    left_out.setdefault(rule_recruit_refusal(fighter_type), []).append(fighter_type.name)
            elif fighter_type.cost > gang.stash:
                left_out.setdefault(f"the Stash holds {gang.stash} credits", []).append(fighter_type.name)
            else:
                offered.append(fighter_type)
        for addition in additions:
            limit = gang_rules.TypeLimit(addition.slug, addition.name, addition.category, 0, addition.max_per_gang)
            breaches = gang_rules.addition_hire_breaches(limit, held, reputation=gang.reputation)
            if breaches:
                left_out.setdefault(_without_count(breaches[0].message), []).append(addition.name)
            elif addition.price > gang.stash:
                left_out.setdefault(f"the Stash holds {gang.stash} credits", []).append(addition.name)
            else:
                extra.append(addition)
        return offered, extra

    def clean_fighter_type(self) -> FighterType:
        return self.types[self.cleaned_data["fighter_type"]]


def _stats(fighter_type: FighterType) -> str:
    return " ".join(f"{label} {value}" for label, value in fighter_type.statline)


def _few(names: list[str]) -> str:
    """Names for one short line: up to three, else the first two and how many more."""
    if len(names) <= 3:
        return ", ".join(names)
    return f"{names[0]}, {names[1]} and {len(names) - 2} more"


def _without_count(message: str) -> str:
    """A breach's message without the count of this one hire ("(the gang would have 2)"): one reason for many."""
    return re.sub(r"\s*\(the gang would have \d+\)", "", message)


class HiredGunForm(GameForm):
    """Hire a Hired Gun for one of the gang's coming campaign battles (2023 Core Rulebook, Hired Guns)."""

    fighter_type = forms.ChoiceField(label="Hired Gun")
    battle = forms.ChoiceField(label="For the battle")
    name = forms.CharField(max_length=80)

    def __init__(self, *args, hired=(), battles=(), can_override: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.types = {str(t.pk): t for t in hired}
        self.battles = {str(b.pk): b for b in battles}
        self.fields["fighter_type"].choices = [(pk, f"{t.name} ({t.price} credits)") for pk, t in self.types.items()]
        self.fields["battle"].choices = [(pk, str(b)) for pk, b in self.battles.items()]
        if can_override:
            self.fields["override_reason"] = OverrideField()

    def clean_fighter_type(self) -> FighterType:
        return self.types[self.cleaned_data["fighter_type"]]

    def clean_battle(self):
        return self.battles[self.cleaned_data["battle"]]


# 2023 core rulebook, post-battle sequence, Purchase Equipment and Seek Rare & Illegal Equipment (necrovox copy in
# yakuzadave/necroman_v2, necrovox_docs/Necromunda_Docs/6-the-rules/17-the-post-battle-sequence.md).
TRADE_NOTE = (
    "List items cost their list price; the Trading Post sells Common items at any time. Rare (X) and Illegal (X) "
    "items come only through a Trade post-battle action, up to the Availability level it rolls (2D6, +2 for the "
    "Leader, +1 per Champion trading, +1 per full 10 Reputation); a law-abiding gang buys Illegal (X) only up to "
    "that level -4."
)


class BuyForm(GameForm):
    """Offers what this buyer may buy (list or Trading Post) and the Stash can pay for."""

    equipment = forms.ChoiceField(label="Equipment")

    def __init__(
        self,
        *args,
        gang: Gang,
        fighter: Fighter | None = None,
        can_override: bool = False,
        in_campaign: bool | None = None,
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        # An arbitrator also sees the Rare and Illegal items, bought by override after the Trade roll allows them;
        # ``in_campaign`` as gangs.selectors.trading_post_level takes it.
        offers = buyable_equipment(gang, fighter, with_rare=can_override, in_campaign=in_campaign)
        affordable = [offer for offer in offers if offer[1] <= gang.stash]
        self.items = {str(item.pk): item for item, _, _ in affordable}
        # Grouped by category, in the Armoury's order, so a long Trading Post list reads like the book's.
        groups: dict[str, list] = {category: [] for category in EquipmentCategory.values}
        for item, price, where in affordable:
            groups[item.category].append((str(item.pk), f"{item.name} — {price} credits ({where})"))
        labels = dict(EquipmentCategory.choices)
        self.fields["equipment"].choices = [(labels[c], choices) for c, choices in groups.items() if choices]
        notes = []
        if len(affordable) < len(offers):
            dearer = len(offers) - len(affordable)
            notes.append(
                f"Not offered: {dearer} item{'s' if dearer != 1 else ''} dearer than the {gang.stash} credits in the Stash."
            )
        if gang.edition == "n18":
            notes.append(TRADE_NOTE)
        self.fields["equipment"].help_text = " ".join(notes)
        if can_override:
            self.fields["override_reason"] = OverrideField()

    def clean_equipment(self):
        return self.items[self.cleaned_data["equipment"]]


class MoveForm(GameForm):
    """Where an item can go: the Stash (unless it is there) or a fighter on the roster, other than the one
    holding it, whose list or the Trading Post allows it (``move_targets``: what the service accepts)."""

    to = forms.ChoiceField(label="Move to")

    def __init__(self, *args, purchase, targets: list[Fighter], **kwargs):
        super().__init__(*args, **kwargs)
        self.fighters = {str(f.pk): f for f in targets}
        self.fields["to"].choices = self.choices(purchase, [(f.pk, f.name) for f in targets])

    @staticmethod
    def choices(purchase, targets: list[tuple[int, str]]) -> list[tuple[str, str]]:
        """The Stash (unless the item is there) and each fighter of ``targets`` (id, name), as the form offers
        them: what the gang and fighter pages draw without building a form for every item."""
        stash = [("stash", "The Stash")] if purchase.fighter_id else []
        return stash + [(str(pk), name) for pk, name in targets]

    def clean_to(self) -> Fighter | None:
        return self.fighters.get(self.cleaned_data["to"])


class EnteredDiceForm(GameForm):
    """A roll the server makes, or the dice rolled at the table typed in order (``dice_help`` says which)."""

    dice_help = ""
    dice = EnteredDiceField(label="Dice rolled at the table (optional)")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["dice"].help_text = f"{self.dice_help} Empty: the server rolls."
        self.order_fields([name for name in self.fields if name != "dice"] + ["dice"])


class ClassicAdvanceForm(EnteredDiceForm):
    """The advance roll. The skill tables are chosen before the roll, so the server never rolls twice for one advance."""

    dice_help = "In order: the two Advance dice, then the D6 the result asks for, e.g. 3 4 5."
    skill_table = forms.ChoiceField(label="Skill table if the roll gives a skill (3-4, 10-11)")
    any_table = forms.ChoiceField(required=False, label="Skill table on a 2 or 12 (any table)")

    def __init__(self, *args, standard_tables, full_tables=(), **kwargs):
        super().__init__(*args, **kwargs)
        # Tables the fighter has every skill of are left out (the service refuses them before the dice).
        self.fields["skill_table"].choices = [(t, t) for t in standard_tables]
        self.fields["any_table"].choices = [("", "The same table")] + [
            (t, t) for t in CLASSIC_SKILL_TABLES if t not in full_tables
        ]
        if full_tables:
            self.fields["skill_table"].help_text = f"Not offered, every skill already taken: {', '.join(full_tables)}."


class GangerAdvanceForm(EnteredDiceForm):
    """A Ganger's 2D6 roll on the Gangers' table for 6 XP: the choices a result may need are made before it."""

    dice_help = "In order: the two Advancement dice, then on a 2 or 12 the D6 for the skill, e.g. 6 6 3."
    prefer = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Where a result offers two characteristics, take",
        choices=[(c, c) for row in GANGER_ADVANCEMENT.rows for c in row.details["choices"]],
    )
    random_table = forms.ChoiceField(label="Primary Skill Set for a Specialist's random skill (2 or 12)")

    def __init__(self, *args, primary_tables, full_tables=(), **kwargs):
        super().__init__(*args, **kwargs)
        # A set the fighter has every skill of is left out (the service refuses it before the dice).
        self.fields["random_table"].choices = [(t, t) for t in primary_tables]
        self.fields["random_table"].required = bool(primary_tables)  # none: the service says why
        if full_tables:
            self.fields["random_table"].help_text = f"Not offered, every skill already taken: {', '.join(full_tables)}."


class N18AdvanceForm(GameForm):
    """What to spend experience on: a characteristic, a chosen skill or a random skill from a table."""

    advance = forms.ChoiceField(label="Advancement")

    def __init__(self, *args, fighter: Fighter, access: dict[str, str], **kwargs):
        super().__init__(*args, **kwargs)
        category = fighter.fighter_type.category
        taken = {}
        for change in fighter.stat_changes.all():
            if change.source == "advancement":
                taken[change.stat] = taken.get(change.stat, 0) + 1
        characteristics, random, chosen = [], [], []
        # Only what the fighter can pay for is offered; the service still refuses the rest if posted.
        self.out_of_reach: int | None = None

        def offer(group: list, value: str, label: str, xp: int) -> None:
            if xp <= fighter.experience:
                group.append((value, f"{label} — {xp} XP"))
            else:
                self.out_of_reach = xp if self.out_of_reach is None else min(self.out_of_reach, xp)

        for code in fighter.base_stats:
            cost = gang_rules.n18_characteristic_cost(code, category=category, times_taken=taken.get(code, 0))
            offer(characteristics, f"stat:{code}", f"+1 {code}", cost.xp)
        for table, level in access.items():
            cost = gang_rules.n18_skill_cost(access=level, random=True, category=category)
            offer(random, f"random:{table}", f"Random {table} skill ({level})", cost.xp)
        skills = Skill.objects.filter(edition=Edition.N18, table__name__in=access, is_active=True).select_related(
            "table"
        )
        for skill in skills:
            cost = gang_rules.n18_skill_cost(access=access[skill.table.name], random=False, category=category)
            offer(chosen, f"skill:{skill.pk}", f"{skill.name} ({skill.table.name})", cost.xp)
        groups = [("Characteristics", characteristics), ("Random skills", random), ("Chosen skills", chosen)]
        self.fields["advance"].choices = [(name, group) for name, group in groups if group]
        self.affordable = any(group for _, group in groups)
        if self.out_of_reach is not None:
            self.fields[
                "advance"
            ].help_text = f"Only what {fighter.experience} XP pays for is listed; the cheapest other costs {self.out_of_reach} XP."

    def clean_advance(self) -> dict:
        kind, _, value = self.cleaned_data["advance"].partition(":")
        if kind == "stat":
            return {"characteristic": value}
        if kind == "random":
            return {"random_table": value}
        return {"skill": Skill.objects.get(pk=value)}


class RecordForm(GameForm):
    """A change to the owner's record; ``token`` makes the same form sent twice count once."""

    token = forms.CharField(widget=forms.HiddenInput, max_length=40)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial["token"] = uuid.uuid4().hex


class ExperienceForm(RecordForm):
    amount = forms.IntegerField(min_value=1, max_value=100, label="Experience gained")
    reason = forms.CharField(max_length=300, label="Why", help_text="The battle and what earned it.")


def rival_gangs(gang: Gang):
    """The other gangs playing the campaign ``gang`` plays in (none outside a campaign)."""
    playing = {"memberships__removed_at__isnull": True}
    campaigns = gang.memberships.filter(removed_at__isnull=True).values("campaign")
    return (
        Gang.objects.filter(memberships__campaign__in=campaigns, **playing)
        .exclude(pk=gang.pk)
        .distinct()
        .order_by("name")
    )


class KillsForm(RecordForm):
    count = forms.IntegerField(min_value=1, max_value=20, label="Kills", initial=1)
    reason = forms.CharField(max_length=300, required=False, label="Battle (optional)")


class StatusForm(RecordForm):
    status = forms.ChoiceField(label="New status")
    captor = forms.ModelChoiceField(queryset=Gang.objects.none(), required=False, label="Held by (when Captured)")
    reason = forms.CharField(max_length=300, label="Why")

    def __init__(self, *args, fighter: Fighter, in_campaign: bool | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        allowed = SETTABLE_STATUSES[fighter.gang.edition]
        # Only a change the service accepts: not the status the fighter already has.
        self.fields["status"].choices = [(s, FighterStatus(s).label) for s in allowed if s != fighter.status]
        # A capture always has its captor: a rival gang of the fighter's campaign (no question outside one, when
        # ``in_campaign`` says so; else the rivals' list, empty outside one, asks).
        if in_campaign is False:
            del self.fields["captor"]
        else:
            self.fields["captor"].queryset = rival_gangs(fighter.gang)


class InjuryForm(RecordForm):
    mode = forms.ChoiceField(
        label="The result",
        widget=forms.RadioSelect,
        initial=InjuryMode.ROLL,
        choices=[
            (InjuryMode.ROLL, "Roll it here (the server rolls and records the dice)"),
            (InjuryMode.ENTERED, "Dice rolled at the table"),
            (InjuryMode.CHOSEN, "Choose the result from the table, with a reason"),
        ],
    )
    dice = EnteredDiceField(
        label="The dice, in order",
        help_text="Tens die first, then units, then any further dice the result asks for, e.g. 2 3.",
    )
    result = forms.ChoiceField(label="Result from the table", required=False)
    reason = forms.CharField(max_length=300, required=False, label="Reason (needed for a chosen result)")

    def __init__(self, *args, edition: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["result"].choices = [("", "—")] + injury_rows(edition)

    def clean(self):
        data = super().clean()
        mode = data.get("mode")
        if mode == InjuryMode.ROLL and data.get("dice"):
            data["mode"] = mode = InjuryMode.ENTERED  # dice typed in: they are the roll, the server rolls nothing
        if mode == InjuryMode.ROLL and data.get("result"):
            self.add_error("mode", "A result is chosen below: pick 'Choose the result from the table', or clear it.")
        if mode == InjuryMode.ENTERED and not data.get("dice"):
            self.add_error("dice", "Type the dice rolled at the table.")
        if mode == InjuryMode.CHOSEN:
            if not data.get("result"):
                self.add_error("result", "Choose the result.")
            if not data.get("reason", "").strip():
                self.add_error("reason", "A chosen result needs a reason: who agreed it, and why.")
        return data


class UndoForm(GameForm):
    reason = forms.CharField(max_length=300, required=False, label="Why undo (optional)")


class ImportForm(GameForm):
    file = forms.FileField(help_text="A gang exported from Underhive Ledger (JSON, version 1).")


class YakTribeForm(GameForm):
    """One of: the gang's JSON file, its text pasted, or its YakTribe address (fetched by the site)."""

    file = forms.FileField(required=False, label="YakTribe gang file", help_text="The gang's .json file from YakTribe.")
    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label="Or paste its text",
        max_length=1024 * 1024,
    )
    address = forms.CharField(
        required=False,
        max_length=300,
        label="Or its address on YakTribe",
        help_text="The gang page's address (…/underhive/gang/name.12345/) or the gang's number.",
    )

    def clean(self):
        given = [name for name in ("file", "text", "address") if self.cleaned_data.get(name)]
        if len(given) != 1:
            raise forms.ValidationError("Give the gang one way: its file, its text or its address.")
        return self.cleaned_data


# An arbitrator's correction is a few hundred credits at most; the bound keeps totals far inside the column.
OVERRIDE_LIMIT = 100_000


class OverrideForm(GameForm):
    credits = forms.IntegerField(
        initial=0,
        min_value=-OVERRIDE_LIMIT,
        max_value=OVERRIDE_LIMIT,
        help_text="Added to the Stash (negative to take away).",
    )
    reputation = forms.IntegerField(initial=0, min_value=-OVERRIDE_LIMIT, max_value=OVERRIDE_LIMIT)
    reason = forms.CharField(max_length=300)
