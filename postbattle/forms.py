"""The step form: how the dice come (rolled by the server or entered from the table) and the step's
own choices, built from the engine's :class:`~postbattle.engine.Field` list."""

from __future__ import annotations

from django import forms

from core.forms import GameForm
from postbattle.engine import Field
from rulebook.dice import DiceSource, RandomDice, ScriptedDice, parse_dice
from rulebook.errors import RulesInputError


class SequenceGameForm(GameForm):
    changed = "the sequence"  # a stale choice says what changed (core.forms.GameWords)


class StepForm(SequenceGameForm):
    mode = forms.ChoiceField(
        choices=[("roll", "Roll the dice for me"), ("enter", "Enter the dice we rolled at the table")],
        widget=forms.RadioSelect,
        initial="roll",
    )
    step = forms.IntegerField(min_value=0, widget=forms.HiddenInput, required=False)
    dice = forms.CharField(
        required=False, max_length=400, help_text="In the order asked, separated by spaces: e.g. 4 6 1 3."
    )

    def __init__(self, *args, fields: list[Field] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.choice_names = [f.name for f in fields]
        for spec in fields:
            if spec.kind == "select":
                field = forms.ChoiceField(choices=list(spec.options), required=False)
            elif spec.kind == "checkbox":
                field = forms.BooleanField(required=False)
            elif spec.kind == "number":
                field = forms.IntegerField(min_value=0, max_value=10000, required=False)
            else:
                field = forms.CharField(max_length=80, required=False)
            field.label, field.initial = spec.label, spec.initial
            self.fields[spec.name] = field

    def clean(self):
        data = super().clean()
        data["faces"] = []
        if data.get("mode") == "enter" and (data.get("dice") or "").strip():
            try:
                data["faces"] = parse_dice(data.get("dice") or "")
            except RulesInputError as error:
                self.add_error("dice", error.message)
        return data

    @property
    def entered(self) -> bool:
        return self.cleaned_data["mode"] == "enter"

    def dice_source(self) -> DiceSource:
        return ScriptedDice(self.cleaned_data["faces"]) if self.entered else RandomDice()

    def choices(self) -> dict:
        return {name: self.cleaned_data.get(name) for name in self.choice_names}


class SetAsideForm(SequenceGameForm):
    """An arbitrator's reason for setting a step's dice aside (kept in the sequence's history)."""

    reason = forms.CharField(max_length=300, label="Reason the dice are set aside")


class RevertForm(SequenceGameForm):
    """An arbitrator's reason for reverting an applied sequence (an entry of the campaign log)."""

    reason = forms.CharField(max_length=300, label="Reason to revert (arbitrator)")
