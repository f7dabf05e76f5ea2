"""The content's version: one number that moves on every change to the game content, in the same transaction,
so that anything rendered from the content and cached under it (the rosters, :mod:`gangs.cache`) is rendered
again after a ``load_content`` that changed something or an admin's edit."""

from __future__ import annotations

import threading
from contextlib import contextmanager

from django.db.models import F, Subquery
from django.db.models.signals import post_delete, post_save

_loading = threading.local()


def bump_content() -> None:
    from content.models import ContentVersion

    if not ContentVersion.objects.filter(pk=1).update(number=F("number") + 1):
        ContentVersion.objects.get_or_create(pk=1, defaults={"number": 1})


@contextmanager
def content_loading():
    """Inside, content saves do not move the version one by one; the loader moves it once at the end."""
    _loading.active = True
    try:
        yield
    finally:
        _loading.active = False


def content_version_subquery() -> Subquery:
    """The content version as an annotation, so a page's main query brings it (no query of its own)."""
    from content.models import ContentVersion

    return Subquery(ContentVersion.objects.filter(pk=1).values("number")[:1])


def _content_row(sender, instance, **kwargs):
    if not kwargs.get("raw") and not getattr(_loading, "active", False):
        bump_content()


def connect() -> None:
    """Called once from ``ContentConfig.ready()``: every content model's save and delete moves the version."""
    from django.apps import apps

    for model in apps.get_app_config("content").get_models():
        if model.__name__ != "ContentVersion":
            post_save.connect(_content_row, sender=model, dispatch_uid=f"content-version-{model.__name__}")
            post_delete.connect(_content_row, sender=model, dispatch_uid=f"content-version-{model.__name__}-delete")
