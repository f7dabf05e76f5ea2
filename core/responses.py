"""How a view ends after a change: a refusal shown on its form or as a message, or a move to the next page.

One meaning each, for every app: :func:`add_refusal` puts a service's ``ValidationError`` on the form (the page
is shown again); :func:`moved` sends the browser on, with ``HttpResponseClientRedirect`` when htmx asked (house
style); :func:`refused` shows the refusal as messages and moves on.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django_htmx.http import HttpResponseClientRedirect


def add_refusal(form, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


def moved(request, url: str, message: str = ""):
    if message:
        messages.success(request, message)
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def refused(request, error: ValidationError, url: str):
    for message in error.messages:
        messages.error(request, message)
    return moved(request, url)
