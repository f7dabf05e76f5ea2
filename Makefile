# Two commands do all the set-up on a fresh machine with Python 3.10+ and make:
#   make run    the site with demo data on http://127.0.0.1:8000 (PORT= overrides), and its background worker
#   make test   lint, migration check, and the tests on SQLite and (when it answers) PostgreSQL, in parallel
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# PostgreSQL for the second test run: DATABASE_URL if set, else a local server if one answers.
PG_DEFAULT_URL := postgres://postgres@127.0.0.1:5432/underhive_ledger
# The apps whose tests use the database; rulebook/ has none, so it runs once, in the SQLite pass.
DB_TESTS := core content gangs campaigns battles postbattle notifications sharing tools
# Both test passes run in parallel: one pytest-xdist worker a core, at most 4 (each worker's race tests hold 20
# PostgreSQL connections at once; a default server allows 100), each worker with its own test database
# (test_<name>_gw0, _gw1...) and its own Redis database (conftest.py). `worksteal` hands each worker a
# contiguous share of the tests, so a module's fixtures are built once on it, and lets an idle worker take
# tests from a busy one. `make test TEST_WORKERS=0` runs both passes serially; a single test runs serially with
# plain pytest (`.venv/bin/python -m pytest path::test`, no -n) or with `-n 0` / `-p no:xdist` added to a line.
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print(min(len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count() or 1, 4))")
PYTEST_PARALLEL := -n $(TEST_WORKERS) --dist worksteal

.PHONY: run test lint install install-dev bench

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: requirements.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.installed-dev: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.installed

# A development checkout's settings; the real environment always wins over it (see README).
.env:
	printf '# Development settings for this checkout (not for a server). See .env.example.\nDEBUG=1\n' > $@

install: $(VENV)/.installed .env
install-dev: $(VENV)/.installed-dev .env

run: export DEBUG ?= 1
run: export SITE_URL ?= http://127.0.0.1:$(PORT)
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_content
	$(PY) manage.py demo
	@echo ""
	@echo "  Underhive Ledger is running at http://127.0.0.1:$(PORT)/"
	@echo "  Log in as demo / demo"
	@echo ""
	@# The worker (notifications) runs in the background alongside the site and stops with it.
	$(PY) manage.py worker --no-reload --interval 2 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

lint: install-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	DEBUG=1 $(PY) manage.py makemigrations --check --dry-run
	$(VENV)/bin/lint-imports

# With PostgreSQL, two tests kinds run once rather than twice: the browser tests in the SQLite pass (they test pages,
# which the database does not change) and the input fuzz in the PostgreSQL pass (where a number too large for a
# column is an error, as on a real server). Everything else runs on both. Without PostgreSQL all runs on SQLite.
test: lint
	@url="$${DATABASE_URL:-}"; \
	if [ -z "$$url" ] && $(PY) -c "import socket; socket.create_connection(('127.0.0.1', 5432), 1)" 2>/dev/null; then \
		url="$(PG_DEFAULT_URL)"; fi; \
	if [ -n "$$url" ]; then \
		echo "== tests on SQLite (the input fuzz runs in the PostgreSQL pass) =="; \
		env -u DATABASE_URL $(PY) -m pytest $(PYTEST_PARALLEL) -m "not fuzz" || exit $$?; \
		echo "== database tests on PostgreSQL ($${url%%@*}@...; the browser tests ran on SQLite) =="; \
		DATABASE_URL="$$url" $(PY) -m pytest $(PYTEST_PARALLEL) -m "not browser" $(DB_TESTS); \
	else \
		echo "== tests on SQLite (PostgreSQL not reachable: SQLite only) =="; \
		env -u DATABASE_URL $(PY) -m pytest $(PYTEST_PARALLEL); \
	fi

# Figures, not assertions (README, Benchmarks): the rules engine, then the pages and a load test on a database
# of the bench's own (PostgreSQL when one answers, else SQLite), dropped at the end; last, simulate_campaign's
# whole campaign of each edition (its last line: battles, losses, captures, rescues, credits, time per battle).
# Then a busy site (issue 28) on a database of its own, BUSY_SCALE times the size of a busy public instance
# (5,000 users, 20,000 gangs, 500 campaigns): its pages warm and cold, and the campaign, battle, fighter and roster
# pages under gunicorn; last, issue 28's table of both databases side by side. `make bench BUSY_SCALE=1` for the
# full size (hours of writes on a small machine).
BUSY_SCALE ?= 0.02
bench: install
	$(PY) -m rulebook bench
	$(PY) -m tools.bench --busy-site $(BUSY_SCALE)
