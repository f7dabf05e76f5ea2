from django import forms
from django.contrib.auth.forms import UserCreationForm

from rulebook.dice import parse_dice
from rulebook.errors import RulesInputError


class GameForm(forms.Form):
    """A form whose refusals are in the game's words: a stale or forged choice (the page drawn before the roster or
    the Stash changed) says so and asks again, never Django's "Select a valid choice. 148 is not one of the
    available choices." """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.ChoiceField):
                field.error_messages["invalid_choice"] = (
                    "That choice is not on offer now (the roster or the Stash changed since this page was drawn): "
                    "choose again from the list."
                )


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class EnteredDiceField(forms.CharField):
    """Dice rolled at the table, typed in order (``4 3 6``); empty cleans to None: the server rolls.

    Each value is checked against the faces of the die it will be used for when the rules read it;
    here only the shape is (``rulebook.dice.parse_dice``), with its message on the field.
    """

    def __init__(self, **kwargs):
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def clean(self, value):
        text = super().clean(value)
        if not text:
            return None
        try:
            return parse_dice(text)
        except RulesInputError as error:
            raise forms.ValidationError(error.message) from None
