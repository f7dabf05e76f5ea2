"""Reading an uploaded JSON file (a gang export, a YakTribe gang, a campaign export) into Python values.

What can go wrong before the file's own shape is checked is the same for each: too large, not UTF-8 text, not
JSON or cut short, nested too deep or a number too long for the parser, or ``NaN``/``Infinity``, which JSON does
not allow. Each is a ``ValidationError`` in plain words that starts with what the file is not.
"""

from __future__ import annotations

import json

from django.core.exceptions import ValidationError


def read_json_file(raw: bytes, *, max_bytes: int, too_large: str, not_what: str):
    """The file's JSON values; ``too_large`` is the whole message for a file over ``max_bytes``, and ``not_what``
    (e.g. "This is not a gang export") begins the others."""
    if len(raw) > max_bytes:
        raise ValidationError([too_large])
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ValidationError([f"{not_what}: it is not text (UTF-8)."]) from None
    except json.JSONDecodeError:
        raise ValidationError([f"{not_what}: it is not JSON, or it is cut short."]) from None
    except (RecursionError, ValueError):  # nesting too deep for the parser, a number too long to read
        raise ValidationError([f"{not_what}: its values are nested too deep or too long to read."]) from None


def _no_constant(name: str):
    raise ValueError(f"{name} is not a number")
