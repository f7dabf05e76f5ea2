from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core import accounts, health
from core.forms import SignUpForm


@require_GET
@never_cache
def healthz(request):
    """For load balancers: 200 while the database answers, 503 otherwise. "ok" when every part answers; else one
    line each for the database, the cache and the worker, with the reason of each that does not (core.health)."""
    serving, parts = health.report()
    if not any(parts.values()):
        return HttpResponse("ok\n", content_type="text/plain")
    lines = "".join(f"{name}: {reason or 'ok'}\n" for name, reason in parts.items())
    return HttpResponse(lines, status=200 if serving else 503, content_type="text/plain")


def signup(request):
    """Open an account. When the site sends mail (``SIGNUP_VERIFIES_EMAIL``, settings) the account opens only
    from the link mailed to its address; without mail it opens at once, as there would be no way to verify."""
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save(commit=False)
        user.is_active = not settings.SIGNUP_VERIFIES_EMAIL
        try:
            with transaction.atomic():
                user.save()
        except IntegrityError:
            # Another signup took the username or the address between the form's check and this save: the
            # database's unique indexes (core/migrations/0001) decide, and the form says so.
            form.add_error(None, "Another account was just opened with that username or email address; choose again.")
            return render(request, "registration/signup.html", {"form": form})
        if settings.SIGNUP_VERIFIES_EMAIL:
            accounts.send_verification(request, user)
            return render(request, "registration/signup_check_email.html", {"email": user.email})
        return _welcome(request, user)
    return render(request, "registration/signup.html", {"form": form})


def _welcome(request, user):
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, f"Welcome to the underhive, {user.username}.")
    return redirect("home")


@require_GET
def signup_verify(request, uidb64: str, token: str):
    """The link mailed at signup: opens the account once (the token is Django's password-reset one, which a
    login spends) and logs in."""
    user = accounts.verified_user(uidb64, token)
    if user is None:
        return render(request, "registration/signup_verify_failed.html", status=400)
    user.is_active = True
    user.save(update_fields=["is_active"])
    return _welcome(request, user)
