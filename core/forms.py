from django import forms
from django.contrib.auth.forms import UserCreationForm

from rulebook.dice import parse_dice
from rulebook.errors import RulesInputError


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
