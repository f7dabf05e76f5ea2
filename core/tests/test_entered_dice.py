import pytest
from django import forms

from core.forms import EnteredDiceField


class RollForm(forms.Form):
    dice = EnteredDiceField()


@pytest.mark.parametrize(("typed", "dice"), [("", None), ("  ", None), ("4 3 6", [4, 3, 6]), ("2,jam", [2, "jam"])])
def test_entered_dice_are_read_in_order_and_empty_means_the_server_rolls(typed, dice):
    form = RollForm({"dice": typed})
    assert form.is_valid()
    assert form.cleaned_data["dice"] == dice


def test_entered_dice_that_cannot_be_read_are_refused_on_the_field():
    form = RollForm({"dice": ", ,"})
    assert not form.is_valid()
    assert "at least one die" in form.errors["dice"][0]


@pytest.mark.parametrize("typed", ["²", "4 ① 3", "٣", "1_0", "4.5", "🙂"])
def test_entered_dice_refuse_characters_that_look_like_digits(typed):
    """``str.isdigit()`` accepts ``²`` and ``①`` but ``int()`` refuses them: a field error, never a crash."""
    form = RollForm({"dice": typed})
    assert not form.is_valid()
    assert "is not a die" in form.errors["dice"][0]
