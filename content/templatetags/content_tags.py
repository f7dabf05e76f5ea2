"""Filters that print profile numbers the way the books do."""

import re

from django import template
from django.utils.safestring import mark_safe

from content.printed import PROFILE_HEADINGS

register = template.Library()


@register.filter
def signed(value) -> str:
    """+1, -2, or a dash for none or zero (to-hit, Accuracy, save modifier, AP)."""
    if value in (None, "", 0):
        return "–"
    return f"{int(value):+d}"


@register.filter
def inches(value) -> str:
    """8 → 8" (a number of inches needs no escaping)."""
    return "–" if value in (None, "") else mark_safe(f'{int(value)}"')


@register.filter
def share(fraction: str) -> str:
    """A composition share in words: "1/2" → "half"."""
    return {"1/2": "half", "1/3": "a third", "1/4": "a quarter"}.get(fraction, fraction)


# The data's notes mix what a player needs ("takes two weapon slots") with what its maintainers must still do
# ("check against a printed book", "CHECK", "Spot-checked against G1"): the pages print only the former.
MAINTAINERS_WORDS = re.compile(r"check", re.IGNORECASE)


@register.filter
def player_notes(notes: str) -> str:
    """A record's ``notes`` without the sentences meant for the data's maintainers (those stay in the files)."""
    sentences = re.split(r"(?<=[.;])\s+", notes or "")
    return " ".join(s for s in sentences if s and not MAINTAINERS_WORDS.search(s)).strip()


@register.filter
def composition_rule(rule: dict) -> str:
    """A composition rule in words: the data's own ``notes`` when it has them (empty notes: the rule is said
    by the one before, as "exactly one Leader" says both of its rules), else a sentence from its kind."""
    if "notes" in rule:
        return rule["notes"]
    who = ", ".join(rule.get("categories") or rule.get("types") or ())
    kind = rule.get("kind")
    if kind == "max_share":
        return f"No more than {share(rule['share'])} of the gang may be {who}."
    if kind == "min_share":
        return f"At least {share(rule['share'])} of the gang must be {who}."
    if kind == "max_count":
        return f"At most {rule['count']} {who}."
    if kind == "min_count":
        return f"At least {rule['count']} {who}."
    if kind == "max_per":
        per = ", ".join(rule.get("per_categories") or rule.get("per_types") or ())
        return f"At most {rule.get('at_least') or 0}, or one {who} for every {rule['per']} {per}."
    others = ", ".join(rule.get("than_categories") or rule.get("than_types") or ())
    return f"Never fewer {who} than {others}."


@register.simple_tag
def profile_headings(edition: str) -> tuple:
    """The profile headings of the edition: (heading, meaning, sub-columns), see content.printed."""
    return PROFILE_HEADINGS[edition]
