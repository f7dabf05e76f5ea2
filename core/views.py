from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core import health
from core.forms import SignUpForm


def home(request):
    return render(request, "core/home.html")


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
    if request.user.is_authenticated:
        return redirect("home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, f"Welcome to the underhive, {user.username}.")
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})
