"""Writing the content rows of one edition: upserts by (edition, slug), child rows synced per parent, official
rows that left the files deactivated, house rules (``is_official=False``) never touched; and the report of it.

Part of :mod:`content.loader`, which explains why rows are deactivated rather than deleted.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import models

from content.loader.reading import Field, check_lengths


@dataclass
class LoadReport:
    """What a load did, per model: added, changed, unchanged, deactivated, removed, kept (house rules)."""

    counts: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    # Optional equipment list entries whose item is not in the data yet, as "edition/slug".
    waiting: set[str] = field(default_factory=set)
    # Data files that are not content (rules tables of the engine, say), as "edition/name".
    skipped_files: set[str] = field(default_factory=set)

    def note(self, model: type[models.Model], outcome: str) -> None:
        self.counts[model._meta.verbose_name_plural.capitalize()][outcome] += 1

    @property
    def changed_anything(self) -> bool:
        quiet = {"unchanged", "kept"}
        return any(n for counter in self.counts.values() for outcome, n in counter.items() if outcome not in quiet)

    def lines(self) -> list[str]:
        always, sometimes = ["added", "changed", "unchanged"], ["deactivated", "removed", "kept"]
        lines = [
            f"{label}: " + ", ".join(f"{counter[o]} {o}" for o in always + [o for o in sometimes if counter[o]])
            for label, counter in sorted(self.counts.items())
        ]
        if self.skipped_files:
            lines.append(f"Not content, left alone: {', '.join(sorted(self.skipped_files))}")
        if self.waiting:
            lines.append(
                f"Equipment list entries waiting for items not in the data yet: {', '.join(sorted(self.waiting))}"
            )
        return lines


class RowWriter:
    """Writes one edition's official rows of ``models`` (each keyed by slug), noting each change in the report."""

    def __init__(self, edition: str, report: LoadReport, slugged: tuple[type[models.Model], ...]):
        self.edition, self.report = edition, report
        self.seen: dict[type, set[int]] = defaultdict(set)
        self.existing = {model: {row.slug: row for row in model.objects.filter(edition=edition)} for model in slugged}
        # Child rows of the whole edition, read once per model: {parent id: {key: row}}.
        self.children: dict[type, dict[int, dict]] = {}
        self.to_create: dict[type, list] = defaultdict(list)
        self.to_delete: dict[type, list[int]] = defaultdict(list)

    def upsert(self, model: type[models.Model], identity: dict, values: dict, place: Field):
        """Create or update an official row; ``None`` when a house rule holds the slug."""
        slug = identity["slug"]
        row = self.existing[model].get(slug)
        if row is not None and row.pk in self.seen[model]:
            place.fail("slug", f"{slug!r} is defined twice in {self.edition}")
        values = identity | values | {"is_official": True, "is_active": True}
        check_lengths(model, values, place)
        if row is None:
            row = model.objects.create(edition=self.edition, **values)
            self.existing[model][slug] = row
            self.report.note(model, "added")
        elif not row.is_official:
            self.report.note(model, "kept")
            self.seen[model].add(row.pk)
            return None
        else:
            self._update(row, values)
        self.seen[model].add(row.pk)
        return row

    def _update(self, row: models.Model, values: dict) -> None:
        changed = [name for name, value in values.items() if field_value(row, name) != comparable(value)]
        for name in changed:
            setattr(row, name, values[name])
        if changed:
            row.save(update_fields=changed)
        self.report.note(type(row), "changed" if changed else "unchanged")

    def sync_children(self, model: type[models.Model], parent_field: str, parent, key_field: str, wanted: dict) -> None:
        """Make the official child rows of ``parent`` exactly ``wanted`` ({key: values}); house rules stay.

        New rows and removals are batched (see :meth:`flush_children`); changes are saved at once.
        """
        official = {"is_official": True} if any(f.name == "is_official" for f in model._meta.fields) else {}
        if model not in self.children:
            by_parent = defaultdict(dict)
            parent_id = f"{parent_field}_id"
            for row in model.objects.filter(**{f"{parent_field}__edition": self.edition}):
                by_parent[getattr(row, parent_id)][field_value(row, key_field)] = row
            self.children[model] = by_parent
        rows = self.children[model].pop(parent.pk, {})
        for key, values in wanted.items():
            row = rows.pop(key, None)
            if row is None:
                self.to_create[model].append(model(**{parent_field: parent, key_field: key}, **values, **official))
                self.report.note(model, "added")
            elif official and not row.is_official:
                self.report.note(model, "kept")
            else:
                self._update(row, values | official)
        for row in rows.values():
            if not official or row.is_official:
                self.to_delete[model].append(row.pk)
                self.report.note(model, "removed")

    def flush_children(self) -> None:
        for model, pks in self.to_delete.items():
            model.objects.filter(pk__in=pks).delete()
        for model, rows in self.to_create.items():
            model.objects.bulk_create(rows)

    def deactivate_missing(self) -> None:
        for model, rows in self.existing.items():
            for row in rows.values():
                if row.is_official and row.is_active and row.pk not in self.seen[model]:
                    row.is_active = False
                    row.save(update_fields=["is_active"])
                    self.report.note(model, "deactivated")

    def in_data(self, model: type[models.Model], slug: str) -> bool:
        """Loaded from the files in this run, or a house rule (never an official row the files dropped)."""
        row = self.existing[model].get(slug)
        return row is not None and (not row.is_official or row.pk in self.seen[model])

    def lookup(self, model: type[models.Model], slug: str, place: Field, key: str):
        if not self.in_data(model, slug):
            place.fail(key, f"no {model._meta.verbose_name} {slug!r} in the {self.edition} data")
        return self.existing[model][slug]


def field_value(row: models.Model, name: str) -> Any:
    """The stored value to compare: primary keys for relations, plain values otherwise."""
    field_object = row._meta.get_field(name)
    if isinstance(field_object, models.ForeignKey):
        return getattr(row, field_object.attname)
    return getattr(row, name)


def comparable(value: Any) -> Any:
    return value.pk if isinstance(value, models.Model) else value
