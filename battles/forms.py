"""Short forms for the table: start a battle, describe an action, end the battle. Validation only.

Action forms hand the service a ``params`` dict (:meth:`ActionForm.params`) whose fighters are
:class:`BattleFighter` rows and whose weapon is ``"<weapon key>:<profile index>"``.
"""

from __future__ import annotations

import copy
import re

from django import forms
from django.core.exceptions import ValidationError

from battles.models import BattleFighter, Condition, Role
from battles.rules import classic, n18, profile_label
from campaigns.models import Side, other_side
from core.forms import EnteredDiceField, GameForm
from core.fragments import one_time_token
from gangs.models import AVAILABLE_FOR_BATTLE, Gang
from rulebook.n18 import kit
from rulebook.numbers import whole_number


class BattleGameForm(GameForm):
    changed = "the battle"  # a stale choice says what changed (core.forms.GameWords)


# --- one-time tokens ----------------------------------------------------------------------------


def new_token() -> str:
    """A fresh one-time token for a form that changes the battle."""
    return one_time_token()


def posted_token(data) -> str:
    """The ``once`` token a form posted, if it is one of ours (32 hex digits), else ``""`` (no protection)."""
    value = str(data.get("once") or "")
    return value if re.fullmatch(r"[0-9a-f]{32}", value) else ""


# --- starting a battle --------------------------------------------------------------------------


class BattleStartForm(BattleGameForm):
    gang_a = forms.ModelChoiceField(queryset=Gang.objects.none(), label="Your gang")
    gang_b = forms.ModelChoiceField(queryset=Gang.objects.none(), label="Opponent's gang")
    scenario = forms.ChoiceField(required=False, label="Scenario (2018+ campaign guide)")
    role_a = forms.ChoiceField(choices=Role.choices, required=False, label="Your gang is")

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        from rulebook.n18.campaign.scenarios import SCENARIOS

        self.fields["gang_a"].queryset = Gang.objects.filter(owner=user).select_related("house")
        # Both lists name the edition: the two gangs must play the same one.
        self.fields["gang_a"].label_from_instance = lambda g: f"{g.name} ({g.get_edition_display()})"
        self.fields["gang_b"].queryset = Gang.objects.select_related("house", "owner")
        self.fields["gang_b"].label_from_instance = lambda g: (
            f"{g.name} ({g.owner.username}, {g.get_edition_display()})"
        )
        choices = [("", "None (a friendly game)")]
        choices += [(slug, s.name) for slug, s in SCENARIOS.items() if s.crews]
        self.fields["scenario"].choices = choices
        self.crew_fields = {}
        gangs = self._gangs()
        for suffix, gang in gangs.items():
            if gang is None:
                continue
            name = f"crew_{suffix}"
            fighters = gang.fighters.filter(status__in=AVAILABLE_FOR_BATTLE).select_related("fighter_type")
            self.fields[name] = forms.ModelMultipleChoiceField(
                queryset=fighters,
                required=False,
                widget=forms.CheckboxSelectMultiple,
                label=f"{gang.name}: fighters you choose",
                help_text="With a scenario crew rule the dice decide how many you may choose (in this order) "
                "and pick the rest at random; leave empty for the whole gang in a friendly game.",
            )
            self.crew_fields[suffix] = self[name]

    def _gangs(self) -> dict:
        # Keyed by the fields' suffix (gang_a, crew_a: the first gang), as the page posts them, not by Side.
        out = {}
        for suffix in ("a", "b"):
            value = self.data.get(f"gang_{suffix}") if self.is_bound else None
            queryset = self.fields[f"gang_{suffix}"].queryset
            pk = whole_number(value)
            out[suffix] = queryset.filter(pk=pk).first() if pk is not None and 0 < pk < 2**63 else None
        return out

    @property
    def has_crews(self) -> bool:
        return len(self.crew_fields) == 2

    def clean(self):
        data = super().clean()
        a, b = data.get("gang_a"), data.get("gang_b")
        if a and b and a.pk == b.pk:
            raise ValidationError("Pick two different gangs.")
        if a and b and a.edition != b.edition:
            raise ValidationError("Both gangs must play the same edition.")
        if a and a.edition != "n18" and data.get("scenario"):
            raise ValidationError("The scenarios here are the 2018+ campaign guide's; leave it empty for classic.")
        return data


# --- actions ------------------------------------------------------------------------------------


def _in_play(fighters, side=None):
    return [f for f in fighters if not f.out_of_action and (side is None or f.side == side)]


