"""How exact probabilities are written out: a float and its fraction side by side."""

from __future__ import annotations

from fractions import Fraction


def as_float(p: Fraction) -> float:
    return round(float(p), 10)


def prob(name: str, p: Fraction) -> dict:
    """``prob("p_hit", Fraction(1, 3))`` → ``{"p_hit": 0.3333333333, "p_hit_exact": "1/3"}``."""
    return {name: as_float(p), f"{name}_exact": str(Fraction(p))}


def dist(name: str, distribution: dict) -> dict:
    """A distribution keyed by outcome, as ``{name: {...floats}, name_exact: {...fractions}}``."""
    keys = sorted(
        distribution, key=lambda k: (not isinstance(k, (int, float)), k if isinstance(k, (int, float)) else str(k))
    )
    return {
        name: {str(k): as_float(distribution[k]) for k in keys},
        f"{name}_exact": {str(k): str(Fraction(distribution[k])) for k in keys},
    }
