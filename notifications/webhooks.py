"""A campaign's Discord webhook: which addresses are allowed, and the one POST that sends an event.

Off DEBUG a webhook must be https and every address its host resolves to must be public: the server must not
be made to post into its own network (a loopback or private address, the cloud's metadata address). The check
runs when the arbitrator saves the address and again before each send (a name can resolve elsewhere later).
In DEBUG (``make run``, the tests' local receiver) http and local addresses are allowed.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError

TIMEOUT_SECONDS = 5
# Discord refuses a message longer than this.
DISCORD_LIMIT = 2000


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect could lead to an address the check refused: a webhook that redirects fails instead."""

    def redirect_request(self, *args, **kwargs):
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


class SendError(Exception):
    """A send that failed: the worker retries it later, unless ``final`` (retrying cannot help)."""

    def __init__(self, message: str, *, final: bool = False):
        super().__init__(message)
        self.final = final


def check_url(url: str) -> str:
    """The address, or a ValidationError saying in plain words why it is refused."""
    parts = urlsplit(url.strip())
    allowed = ("https", "http") if settings.DEBUG else ("https",)
    if parts.scheme not in allowed or not parts.hostname:
        raise ValidationError("A webhook address starts with https:// and names a host.")
    if settings.DEBUG:
        return url.strip()
    try:
        infos = socket.getaddrinfo(parts.hostname, parts.port or 443, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        raise ValidationError(f"{parts.hostname} does not resolve to an address.") from None
    for info in infos:
        address = ipaddress.ip_address(info[4][0].split("%")[0])
        if not address.is_global:
            raise ValidationError(f"{parts.hostname} resolves to a private or local address; use a public one.")
    return url.strip()


def post(url: str, text: str) -> None:
    """POST ``text`` as a Discord message; SendError on a refused address, a timeout or a non-2xx answer."""
    try:
        check_url(url)
    except ValidationError as error:
        raise SendError(error.messages[0]) from None
    body = json.dumps({"content": text[:DISCORD_LIMIT], "allowed_mentions": {"parse": []}}).encode()
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={"Content-Type": "application/json", "User-Agent": "UnderhiveLedger (notifications)"},
    )
    try:
        with _OPENER.open(request, timeout=TIMEOUT_SECONDS) as response:
            response.read(1024)
    except urllib.error.HTTPError as error:
        raise SendError(f"The webhook answered {error.code} {error.reason}") from None
    except (urllib.error.URLError, OSError) as error:
        raise SendError(f"The webhook did not answer: {getattr(error, 'reason', error)}") from None
