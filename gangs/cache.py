"""Rendered rosters, cached: the gang page's totals and fighter cards and the print sheet are rendered once per
*version* of the gang and of the content, and served from Django's cache until either moves.

- Every row a roster is drawn from (the gang, its fighters, their purchases, advancements, stat changes,
  injuries and skills, every ledger entry, and its owner's username) moves the gang's ``version`` when it is
  saved or deleted, in the same transaction (a ``post_save``/``post_delete`` receiver issuing an ``F()`` update), so the
  next render uses a new key: a stale card can never be shown, whatever wrote the change (a service, the post-battle
  sequence, an import, the admin). The campaigns app has its rows followed the same way (:func:`follow`,
  :func:`follow_campaign`): memberships, territories, campaign battles, the campaign itself and its
  arbitrators and house rules, so what a gang's page shows of its campaign (and what it may buy) is part of its
  version too.
- Every change to the game content moves :class:`content.models.ContentVersion` the same way
  (:mod:`content.versioning`); a ``load_content`` moves it once, at the end of a load that changed something.
- A key holds what every viewer sees, or also what sets a viewer's part apart (their role, what of the history
  they see) when the fragment holds their controls, such as the fighter page's part with the owner's forms: drawn
  with placeholders for its tokens, each request puts its own in (``{% tokencache %}``, core.fragments).

The cache is the local-memory cache by default; ``CACHE_URL`` selects Redis or Memcached for several app
servers (README, Configuration).
"""

from __future__ import annotations

from django.db.models import F, Subquery
from django.db.models.signals import post_delete, post_save, pre_save

from core.caching import on_row_change

#: Fragments live a day at most; a version that moved leaves its old keys to expire.
FRAGMENT_SECONDS = 24 * 60 * 60


def bump_gang(gang_id: int | None) -> None:
    from gangs.models import Gang

    if gang_id is not None:
        Gang.objects.filter(pk=gang_id).update(version=F("version") + 1)


def bump_fighters_gang(fighter_id: int | None) -> None:
    from gangs.models import Fighter, Gang

    if fighter_id is not None:
        gang = Fighter.objects.filter(pk=fighter_id).values("gang_id")[:1]
        Gang.objects.filter(pk=Subquery(gang)).update(version=F("version") + 1)


def fragment_key(gang, *parts) -> list:
    """The ``{% cache %}`` vary-on values of a roster fragment: the gang, its version, the content's version and
    what else the fragment depends on. ``gang`` comes from :func:`gangs.selectors.gang_queryset` (or
    :func:`gangs.selectors.roster_page`), whose query reads the content's version (:func:`content.versioning.content_version_subquery`; None before any change)."""
    return [gang.pk, gang.version, gang.content_version or 0, *parts]


# --- receivers ----------------------------------------------------------------------------------


def _gang_row(sender, instance, **kwargs):
    if not kwargs.get("raw"):
        bump_gang(instance.pk if sender.__name__ == "Gang" else instance.gang_id)


def _fighter_row(sender, instance, **kwargs):
    if not kwargs.get("raw"):
        bump_fighters_gang(instance.fighter_id)


def _owner_row(sender, instance, update_fields=None, **kwargs):
    # A roster names its player: a changed username moves the player's gangs; a login (last_login) or a new
    # password, which no roster shows, moves nothing.
    if kwargs.get("raw") or instance.pk is None or (update_fields is not None and "username" not in update_fields):
        return
    if sender.objects.filter(pk=instance.pk).values_list("username", flat=True).first() != instance.username:
        from gangs.models import Gang

        Gang.objects.filter(owner_id=instance.pk).update(version=F("version") + 1)


def connect() -> None:
    """Called once from the apps' ``ready()``."""
    from django.apps import apps
    from django.contrib.auth import get_user_model

    pre_save.connect(_owner_row, sender=get_user_model(), dispatch_uid="roster-version-owner")

    gang_rows = ["Gang", "Fighter", "Purchase", "LedgerEntry"]
    fighter_rows = ["Advancement", "StatChange", "Injury", "FighterSkill"]
    for name in gang_rows:
        model = apps.get_model("gangs", name)
        post_save.connect(_gang_row, sender=model, dispatch_uid=f"roster-version-{name}")
        post_delete.connect(_gang_row, sender=model, dispatch_uid=f"roster-version-{name}-delete")
    for name in fighter_rows:
        model = apps.get_model("gangs", name)
        post_save.connect(_fighter_row, sender=model, dispatch_uid=f"roster-version-{name}")
        post_delete.connect(_fighter_row, sender=model, dispatch_uid=f"roster-version-{name}-delete")
    # A captor's roster lists its captives: a captive taken, freed or changed moves the captor's version too.
    follow(apps.get_model("gangs", "Fighter"), "captured_by")


def follow(model, gang_field: str) -> None:
    """Move the version of the gang that ``model``'s ``gang_field`` names whenever a row is saved or deleted
    (and of the gang it named before, when a save changes it): for rows another app keeps that a roster shows
    or depends on, such as a campaign's memberships and territories (campaigns.apps)."""
    attname = model._meta.get_field(gang_field).attname
    uid = f"roster-version-{model._meta.label}-{gang_field}"

    def before(sender, instance, **kwargs):
        if not kwargs.get("raw") and instance.pk is not None:
            named = sender.objects.filter(pk=instance.pk).values_list(attname, flat=True).first()
            if named != getattr(instance, attname):
                bump_gang(named)

    pre_save.connect(before, sender=model, weak=False, dispatch_uid=f"{uid}-before")
    on_row_change(model, gang_field, bump_gang, uid)


def bump_campaign_gangs(campaign_id: int | None) -> None:
    """Move the version of every gang that plays or played in the campaign."""
    from gangs.models import Gang

    if campaign_id is not None:
        Gang.objects.filter(memberships__campaign_id=campaign_id).update(version=F("version") + 1)


def follow_campaign(model, campaign_field: str | None) -> None:
    """Move the version of every gang of a campaign whenever a row of ``model`` saved or deleted names it (through
    ``campaign_field``; ``None`` for the campaign's own row): for what a gang's page shows of its campaign, such
    as its name and who arbitrates it (campaigns.apps). Such rows change a few times a cycle at most."""
    on_row_change(model, campaign_field, bump_campaign_gangs, f"roster-version-{model._meta.label}-campaign")