def _fighter_choices(fighters) -> list:
    return [("", "—")] + [(f.pk, f"{f.name} ({f.session.gang(f.side).name})") for f in fighters]


def _weapon_choices(rules, fighters, use: str, unarmed: bool = False, own: bool = False) -> tuple[list, list[str]]:
    """``"<fighter id>:<weapon key>:<profile index>"`` for every weapon profile a fighter in play can use, as the
    edition's ``offered`` sorts them (only what the rulebook resolves), and in words each profile left out and
    why; ``own``: the choices are one fighter's weapons, so the labels leave out his name."""
    out, left_out = ([] if own else [("", "—")]), []
    for f in fighters:
        offer = rules.offered(f, use)
        who = "" if own else f"{f.name}: "
        for w, index in offer.usable:
            broken = " — failed" if w["key"] in f.failed_weapons else ""
            broken = " — jammed" if w["key"] in f.jammed_weapons else broken  # 2018+: no reload this battle
            out.append((f"{f.pk}:{w['key']}:{index}", who + profile_label(w, index) + broken))
        left_out += [f"{who}{profile_label(w, index)}: {reason}." for w, index, reason in offer.left_out]
        if unarmed:
            out.append((f"{f.pk}::", "Bare hands" if own else f"{f.name}: bare hands"))
    if len(out) == (0 if own else 1):  # say why the list is empty rather than offer a lone dash
        out = [("", f"— no fighter in play has a weapon that {use} —")]
    return out, left_out


def _weapon_field(form, name: str, fighters, use: str, unarmed: bool = False, own: bool = False) -> list:
    """Set the field's weapon choices; the profiles left out go on the field (``left_out``) for the page to say
    why. Returns the choices."""
    choices, left_out = _weapon_choices(form.rules, fighters, use, unarmed=unarmed, own=own)
    form.fields[name].choices = choices
    form.fields[name].left_out = left_out
    return choices


def front_arc_field(initial: bool) -> forms.BooleanField:
    """2018+: whether the attack comes from inside the target's front vision arc (heavy carapace, plate mail, furnace
    plates and shields count only then; ``rulebook.n18.armour``)."""
    return forms.BooleanField(
        required=False, initial=initial, label="From the target's front (front-arc armour, shields)"
    )


def _shot_at(enemy: BattleFighter) -> bool:
    """An enemy a shot is usually meant for: on his feet and not in a fight."""
    return enemy.condition not in (Condition.DOWN, Condition.SERIOUSLY_INJURED) and not enemy.engaged


def _fought(enemy: BattleFighter) -> bool:
    """An enemy a fight (not a charge) is meant for: one Engaged, still fighting."""
    return enemy.engaged and enemy.condition != Condition.SERIOUSLY_INJURED


def _charged(enemy: BattleFighter) -> bool:
    """An enemy a charge is meant for: on his feet."""
    return enemy.condition not in (Condition.DOWN, Condition.SERIOUSLY_INJURED)


