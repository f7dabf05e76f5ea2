"""Logins that resist guessing (django-axes, README.md "Accounts"): the client's address, and a
growing pause after each failed login before axes locks the username and the address out.

The pause makes a password guesser slow long before the lockout stops it, while a person who
mistypes once or twice barely notices it.
"""

from __future__ import annotations

import time

from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.dispatch import receiver
from django.shortcuts import render


def client_ip(request) -> str | None:
    """The address the outermost of ``PROXY_COUNT`` trusted proxies saw (``X-Forwarded-For``), else the socket's.

    Only the right-most entries are the proxies' own; anything left of them the client can forge.
    """
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    if settings.PROXY_COUNT and len(hops) >= settings.PROXY_COUNT:
        return hops[-settings.PROXY_COUNT]
    return request.META.get("REMOTE_ADDR")


def slowdown_seconds(failures: int) -> float:
    """0 after the first failure, then ``LOGIN_SLOWDOWN_STEP`` more for each, at most ``LOGIN_SLOWDOWN_MOST``."""
    return min(settings.LOGIN_SLOWDOWN_MOST, settings.LOGIN_SLOWDOWN_STEP * max(0, failures - 1))


def pause(seconds: float) -> None:
    time.sleep(seconds)


@receiver(user_login_failed, dispatch_uid="core.accounts.slow_down_failed_logins")
def slow_down_failed_logins(sender, credentials, request=None, **kwargs):
    """Runs after axes has counted this failure (its receiver is connected first, when the axes app loads)."""
    if request is None or not settings.AXES_ENABLED:
        return
    seconds = slowdown_seconds(AxesProxyHandler.get_failures(request, credentials))
    if seconds:
        pause(seconds)


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
