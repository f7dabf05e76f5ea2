import pytest

from rulebook.numbers import MAX_DIGITS, json_number, whole_number


@pytest.mark.parametrize(("text", "number"), [("4", 4), (" -2 ", -2), ("007", 7), ("9" * 30, int("9" * 30))])
def test_whole_numbers_are_plain_ascii_digits(text, number):
    assert whole_number(text) == number


@pytest.mark.parametrize("text", ["²", "①", "٣", "1_000", "4.0", "+4", "", "-", "4 3", None, 4, "ⅷ"])
def test_anything_else_is_not_a_whole_number(text):
    assert whole_number(text) is None


def test_a_number_past_the_bound_is_not_a_number():
    """Issue 26 #8: ``int()`` raises past 4,300 digits; a bounded reader says "not a number" instead."""
    assert whole_number("9" * MAX_DIGITS) == int("9" * MAX_DIGITS)
    assert whole_number("9" * (MAX_DIGITS + 1)) is None
    assert whole_number("-" + "9" * 4400) is None
    assert repr(json_number("9" * 4400)) == "a number of 4400 digits"
