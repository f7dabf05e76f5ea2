"""What the race tests of every app share besides the root conftest's ``at_once`` fixture: their marks.

Real threads on their own database connections need PostgreSQL's row locks; on SQLite, whose writes are
serialised by a file lock, the tests are skipped with that reason and run in the PostgreSQL pass of
``make test``. Each thread commits, so the tests use transactional database access.
"""

import pytest
from django.db import connection


def race_marks() -> list:
    return [
        pytest.mark.postgres_only,
        pytest.mark.skipif(
            connection.vendor != "postgresql", reason="row locks need PostgreSQL; SQLite serialises every write"
        ),
        pytest.mark.django_db(transaction=True),
    ]
