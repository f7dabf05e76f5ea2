"""Large YakTribe imports, done by the background worker (issue 24): a confirmed file over
:data:`BACKGROUND_BYTES` is written as a :class:`gangs.models.YakTribeImport` row in the confirming request's
transaction (an outbox, as notifications are), and the worker's task (:mod:`gangs.tasks`, through the Tasks API)
imports it with :func:`gangs.yaktribe.yaktribe_import`. The player's page says "Importing…" until the gang is
there. Nothing is lost if the worker stops: the row waits, and the worker's start-up sweep (``manage.py worker``)
and the next import's task find it. Smaller files are imported at once, in the request.
"""

from __future__ import annotations

import logging

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from gangs.models import ImportState, YakTribeImport
from gangs.yaktribe import parse_file, yaktribe_import

logger = logging.getLogger(__name__)

# A file larger than this is imported by the worker (about 40 fighters with their kit); a smaller one at once.
BACKGROUND_BYTES = 32 * 1024
# The most one task imports before handing on to the next run (the worker's loop stays short).
BATCH = 5


def in_background(raw: bytes) -> bool:
    return len(raw) > BACKGROUND_BYTES


@transaction.atomic
def yaktribe_import_queue(*, owner, raw: bytes, choices: dict[str, str], token: str) -> YakTribeImport:
    """Queue the confirmed file for the worker; the same confirmation posted twice queues it once. A file that is
    not a YakTribe gang (too large, too deep, not JSON...) is refused here, whole, and nothing is written."""
    parse_file(raw)
    queued, _ = YakTribeImport.objects.get_or_create(
        token=token, defaults={"owner": owner, "raw": raw.decode(), "choices": dict(choices)}
    )
    if queued.owner_id != owner.pk:
        raise ValidationError("That import is not yours.")
    transaction.on_commit(wake_importer)
    return queued


def wake_importer() -> None:
    """Ask the queue for an import run. A queue that refuses is logged, not raised: the rows wait for the worker."""
    from gangs.tasks import import_yaktribe_gangs  # the task module imports this one

    try:
        import_yaktribe_gangs.enqueue()
    except Exception:
        logger.exception("Could not queue a YakTribe import run; the waiting imports stay for the worker")


def yaktribe_imports_run(*, limit: int = BATCH) -> int:
    """Import up to ``limit`` waiting files, each in its own transaction (a refused one is marked with every
    problem, the gang never half made); locked rows are skipped, so two workers never import one twice."""
    done = 0
    for _ in range(limit):
        with transaction.atomic():
            job = YakTribeImport.objects.select_for_update(skip_locked=True).filter(state=ImportState.WAITING).first()
            if job is None:
                break
            try:
                with transaction.atomic():
                    gang = yaktribe_import(owner=job.owner, raw=job.raw.encode(), choices=job.choices, token=job.token)
            except ValidationError as error:
                job.state, job.problems = ImportState.REFUSED, error.messages
            except Exception:  # a fault of ours: said, not retried for ever; the file stays in the row
                logger.exception("YakTribe import %s failed", job.pk)
                job.state, job.problems = ImportState.REFUSED, ["The import failed on the server; try again later."]
            else:
                job.state, job.gang = ImportState.DONE, gang
            job.finished_at = timezone.now()
            job.save(update_fields=["state", "problems", "gang", "finished_at"])
            done += 1
    return done
