"""A pytest plugin loaded before Django reads its settings (``-p`` in pyproject.toml).

Tests run with the development defaults (plain static storage, no HTTPS redirect, the
development secret key); pytest-django still runs every test with ``settings.DEBUG`` False.
The production defaults are checked by their own tests in a subprocess.
"""

import os

os.environ.setdefault("DEBUG", "1")
