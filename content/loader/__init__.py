"""Load the rules data files (``rulebook/data/<edition>/*.json``) into the content models.

One source of truth: the rules engine reads the same files. ``load_content`` upserts every
record by (edition, slug) inside one transaction, so a malformed file rejects the whole load
and leaves the database as it was. It never changes or deletes house rules (rows with
``is_official=False``); official rows that left the files are deactivated, not deleted, because
gangs may own them.

File shapes (see docs/content.md and the files' own ``notes``):

- Armoury / Trading Post: ``weapons``, ``armour``, ``wargear`` lists (the team's weapons format).
- Houses: ``composition``, ``houses`` (each with ``fighter_types`` and, for n18, an
  ``equipment_list`` of ``{"item", "cost", "fighter_types"}``; an entry marked ``"optional": true``
  waits, reported, until its item exists; 2018+ lists that are the Trading Post up to a Rarity state it as a
  ``trading_post_allowance`` instead, expanded from the equipment loaded), an optional ``equipment`` block
  (house-list items missing from the Trading Post, in the weapons format) and, for classic,
  ``fighter_types`` shared by every house with per-house ``skill_access``.
- Skills: ``skill_tables`` with their ``skills`` (each with a one-line ``summary`` in our own words).
- Territories: ``territories``.
- Rule summaries: a top-level ``rules`` list of ``{"slug", "name", "kind", "summary", "aliases"}`` in any file
  (``rules.json``, or a house file beside the fighters that name them): what a weapon trait, classic weapon
  special rule or fighter rule does, in one line of our own words (see :mod:`content.printed`).

The package: :mod:`~content.loader.reading` reads the files and refuses bad ones, :mod:`~content.loader.edition`
turns one edition's records into model values (how classic equipment lists expand is there), and
:mod:`~content.loader.rows` writes the rows and keeps the :class:`LoadReport`.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import IntegrityError, transaction

from content.loader.edition import EditionLoader
from content.loader.reading import ContentFileError, read_document
from content.loader.rows import LoadReport
from content.models import Edition
from content.versioning import bump_content, content_loading

__all__ = ["DATA_DIR", "ContentFileError", "LoadReport", "load_content"]

DATA_DIR = Path(settings.BASE_DIR) / "rulebook" / "data"


def load_content(*, data_dir: Path = DATA_DIR) -> LoadReport:
    """Load every edition folder under ``data_dir``; all or nothing."""
    report = LoadReport()
    if not Path(data_dir).is_dir():
        raise ContentFileError(f"{data_dir}: there is no such data folder")
    editions = sorted(p for p in Path(data_dir).iterdir() if p.is_dir() and p.name in Edition.values)
    if not editions:
        raise ContentFileError(f"{data_dir}: holds no edition folder ({', '.join(f'{e}/' for e in Edition.values)})")
    with transaction.atomic(), content_loading():
        for folder in editions:
            documents = [read_document(path, folder.name) for path in sorted(folder.glob("*.json"))]
            try:
                EditionLoader(folder.name, documents, report).run()
            except IntegrityError as error:
                raise ContentFileError(f"{folder.name}: the data breaks a database rule: {error}") from error
        if report.changed_anything:
            bump_content()  # every cached roster renders again with the new content
    return report
