import pytest

from rulebook.numbers import whole_number


@pytest.mark.parametrize(("text", "number"), [("4", 4), (" -2 ", -2), ("007", 7), ("9" * 30, int("9" * 30))])
def test_whole_numbers_are_plain_ascii_digits(text, number):
    assert whole_number(text) == number


@pytest.mark.parametrize("text", ["²", "①", "٣", "1_000", "4.0", "+4", "", "-", "4 3", None, 4, "ⅷ"])
def test_anything_else_is_not_a_whole_number(text):
    assert whole_number(text) is None
