"""Logins that resist guessing (django-axes, README.md "Accounts"): the client's address, a growing wait
between failed logins for one username from one address, and axes's lockout of that username from that
address, and of the address for every username.

The wait is a rate limit, never a sleep (issue 26 #4): an attempt that comes too soon is answered 429 at once
without checking the password, so a guesser is slowed and no worker is held. A person who mistypes once or
twice barely notices it. Locking a username only together with the address keeps a guesser elsewhere from
locking its owner out (issue 26 #5).
"""

from __future__ import annotations

import hashlib
import math
import time

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.dispatch import receiver
from django.shortcuts import render
from ipware import get_client_ip


def client_ip(request) -> str | None:
    """The client's address, read by django-ipware: with no proxy configured (``PROXY_COUNT`` 0 and no
    ``TRUSTED_PROXIES``, the default) the socket's, since any ``X-Forwarded-For`` is then the client's own claim;
    behind proxies, the address the outermost of them saw (the right-most entries are the proxies' own)."""
    count, trusted = settings.PROXY_COUNT, settings.TRUSTED_PROXIES
    if count:
        address, _ = get_client_ip(
            request, proxy_order="right-most", proxy_count=count, request_header_order=["HTTP_X_FORWARDED_FOR"]
        )
        if address:
            return address
    elif trusted:
        # The chain must end with the trusted proxies; the entry left of them is the client.
        address, _ = get_client_ip(request, proxy_trusted_ips=trusted, request_header_order=["HTTP_X_FORWARDED_FOR"])
        if address:
            return address
        # A chain with entries the client added before ours: the right-most that is not a trusted proxy is the
        # address our proxy saw (never the proxy itself, which would merge every client into one).
        hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
        outside = [h for h in hops if not any(h.startswith(prefix) for prefix in trusted)]
        if outside:
            return outside[-1]
    return request.META.get("REMOTE_ADDR")


def slowdown_seconds(failures: int) -> float:
    """0 after the first failure, then ``LOGIN_SLOWDOWN_STEP`` more for each, at most ``LOGIN_SLOWDOWN_MOST``."""
    return min(settings.LOGIN_SLOWDOWN_MOST, settings.LOGIN_SLOWDOWN_STEP * max(0, failures - 1))


def now() -> float:
    return time.time()


def _wait_key(request, credentials=None) -> str:
    username = attempted_username(request, credentials) or ""
    return "login-wait:" + hashlib.sha256(f"{username}\n{client_ip(request)}".encode()).hexdigest()


@receiver(user_login_failed, dispatch_uid="core.accounts.slow_down_failed_logins")
def slow_down_failed_logins(sender, credentials, request=None, **kwargs):
    """After axes has counted this failure (its receiver is connected first, when the axes app loads): the time
    before which the next try for this username from this address is answered 429 (a rate limit, no sleep)."""
    if request is None or not settings.AXES_ENABLED:
        return
    seconds = slowdown_seconds(AxesProxyHandler.get_failures(request, credentials))
    if seconds:
        cache.set(_wait_key(request, credentials), now() + seconds, timeout=math.ceil(seconds) + 1)


def login_wait(request) -> float:
    """Seconds this login attempt must still wait (0: it may try)."""
    until = cache.get(_wait_key(request))
    return max(0.0, until - now()) if until else 0.0


class LoginRateLimitMiddleware:
    """Answers a login that comes before its wait is over with 429 at once, before the password is checked."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method == "POST" and request.path_info in _login_paths():
            wait = login_wait(request)
            if wait:
                seconds = math.ceil(wait)
                response = render(request, "registration/login_wait.html", {"seconds": seconds}, status=429)
                response["Retry-After"] = str(seconds)
                return response
        return self.get_response(request)


def _login_paths() -> set[str]:
    from django.urls import reverse

    return {reverse("login"), reverse("admin:login")}


def locked_out(request, original_response=None, credentials=None):
    """The lockout page (status 429) that says how long the lock lasts and how to get back in."""
    cool_off = get_cool_off(request)
    context = {
        "failure_limit": get_failure_limit(request, credentials),
        "username": get_client_username(request, credentials) or "",
        "minutes": round(cool_off.total_seconds() / 60) if cool_off else None,
    }
    return render(request, "registration/locked_out.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)


def attempted_username(request, credentials=None) -> str | None:
    """The username a login tried, cut to what a username may be: axes stores it in a 255-character column,
    and a guesser may send any length (PostgreSQL refuses the overflow; Django's usernames stop at 150)."""
    field = settings.AXES_USERNAME_FORM_FIELD
    value = (credentials or {}).get(field) if credentials else request.POST.get(field)
    return str(value)[:150] if value is not None else None


def send_verification(request, user) -> None:
    """Mail the link that opens a new account (signup with ``SIGNUP_VERIFIES_EMAIL``)."""
    from django.contrib.auth.tokens import default_token_generator
    from django.contrib.sites.shortcuts import get_current_site
    from django.core.mail import send_mail
    from django.template.loader import render_to_string
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    context = {
        "user": user,
        "protocol": "https" if request.is_secure() else "http",
        "domain": get_current_site(request).domain,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user),
    }
    body = render_to_string("registration/signup_verify_email.txt", context)
    send_mail("Open your Underhive Ledger account", body, None, [user.email])


def verified_user(uidb64: str, token: str):
    """The not yet opened account the link names, if its token is good; else None."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.http import urlsafe_base64_decode

    from rulebook.numbers import whole_number

    try:
        pk = whole_number(urlsafe_base64_decode(uidb64).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    user = get_user_model().objects.filter(pk=pk, is_active=False).first() if pk and 0 < pk < 2**63 else None
    return user if user is not None and default_token_generator.check_token(user, token) else None
