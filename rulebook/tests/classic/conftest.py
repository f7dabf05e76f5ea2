"""Shared helpers for the classic rules tests."""

import pytest

from rulebook.dice import DiceSource


class DrawnDice(DiceSource):
    """Faces chosen by hypothesis, die by die, so every face of every die gets explored.

    Replaying ``faces`` through a ScriptedDice gives the same resolution.
    """

    def __init__(self, data) -> None:
        super().__init__()
        self._data = data
        self.faces: list = []

    def _face(self, die, purpose):
        from hypothesis import strategies as st

        face = self._data.draw(st.sampled_from(die.faces), label=f"{die.name} for {purpose}")
        self.faces.append(face)
        return face


@pytest.fixture(scope="session")
def drawn_dice():
    """``drawn_dice(data)`` for a test given ``st.data()``."""
    return DrawnDice
