"""Large imports, done by the background worker (issues 24 and 26): a file over its kind's :data:`BACKGROUND_BYTES` (a YakTribe
gang, this site's own gang export, a whole campaign) is written as a :class:`gangs.models.FileImport` row in the
request's transaction (an outbox, as notifications are), and the worker's task (:mod:`gangs.tasks`, through the
Tasks API) imports it with the importer its kind registered (:func:`register`). The player lands on the import's
status page: "Importing…" until what it made is there, or every problem that refused it. Nothing is lost if the
worker stops: the row waits, and the worker's start-up sweep (``manage.py worker``) and the next import's task find
it. Smaller files are imported at once, in the request.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from gangs.exchange import gang_import, parse_gang_file
from gangs.models import FileImport, ImportKind, ImportState
from gangs.yaktribe import parse_file, yaktribe_import

logger = logging.getLogger(__name__)

# A file larger than its kind's figure here is imported by the worker; a smaller one at once, in the request (about
# a second at most: make bench prints these requests). 32 KB of gang is about 40 fighters with their kit (a 31 KB
# YakTribe confirm and a 34 KB gang import take 0.3-0.5 s). A campaign export is lighter per byte (1 MB in 2.4 s,
# 8 s before issue 26's bulk writes) and the site downloads it indented: a short season of two gangs is already
# 100-300 KB, which stays in the request.
BACKGROUND_BYTES = {ImportKind.YAKTRIBE: 32 * 1024, ImportKind.GANG: 32 * 1024, ImportKind.CAMPAIGN: 512 * 1024}
# The most one task imports before handing on to the next run (the worker's loop stays short).
BATCH = 5


@dataclass(frozen=True)
class Importer:
    """How one kind of file is read. ``check`` refuses a file that is not of its kind (too large, too deep, not
    JSON...) before it is queued, raising ``ValidationError``; ``run`` imports the queued row and returns the gang
    it made (or None) and the address of the page of what it made; ``again`` names the page that takes another and
    ``done`` is what the player is told on landing on what it made."""

    check: Callable[[bytes], object]
    run: Callable[[FileImport], tuple[object, str]]
    again: str
    done: str


IMPORTERS: dict[str, Importer] = {}


def register(kind: str, importer: Importer) -> None:
    """An app's importer of ``kind`` (an :class:`ImportKind`); the apps above this one register theirs when ready."""
    IMPORTERS[kind] = importer


def in_background(kind: str, raw: bytes) -> bool:
    return len(raw) > BACKGROUND_BYTES[kind]


@transaction.atomic
def import_queue(*, kind: str, owner, raw: bytes, token: str, choices: dict[str, str] | None = None) -> FileImport:
    """Queue the file for the worker; the same token posted twice queues it once. A file its importer's check
    refuses is refused here, whole, and nothing is written."""
    IMPORTERS[kind].check(raw)
    queued, _ = FileImport.objects.get_or_create(
        token=token, defaults={"owner": owner, "kind": kind, "raw": raw.decode(), "choices": dict(choices or {})}
    )
    if queued.owner_id != owner.pk:
        raise ValidationError("That import is not yours.")
    transaction.on_commit(wake_importer)
    return queued


def wake_importer() -> None:
    """Ask the queue for an import run. A queue that refuses is logged, not raised: the rows wait for the worker."""
    from gangs.tasks import import_files  # the task module imports this one

    try:
        import_files.enqueue()
    except Exception:
        logger.exception("Could not queue an import run; the waiting imports stay for the worker")


def imports_run(*, limit: int = BATCH) -> int:
    """Import up to ``limit`` waiting files, each in its own transaction (a refused one is marked with every
    problem, nothing half made); locked rows are skipped, so two workers never import one twice."""
    done = 0
    for _ in range(limit):
        with transaction.atomic():
            job = FileImport.objects.select_for_update(skip_locked=True).filter(state=ImportState.WAITING).first()
            if job is None:
                break
            try:
                with transaction.atomic():
                    gang, made_url = IMPORTERS[job.kind].run(job)
            except ValidationError as error:
                job.state, job.problems = ImportState.REFUSED, error.messages
            except Exception:  # a fault of ours: said, not retried for ever; the file stays in the row
                logger.exception("Import %s (%s) failed", job.pk, job.kind)
                job.state, job.problems = ImportState.REFUSED, ["The import failed on the server; try again later."]
            else:
                job.state, job.gang, job.made_url = ImportState.DONE, gang, made_url
            job.finished_at = timezone.now()
            job.save(update_fields=["state", "problems", "gang", "made_url", "finished_at"])
            done += 1
    return done


def _yaktribe(job: FileImport):
    gang = yaktribe_import(owner=job.owner, raw=job.raw.encode(), choices=job.choices, token=job.token)
    return gang, gang.get_absolute_url()


def _gang(job: FileImport):
    gang = gang_import(owner=job.owner, data=parse_gang_file(job.raw.encode()))
    return gang, gang.get_absolute_url()


register(
    ImportKind.YAKTRIBE,
    Importer(check=parse_file, run=_yaktribe, again="gangs:gang-import-yaktribe", done="Imported from YakTribe."),
)
register(ImportKind.GANG, Importer(check=parse_gang_file, run=_gang, again="gangs:gang-import", done="Imported."))