class ActionForm(BattleGameForm):
    """What every action form shares: the dice, rolled here or entered from the table."""

    dice = EnteredDiceField(
        label="Dice rolled at the table",
        help_text="In the order asked, e.g. 4 3 6. Leave empty to roll here.",
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def __init__(self, *args, session, fighters: list[BattleFighter], **kwargs):
        super().__init__(*args, **kwargs)
        self.session = session
        self.rules = classic if session.edition == "classic" else n18
        self.by_pk = {f.pk: f for f in fighters}
        self.fighters = fighters

    def acting(self) -> BattleFighter | None:
        """The fighter whose card the action started from (``fighter`` in the data or the initial values):
        the form then offers only his weapons and his enemies, as buttons."""
        value = self.data.get("fighter") if self.is_bound else None
        value = value or self.initial.get("fighter")
        fighter = self.by_pk.get(whole_number(str(value or "")))
        return fighter if fighter is not None and not fighter.out_of_action else None

    def focus_on(self, fighter: BattleFighter, weapon_field: str, use: str, unarmed: bool = False, likely=None) -> None:
        """One fighter's action: his weapons and his enemies in play as buttons, the only weapon and the only
        likely target (:meth:`enemy_buttons`) already chosen."""
        self.fields["fighter"] = forms.IntegerField(widget=forms.HiddenInput, initial=fighter.pk)
        weapons = _weapon_field(self, weapon_field, [fighter], use, unarmed=unarmed, own=True)
        self.fields[weapon_field].widget = forms.RadioSelect(attrs={"class": "choice-buttons"})
        self.fields[weapon_field].widget.choices = weapons
        if len(weapons) == 1 or (unarmed and len(weapons) == 2):
            self.initial.setdefault(weapon_field, weapons[0][0])
        self.enemy_buttons(fighter, likely)

    def enemy_buttons(self, fighter: BattleFighter, likely=None) -> None:
        """The target: one of the fighter's enemies in play, as buttons, the likely ones first (``likely(enemy)``:
        an enemy the action is meant for, e.g. one Engaged in a fight); the only likely one already chosen, never
        an unlikely one (an enemy not in the fight, a Seriously Injured one for a shot)."""
        in_play = [f for f in _in_play(self.fighters) if f.side != fighter.side]
        likely = likely or (lambda enemy: True)
        ordered = sorted(in_play, key=lambda f: not likely(f))
        enemies = [(f.pk, f.name) for f in ordered]
        self.fields["target"].choices = enemies
        self.fields["target"].widget = forms.RadioSelect(attrs={"class": "choice-buttons"})
        self.fields["target"].widget.choices = enemies
        chosen = [f for f in ordered if likely(f)]
        if len(chosen) == 1:
            self.initial.setdefault("target", chosen[0].pk)

    def fighter(self, name: str) -> BattleFighter | None:
        value = self.cleaned_data.get(name)
        return self.by_pk.get(int(value)) if value not in (None, "") else None

    def params(self) -> dict:
        raise NotImplementedError


RANGE_BANDS = {"short": "Short range", "long": "Long range"}


class ShootForm(ActionForm):
    shooter = forms.ChoiceField(label="Shooter and weapon")
    target = forms.ChoiceField(label="Target")
    band = forms.ChoiceField(
        choices=list(RANGE_BANDS.items()),
        required=False,
        label="Range",
        widget=forms.RadioSelect(attrs={"class": "choice-buttons"}),
    )
    distance = forms.IntegerField(
        min_value=0,
        max_value=200,
        required=False,
        label='Or the distance (")',
        help_text="Only when a rule needs the inches (a scattering Blast marker).",
    )
    cover = forms.ChoiceField(widget=forms.RadioSelect(attrs={"class": "choice-buttons"}), initial="none")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _weapon_field(self, "shooter", _in_play(self.fighters), "shoots")
        self.fields["target"].choices = _fighter_choices(_in_play(self.fighters))
        self.fields["cover"].choices = list(self.rules.COVER.items())
        self.fields["cover"].widget.choices = self.fields["cover"].choices
        acting = self.acting()
        if acting is not None:
            self.focus_on(acting, "shooter", "shoots", likely=_shot_at)
            self.fields["shooter"].label = f"{acting.name}'s weapon"
            # Short range unless the player taps Long: one tap fewer for the common shot, and the odds say which.
            self.initial.setdefault("band", "short")
        if self.session.edition == "n18" and (self.data.get("also_under") or self.initial.get("also_under")):
            # One more fighter under the marker or template of the shot just made (battles.rules.n18.area_prompt):
            # any fighter may be under it, friend or foe, the shooter too (a misfire centres it on him), and no range
            # is asked.
            self.fields["also_under"] = forms.BooleanField(required=False, initial=True, widget=forms.HiddenInput)
            others = [(f.pk, f.name) for f in _in_play(self.fighters)]
            self.fields["target"].choices = self.fields["target"].widget.choices = others
            self.initial["distance"] = 0
        elif self.session.edition == "n18" and (acting is None or n18.has_rapid_fire(acting)):
            # Rapid Fire: the hits beyond the first may go to other fighters within 3" of the target.
            self.fields["split_to"] = forms.MultipleChoiceField(
                choices=[(f.pk, f.name) for f in _in_play(self.fighters) if f != acting],
                required=False,
                widget=forms.CheckboxSelectMultiple(attrs={"class": "choice-buttons"}),
                label='Rapid Fire: spare hits to (within 3" of the target)',
                help_text="The first hit stays on the target; one each to these, in turn; any more on the target.",
            )
        if self.session.edition == "classic":
            self.fields["modifiers"] = forms.MultipleChoiceField(
                choices=list(classic.SHOOT_MODIFIERS.items()), required=False, widget=forms.CheckboxSelectMultiple
            )
            self.fields["in_combat_with"] = forms.IntegerField(
                min_value=0,
                max_value=5,
                required=False,
                initial=0,
                label="Fighters the target is in hand-to-hand with",
                help_text="A shot into a fight may hit any of them.",
            )
            self.fields["friend_in_path"] = forms.BooleanField(
                required=False, label='A friend within ½" of the line of fire (stray shots)'
            )
        else:
            self.fields["modifier"] = forms.IntegerField(
                min_value=-6, max_value=6, required=False, label="Other hit modifier", initial=0
            )
            self.fields["front_arc"] = front_arc_field(initial=False)
        self.order_fields(
            [
                "fighter",
                "shooter",
                "target",
                "band",
                "distance",
                "cover",
                "modifiers",
                "in_combat_with",
                "friend_in_path",
                "modifier",
                "front_arc",
                "split_to",
                "dice",
            ]
        )

    def clean(self):
        data = super().clean()
        shooter, target = data.get("shooter"), data.get("target")
        if shooter and target and int(shooter.split(":")[0]) == int(target) and not data.get("also_under"):
            raise ValidationError("A fighter cannot shoot himself.")
        if target and str(target) in (data.get("split_to") or []):
            raise ValidationError({"split_to": "The target takes the first hit; pick other fighters for the rest."})
        if shooter and data.get("distance") is None:
            data["distance"] = self._band_distance(shooter, data.get("band"))
        return data

    def _band_distance(self, shooter: str, band: str | None) -> int:
        """The distance a range band stands for: the farthest inches of that band (any distance in the band
        gives the same odds); a template weapon needs none."""
        fighter_pk, key, index = shooter.split(":")
        bands = self.rules.range_bands(self.by_pk[int(fighter_pk)], f"{key}:{index}")
        if bands["short"] is None and bands["long"] is None:
            return 0
        if not band:
            raise ValidationError({"band": "Pick Short or Long range, or give the distance."})
        if bands[band] is None and band == "short" and self.initial.get("band") == "short" == self.data.get("band"):
            band = "long"  # the default band, for a weapon with no Short range: its only band
        if bands[band] is None:
            raise ValidationError({"band": f"This weapon has no {RANGE_BANDS[band]}; pick the other band."})
        return bands[band]

    def params(self) -> dict:
        fighter_pk, key, index = self.cleaned_data["shooter"].split(":")
        return {
            "fighter": self.by_pk[int(fighter_pk)],
            "weapon": f"{key}:{index}",
            "target": self.fighter("target"),
            "distance": self.cleaned_data["distance"],
            "cover": self.cleaned_data["cover"],
            "modifiers": self.cleaned_data.get("modifiers") or [],
            "modifier": self.cleaned_data.get("modifier") or 0,
            "in_combat_with": self.cleaned_data.get("in_combat_with") or 0,
            **({"friend_in_path": True} if self.cleaned_data.get("friend_in_path") else {}),
            **({"also_under": True} if self.cleaned_data.get("also_under") else {}),
            **(
                {"split_to": [self.by_pk[int(pk)] for pk in self.cleaned_data["split_to"]]}
                if self.cleaned_data.get("split_to")
                else {}
            ),
            **({"front_arc": True} if self.cleaned_data.get("front_arc") else {}),
        }


class FightForm(ActionForm):
    attacker = forms.ChoiceField(label="Attacker")
    target = forms.ChoiceField(label="Opponent")
    charging = forms.BooleanField(required=False, label="Charging")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        in_play = _in_play(self.fighters)
        self.fields["target"].choices = _fighter_choices(in_play)
        acting = self.acting()
        if self.session.edition == "classic":
            self.fields["attacker"].choices = _fighter_choices(in_play)
            self.fields["higher_up"] = forms.BooleanField(required=False, label="Attacker higher up")
            self.fields["obstacle"] = forms.BooleanField(required=False, label="Attacker charged across an obstacle")
            self.fields["defender_higher_up"] = forms.BooleanField(required=False, label="Opponent higher up")
        else:
            self.fields["attacker"].label = "Attacker and weapon"
            _weapon_field(self, "attacker", in_play, "fights", unarmed=True)
            self.fields["modifier"] = forms.IntegerField(
                min_value=-6,
                max_value=6,
                required=False,
                label="Hit modifier",
                initial=0,
                help_text="Multiple combats: +1 for each friend assisting, -1 for each enemy interfering.",
            )
            self.fields["reaction"] = forms.BooleanField(
                required=False, initial=True, label="Opponent strikes back (Reaction attacks, if still Standing)"
            )
            self.fields["front_arc"] = front_arc_field(initial=True)
            self.fields["charging"].label = "Charging (+1 Attack dice)"
            self.fields["charge_distance"] = forms.IntegerField(
                min_value=0,
                max_value=100,
                required=False,
                label='Charging from (")',
                help_text='Optional: the distance to the enemy, for the chance Movement + D3" reaches.',
            )
            if acting is not None:
                charging = bool(self.data.get("charging") or self.initial.get("charging"))
                self.focus_on(acting, "attacker", "fights", unarmed=True, likely=_charged if charging else _fought)
                self.fields["attacker"].label = f"{acting.name}'s weapon"
                seconds = [(v, label) for v, label in self.fields["attacker"].choices if not v.endswith("::")]
                if len(seconds) > 1:
                    self.fields["second_weapon"] = forms.ChoiceField(
                        choices=[("", "No second weapon"), *seconds],
                        required=False,
                        label="Second weapon",
                        widget=forms.RadioSelect(attrs={"class": "choice-buttons"}),
                        help_text="Two Melee or Sidearm weapons: +1 Attack dice, split between them.",
                    )
        if self.session.edition == "classic":
            # The fight takes each fighter's first two hand weapons the rulebook resolves; say which it leaves out.
            fighters = [acting] if acting else in_play
            _, self.fields["attacker"].left_out = _weapon_choices(self.rules, fighters, "fights", own=bool(acting))
        if self.session.edition == "classic" and acting is not None:
            self.fields["fighter"] = forms.IntegerField(widget=forms.HiddenInput, initial=acting.pk)
            self.initial.setdefault("attacker", acting.pk)
            self.enemy_buttons(acting, _fought if acting.engaged else _charged)
        self.order_fields(
            [
                "fighter",
                "attacker",
                "second_weapon",
                "target",
                "charging",
                "charge_distance",
                "higher_up",
                "obstacle",
                "defender_higher_up",
                "dice",
            ]
        )

    def clean(self):
        data = super().clean()
        attacker, target = data.get("attacker"), data.get("target")
        if attacker and target and int(attacker.split(":")[0]) == int(target):
            raise ValidationError("A fighter cannot fight himself.")
        second = data.get("second_weapon")
        if second and second == attacker:
            raise ValidationError({"second_weapon": "Pick a different weapon, or none."})
        return data

    def charge_from(self) -> int | None:
        """The inches a 2018+ charge must cover, when the player gave them (not part of the fight's query)."""
        return self.cleaned_data.get("charge_distance") if self.cleaned_data.get("charging") else None

    def params(self) -> dict:
        fighter_pk, _, weapon = self.cleaned_data["attacker"].partition(":")
        params = {"fighter": self.by_pk[int(fighter_pk)], "target": self.fighter("target")}
        if weapon and weapon != ":":
            params["weapon"] = weapon
        second = self.cleaned_data.get("second_weapon")
        if second and "weapon" in params:
            params["second_weapon"] = second.partition(":")[2]
        for name in ("charging", "higher_up", "obstacle", "defender_higher_up", "modifier", "reaction", "front_arc"):
            if self.cleaned_data.get(name):
                params[name] = self.cleaned_data[name]
        return params


class CoupDeGraceForm(ActionForm):
    """2018+ Coup de Grace: the fighter and a Prone and Seriously Injured enemy; no dice."""

    attacker = forms.ChoiceField(label="Fighter")
    target = forms.ChoiceField(
        label="Seriously Injured enemy", widget=forms.RadioSelect(attrs={"class": "choice-buttons"})
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["dice"]
        self.fields["attacker"].choices = _fighter_choices(_in_play(self.fighters))
        acting = self.acting()
        down = [f for f in self.fighters if f.condition == Condition.SERIOUSLY_INJURED]
        if acting is not None:
            self.fields["fighter"] = forms.IntegerField(widget=forms.HiddenInput, initial=acting.pk)
            self.fields["attacker"].widget = forms.HiddenInput()
            self.initial.setdefault("attacker", acting.pk)
            down = [f for f in down if f.side != acting.side]
        self.fields["target"].choices = [(f.pk, f.name) for f in down]
        self.fields["target"].widget.choices = self.fields["target"].choices
        if len(down) == 1:
            self.initial.setdefault("target", down[0].pk)

    def clean(self):
        data = super().clean()
        attacker, target = self.fighter("attacker"), self.fighter("target")
        if attacker and target and attacker.side == target.side:
            raise ValidationError("A Coup de Grace is made on an enemy.")
        return data

    def params(self) -> dict:
        return {"fighter": self.fighter("attacker"), "target": self.fighter("target")}


class MultiFightForm(ActionForm):
    fighter = forms.ChoiceField(label="The outnumbered fighter")
    opponents = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple, label="Opponents, in order")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        in_play = _in_play(self.fighters)
        self.fields["fighter"].choices = _fighter_choices(in_play)
        self.fields["opponents"].choices = _fighter_choices(in_play)[1:]
        self.order_fields(["fighter", "opponents", "dice"])

    def clean(self):
        data = super().clean()
        lone, opponents = data.get("fighter"), data.get("opponents") or []
        if lone and lone in opponents:
            raise ValidationError("The outnumbered fighter cannot be his own opponent.")
        if lone and opponents and any(self.by_pk[int(o)].side == self.by_pk[int(lone)].side for o in opponents):
            raise ValidationError("Opponents are enemies of the outnumbered fighter.")
        return data

    def params(self) -> dict:
        return {
            "fighter": self.fighter("fighter"),
            "opponents": [self.by_pk[int(pk)] for pk in self.cleaned_data["opponents"]],
        }


# Which fields each test asks for (beyond the fighter), so a test is a short form.
TEST_FIELDS = {
    "leadership": ("leader_near",),
    "nerve": ("leader_near", "in_cover_unseen", "broken_this_turn", "near_relic"),
    "fear": ("leader_near", "situation"),
    "terror": ("leader_near", "situation"),
    "stupidity": ("leader_near",),
    "frenzy": ("leader_near",),
    "hatred": ("leader_near",),
    "escape_pinning": ("friend_within_2",),
    "recovery": ("assisted",),
    "fall": ("height", "edge", "cause"),
    "jump": ("height", "gap"),
    "rally": ("near_relic",),
    "agility": ("modifier",),
    "bottle": ("side",),
}
# 2018+ tests that ask for more than their classic namesakes (Nerve and Rally: friends within 3").
N18_TEST_FIELDS = {
    "nerve": ("friends_within_3", "near_relic"),
    "rally": ("friends_within_3", "near_relic"),
    "flee": ("near_relic",),
    "blaze": ("step", "friends_within_1", "goes_prone"),
    "chem": ("chem",),
}
OPTION_FIELDS = {
    "chem": forms.ChoiceField(
        choices=list(kit.CHEM_ROLLS.items()),
        widget=forms.RadioSelect(attrs={"class": "choice-buttons"}),
        label="Chem",
    ),
    "step": forms.ChoiceField(
        choices=[
            ("activation", "Activated while ablaze: the burn, then put it out"),
            ("catch", "Just hit by a Blaze weapon: does it catch (4+)?"),
        ],
        initial="activation",
        widget=forms.RadioSelect(attrs={"class": "choice-buttons"}),
        label="Blaze",
    ),
    "friends_within_1": forms.IntegerField(
        min_value=0, max_value=10, required=False, initial=0, label='Other Active friends within 1": +1 each'
    ),
    "goes_prone": forms.BooleanField(required=False, label="After moving, drops Prone and Pinned (+2)"),
    "friends_within_3": forms.IntegerField(
        min_value=0,
        max_value=20,
        required=False,
        initial=0,
        label='Friends within 3" (not Broken, not Seriously Injured): +1 each',
    ),
    "leader_near": forms.BooleanField(required=False, label='Leader within 6" (and not down or broken)'),
    "in_cover_unseen": forms.BooleanField(required=False, label="In cover and out of enemy sight", initial=True),
    "broken_this_turn": forms.BooleanField(required=False, label="Broke this turn"),
    "near_relic": forms.BooleanField(required=False, label="Within 6\" of the gang's own relic (+2)"),
    "friend_within_2": forms.BooleanField(required=False, label='A friend within 2" (not a juve, down or broken)'),
    "assisted": forms.BooleanField(required=False, label='Assisted by a Standing, Active friend within 1"'),
    "height": forms.IntegerField(min_value=1, max_value=100, label='Height (")', initial=3),
    "gap": forms.IntegerField(
        min_value=1,
        max_value=12,
        required=False,
        label='Gap to jump across (")',
        help_text="Leave empty for a jump down (worked out as a fall).",
    ),
    "modifier": forms.IntegerField(min_value=-5, max_value=5, required=False, label="Modifier", initial=0),
}


class TestForm(ActionForm):
    """One test; ``test`` is fixed by the page (a prompt or the test menu), so only its fields show."""

    fighter = forms.ChoiceField(label="Fighter")

    def __init__(self, *args, test: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.test = test
        wanted = (N18_TEST_FIELDS if self.session.edition == "n18" else {}).get(test) or TEST_FIELDS.get(test, ())
        for name in wanted:
            if name in OPTION_FIELDS:
                self.fields[name] = copy.deepcopy(OPTION_FIELDS[name])
        if test == "bottle":
            del self.fields["fighter"]
            names = {s: self.session.gang(s).name for s in (Side.ATTACKER, Side.DEFENDER)}
            self.fields["side"] = forms.ChoiceField(choices=list(names.items()), label="Gang")
        elif test == "reload":
            del self.fields["fighter"]
            choices, _ = _weapon_choices(self.rules, _in_play(self.fighters), "shoots")
            failed = [(v, label) for v, label in choices if label.endswith(" — failed")]
            self.fields["weapon"] = forms.ChoiceField(choices=[("", "—"), *failed], label="Fighter and weapon")
        else:
            self.fields["fighter"].choices = _fighter_choices(_in_play(self.fighters))
        if "situation" in wanted:
            situations = classic.TERROR_SITUATIONS if test == "terror" else classic.FEAR_SITUATIONS
            self.fields["situation"] = forms.ChoiceField(choices=list(situations.items()))
        if "edge" in wanted and self.session.edition == "classic":
            self.fields["edge"] = forms.ChoiceField(choices=list(classic.FALL_EDGES.items()), required=False)
        if "cause" in wanted and self.session.edition == "n18":
            self.fields["cause"] = forms.ChoiceField(choices=list(n18.FALL_CAUSES.items()))
        self.order_fields(["side", "fighter", "weapon", *wanted, "dice"])

    def clean(self):
        data = super().clean()
        fighter = self.fighter("fighter") if "fighter" in self.fields else None
        if (
            self.test == "recovery"
            and fighter
            and fighter.condition not in (Condition.DOWN, Condition.SERIOUSLY_INJURED)
        ):
            raise ValidationError(f"{fighter.name} is not down: only a fighter who is down rolls to recover.")
        return data

    def params(self) -> dict:
        params = {"test": self.test}
        for name, value in self.cleaned_data.items():
            if name not in ("dice", "fighter", "weapon"):
                params[name] = value
        if "fighter" in self.fields:
            params["fighter"] = self.fighter("fighter")
        if "weapon" in self.fields:
            fighter_pk, key, index = self.cleaned_data["weapon"].split(":")
            params.update(fighter=self.by_pk[int(fighter_pk)], weapon=f"{key}:{index}")
        return params


class ScenarioForm(ActionForm):
    fighter = forms.ChoiceField(label="Fighter")

    def __init__(self, *args, action: str, session, **kwargs):
        super().__init__(*args, session=session, **kwargs)
        self.action = action
        if action == "ammo-cache":
            del self.fields["fighter"]
            self.fields["weapon"] = forms.ChoiceField(label="Fighter and weapon")
            _weapon_field(self, "weapon", _in_play(self.fighters), "shoots")
        else:
            able = [f for f in _in_play(self.fighters) if self.rules is classic or n18.may_take(session, action, f)]
            self.fields["fighter"].choices = _fighter_choices(able)
        if action in ("defile-relic", "recover-cache"):
            del self.fields["dice"]
        if action == "destroy-cache":
            self.fields["friends_near"] = forms.IntegerField(
                min_value=0, max_value=6, initial=0, label='Friends within 2" (+1 each)'
            )

    def params(self) -> dict:
        if self.action == "ammo-cache":
            fighter_pk, key, index = self.cleaned_data["weapon"].split(":")
            return {"action": self.action, "fighter": self.by_pk[int(fighter_pk)], "weapon": f"{key}:{index}"}
        params = {"action": self.action, "fighter": self.fighter("fighter")}
        if "friends_near" in self.cleaned_data:
            params["friends_near"] = self.cleaned_data["friends_near"]
        return params


ACTION_FORMS = {"shoot": ShootForm, "fight": FightForm, "multi-fight": MultiFightForm, "coup-de-grace": CoupDeGraceForm}


class ReinforceForm(BattleGameForm):
    side = forms.ChoiceField(label="Gang")
    count = forms.IntegerField(
        min_value=1,
        max_value=10,
        required=False,
        label="How many",
        help_text="Leave empty to roll the scenario's number here (Border Dispute: D3).",
    )

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [(s, session.gang(s).name) for s in (Side.ATTACKER, Side.DEFENDER)]


class GroupForm(BattleGameForm):
    """2018+ Group Activation: the Ready friends a Leader or Champion brings along, nominated before any of them acts
    (``battles.services.group_activate`` checks the rules)."""

    members = forms.TypedMultipleChoiceField(
        coerce=int, widget=forms.CheckboxSelectMultiple(attrs={"class": "choice-buttons"}), label='Friends within 3"'
    )

    def __init__(self, *args, leader: BattleFighter, fighters: list[BattleFighter], **kwargs):
        super().__init__(*args, **kwargs)
        most = leader.profile.get("group_activation", 0)
        friends = [
            f for f in fighters if f.side == leader.side and f.pk != leader.pk and f.ready and not f.out_of_action
        ]
        members = self.fields["members"]
        members.choices = [(f.pk, f.name) for f in friends]
        members.help_text = f"Up to {most}, each Ready; they activate one after another after {leader.name}."


class FighterSetForm(BattleGameForm):
    """One state set by hand: ``field`` and ``value`` (``"1"``/``"0"`` or a condition)."""

    field = forms.CharField(max_length=20)
    value = forms.CharField(max_length=20)

    def clean_value(self):
        value = self.cleaned_data["value"]
        return {"1": True, "0": False}.get(value, value)


class BattleEndForm(BattleGameForm):
    """The winner and notes; for a campaign battle also who was captured (among the fighters Out of Action)
    and, in a Rescue Mission, which captives were freed: the report the campaign's record is checked from."""

    winner = forms.ChoiceField(required=False, label="Winner", widget=forms.RadioSelect)
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), label="Notes for the report")

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [
            (Side.ATTACKER, session.gang_a.name),
            (Side.DEFENDER, session.gang_b.name),
            ("", "A draw"),
        ]
        self.out_of_action, self.captives = [], []
        if session.campaign_battle_id:
            from campaigns.selectors import rescue_captives

            fled = set(session.facts.get("fighters_fled", []))
            self.out_of_action = [
                f
                for f in session.fighters.all()
                if f.condition == Condition.OUT_OF_ACTION and f.fighter_id and f.pk not in fled
            ]
            for f in self.out_of_action:
                self.fields[f"captured-{f.pk}"] = forms.BooleanField(
                    required=False,
                    label=f"{f.name} ({session.gang(f.side).name}) captured by {session.gang(other_side(f.side)).name}",
                )
            self.captives = rescue_captives(session.campaign_battle)
            rescuers = [("", "no fighter: broke free, or the captors fled")] + [
                (str(f.fighter_id), f.name) for f in session.fighters.all() if f.side == Side.ATTACKER and f.fighter_id
            ]
            for captive in self.captives:
                self.fields[f"freed-{captive.pk}"] = forms.BooleanField(
                    required=False, label=f"{captive.name} freed and taken flight"
                )
                # Who freed them earns D3 XP (2023 Core Rulebook, Rescue Mission: Rewards).
                self.fields[f"freed_by-{captive.pk}"] = forms.ChoiceField(
                    required=False, choices=rescuers, label=f"{captive.name} freed by"
                )

    @property
    def capture_fields(self) -> list:
        return [self[f"captured-{f.pk}"] for f in self.out_of_action]

    @property
    def freed_fields(self) -> list:
        return [self[f"freed-{c.pk}"] for c in self.captives]

    @property
    def freer_fields(self) -> list:
        return [self[f"freed_by-{c.pk}"] for c in self.captives]

    def clean(self):
        data = super().clean()
        data["captured"] = [f.fighter_id for f in self.out_of_action if data.pop(f"captured-{f.pk}", False)]
        data["captives_freed"] = [c.pk for c in self.captives if data.pop(f"freed-{c.pk}", False)]
        data["freed_by"] = {}
        for captive in self.captives:
            freer = data.pop(f"freed_by-{captive.pk}", "")
            if freer and captive.pk not in data["captives_freed"]:
                self.add_error(f"freed_by-{captive.pk}", f"{captive.name} was not freed: tick them, or say nobody.")
            elif freer:
                data["freed_by"][captive.pk] = int(freer)
        return data
