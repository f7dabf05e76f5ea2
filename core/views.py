from django.contrib import messages
from django.contrib.auth import login
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from core.forms import SignUpForm
from core.todo import home_todos


def home(request):
    """The front page; logged in, the person's to-do list across their campaigns and gangs."""
    todos = home_todos(request.user) if request.user.is_authenticated else None
    return render(request, "core/home.html", {"todos": todos})


@require_GET
@never_cache
def healthz(request):
    """200 when the database answers a query, 503 otherwise (for load balancers)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return HttpResponse("database unavailable\n", status=503, content_type="text/plain")
    return HttpResponse("ok\n", content_type="text/plain")


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
