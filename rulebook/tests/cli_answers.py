"""The command line asked in-process (:func:`rulebook.cli.run`) the way the CLI tests need it: an answer or a refusal.

The genuine subprocess tests are in ``test_rulebook_cli.py``; everywhere else a subprocess proves nothing more.
"""

from rulebook.cli import run


def ok(*args: str, stdin: str = "") -> dict:
    """The answer of a query that must succeed (exit 0)."""
    answer = run(*args, stdin=stdin)
    assert answer.returncode == 0, answer.stderr
    return answer.json()


def refused(*args: str, stdin: str = "") -> str:
    """The error message of a query that must be refused (exit 2, nothing on stdout)."""
    answer = run(*args, stdin=stdin)
    assert answer.returncode == 2 and answer.stdout == "", answer.stdout
    return answer.json()["error"]
