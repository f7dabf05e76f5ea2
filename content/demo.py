"""Demo step: the house lists and Armoury every other demo step buys from (``manage.py demo``)."""

from content.loader import load_content


def load_demo_content(*, user, stdout) -> None:
    """Load the rules data files (idempotent, like ``manage.py load_content``)."""
    report = load_content()
    stdout.write("Content loaded." if report.changed_anything else "Content already up to date.")
