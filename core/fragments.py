"""Cached fragments that hold forms (``{% tokencache %}``, core.templatetags.fragments).

A fragment with forms in it differs from one request to the next only by its tokens: the CSRF token (a fresh mask
of the same secret each time) and the one-time tokens of forms a second tap must not repeat (a fresh value for
each form drawn, battles.services.state). Such a fragment is drawn once with a placeholder where each token goes
and kept in the cache; each request puts its own tokens in (:func:`fill`), a fresh one-time token for each form.
"""

from __future__ import annotations

import uuid

# Letters only, so the tags that draw the hidden inputs leave them as they are (no escaping).
CSRF_PLACEHOLDER = "csrftokenplaceholderxq"
ONE_TIME_PLACEHOLDER = "onetimetokenplaceholderxq"
#: In a template's context while a cached fragment is drawn: tags that draw a one-time token draw the placeholder.
DRAWING_FOR_CACHE = "drawing_fragment_for_cache"


def one_time_token() -> str:
    """A fresh one-time token for a form (32 hex digits)."""
    return uuid.uuid4().hex


def fill(html: str, csrf_token: str) -> str:
    """``html`` drawn with placeholders, with this request's CSRF token and a fresh one-time token in each form.

    The tokens of one drawing share a random stem of 96 bits and are told apart by a counter: as unique as a
    fresh ``uuid4`` each (no two forms of a page, nor of two pages, share one), for one draw of randomness a
    request rather than one a form (a battle page holds a hundred and more)."""
    html = html.replace(CSRF_PLACEHOLDER, csrf_token)
    parts = html.split(ONE_TIME_PLACEHOLDER)
    if len(parts) == 1:
        return html
    stem = one_time_token()[:24]
    filled = [parts[0]]
    for number, part in enumerate(parts[1:]):
        filled += (f"{stem}{number:08x}", part)
    return "".join(filled)
