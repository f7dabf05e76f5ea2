"""``make bench``: the page and load figures of issue 16, measured on a database of the bench's own.

``python -m tools.bench`` creates a fresh database (PostgreSQL when one answers, else an SQLite file), migrates
it, loads the content, builds the rosters, campaigns and battles it measures (``manage.py bench_pages``, in one
process with DEBUG off), then serves the site with gunicorn on a loopback port for a bounded load test
(:mod:`tools.bench.load`), and stops gunicorn; then the notification bench (:mod:`tools.bench.notifications`:
1,000 events through the worker, killed half-way), then drops the database. With ``--busy-site SCALE`` the same
on a generated busy site (``manage.py bench_busy_site``), and last issue 28's table of both databases side by side
(:mod:`tools.bench.table`). It prints figures; it asserts nothing.
"""
