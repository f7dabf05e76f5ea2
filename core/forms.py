from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm

from rulebook.dice import parse_dice
from rulebook.errors import RulesInputError


class GameWords:
    """Refusals in the game's words for a form: a stale or forged choice (the page drawn before ``changed``
    changed) says so and asks again, never Django's "Select a valid choice. 148 is not one of the available
    choices." Set when the form is cleaned, so fields a form adds in its ``__init__`` get it too."""

    changed = "the roster or the Stash"

    def full_clean(self):
        stale = (
            f"That choice is not on offer now ({self.changed} changed since this page was drawn): "
            "choose again from the list."
        )
        for field in self.fields.values():
            if isinstance(field, forms.ChoiceField):
                field.error_messages["invalid_choice"] = field.error_messages["invalid_pk_value"] = stale
        super().full_clean()


class GameForm(GameWords, forms.Form):
    """A form in the game's words (:class:`GameWords`)."""


class GameModelForm(GameWords, forms.ModelForm):
    """A model form in the game's words (:class:`GameWords`)."""


class SignUpForm(UserCreationForm):
    """A new account: a username, a password and an email address no other account has (in any letter case),
    so the password reset reaches one person and one person cannot open accounts without end (issue 26 #15)."""

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].help_text = "For the password reset; no other account may use it."

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account already uses that email address. Forgot its password? Reset it.")
        return email


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
