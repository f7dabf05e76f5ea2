"""Fixtures every app's tests share: factories for users and the data later apps add,
and a real browser (Debian's Chromium through Playwright) against a live server.

Apps extend this with their own factories (``make_gang``, ``make_fighter``...) here, so a
test anywhere in the tree can build what it needs in one line.
"""

import itertools
import os
import sys
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "Underhive-pass-1"
_serial = itertools.count(1)


@pytest.fixture(autouse=True)
def empty_cache(request):
    """Each test starts with an empty cache: test databases reuse ids and versions after a rollback, which a
    real database never does, so a fragment cached by one test could otherwise answer another's key."""
    if request.config.pluginmanager.hasplugin("django"):
        from django.core.cache import cache

        cache.clear()
    yield


def _redis_test_url() -> str:
    """The Redis database this process's tests may empty: ``REDIS_TEST_URL`` (database 15 by default) as it is,
    or, in pytest-xdist worker ``gwN``, the database N below it (gw0 15, gw1 14...). ``cache.clear()`` on Redis
    empties its whole database, so two workers sharing one would empty each other's cache mid-test. A worker never
    counts down to database 0, a development cache's usual one: it gets "" instead (too many workers)."""
    from urllib.parse import urlsplit, urlunsplit

    url = urlsplit(os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/15"))
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    if not worker:
        return url.geturl()
    database = int(url.path.strip("/") or 0) - worker
    return urlunsplit(url._replace(path=f"/{database}")) if database >= 1 else ""


def _redis_answers(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


@pytest.fixture(params=["local-memory", "redis"])
def cache_backend(request, settings):
    """Each test that takes it runs on the local-memory cache and on a real Redis: database 15 of
    ``REDIS_TEST_URL`` by default, which the test empties. Each pytest-xdist worker has a database of its own,
    counted down from that one (:func:`_redis_test_url`). Without a Redis server the Redis run is skipped, except
    on CI, which starts one (.ci/run)."""
    if request.param == "redis":
        url = _redis_test_url()
        if not url:
            pytest.fail(
                f"pytest-xdist worker {os.environ.get('PYTEST_XDIST_WORKER')} has no Redis database of its own "
                "between REDIS_TEST_URL's and database 1: run fewer workers (-n) or name a higher database"
            )
        if not _redis_answers(url):
            if os.environ.get("CI") == "true":
                pytest.fail(f"No Redis answers at {url}: .ci/run starts one.")
            pytest.skip(f"no Redis server answers at {url}")
        settings.CACHES = {
            "default": {"BACKEND": "core.caching.GuardedRedisCache", "LOCATION": url, "KEY_PREFIX": "ul-test"}
        }
    from django.core.cache import cache

    cache.clear()
    yield request.param
    cache.clear()


@pytest.fixture(autouse=True)
def fast_password_hashing(request):
    """Tests create many users; the real PBKDF2 hasher costs most of a second for each.

    The rulebook's tests also run without Django (``-p no:django``), where there are no settings.
    """
    if request.config.pluginmanager.hasplugin("django"):
        request.getfixturevalue("settings").PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def no_login_slowdown(request):
    """Failed logins pause a little longer each time (core.accounts); tests that fail logins need no wait.

    ``test_accounts`` checks the pause itself.
    """
    if request.config.pluginmanager.hasplugin("django"):
        request.getfixturevalue("settings").LOGIN_SLOWDOWN_STEP = 0


@pytest.fixture
def make_user(db):
    """``make_user("alice")`` → a saved user whose password is :data:`PASSWORD`."""
    from django.contrib.auth import get_user_model

    def make(username: str | None = None, **fields):
        username = username or f"user{next(_serial)}"
        user = get_user_model().objects.create_user(username=username, password=PASSWORD, **fields)
        return user

    return make


def pytest_collection_modifyitems(items):
    """A test that opens the browser is a browser test whether or not its module says so: `make test` runs those
    once (Makefile), so a marker forgotten must not make one run twice or not at all."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium. Skips when Chromium is absent locally; fails on CI, where it must exist."""
    if not CHROMIUM.exists():
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    # Playwright's sync API runs an event loop in this thread; the database calls tests make
    # around it are still synchronous, so Django's async guard does not apply.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def pdf_tools():
    """Poppler's pdfinfo and pdftotext, which read the printed PDFs back. Skips when absent locally; fails on CI."""
    import shutil

    missing = [tool for tool in ("pdfinfo", "pdftotext") if shutil.which(tool) is None]
    if missing:
        message = f"{', '.join(missing)} not found (apt-get install poppler-utils)"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def page(browser, live_server, request, monkeypatch):
    """A fresh browser tab on the live server, phone-sized unless a test resizes it.

    The server's dice are seeded from the test's name: a flow that branches on what the dice did (a target Seriously
    Injured, a fighter taken Out of Action) takes the same branch on every run, here and on CI."""
    import random
    import zlib

    from rulebook.dice import RandomDice

    seeded = random.Random(zlib.crc32(request.node.nodeid.encode()))
    monkeypatch.setattr(RandomDice, "_face", lambda self, die, purpose: seeded.choice(die.faces))
    context = browser.new_context(base_url=live_server.url, viewport={"width": 412, "height": 915})
    context.set_default_timeout(10_000)
    tab = context.new_page()
    yield tab
    context.close()


@pytest.fixture
def log_in_browser(page, live_server):
    """``log_in_browser(user)`` puts a logged-in session cookie in the browser tab."""
    from django.test import Client

    def log_in(user):
        client = Client()
        client.force_login(user)
        cookie = client.cookies["sessionid"]
        page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
        return page

    return log_in


# --- content --------------------------------------------------------------------------------------

_module_content_active = False


@pytest.fixture(scope="module")
def module_content(django_db_setup, django_db_blocker):
    """The shipped rules data (every file under rulebook/data) loaded once for a whole test module; returns the
    loader's report. Loading it costs a second or more on SQLite and several on PostgreSQL, so modules whose every
    test reads it (and none runs in a real transaction: no ``transaction=True``, no live server) share one load:
    it happens inside a transaction held open for the module, each test's own transaction is a savepoint within it
    (rolled back after the test, as usual), and the outer one is rolled back after the module's last test.

    Such a module defines ``loaded_content`` as ``module_content`` plus ``db``; ``only_module_content_tests``
    fails a test that would see the load without asking for it."""
    global _module_content_active
    from django.db import transaction

    from content.loader import load_content

    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            report = load_content()
        except BaseException:
            outer.__exit__(*sys.exc_info())  # rolled back, not committed half-loaded
            raise
    _module_content_active = True
    yield report
    _module_content_active = False
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def only_module_content_tests(request):
    """A test that runs while a module's shared content load is open (:func:`module_content`) must ask for it: any
    other would see rows it did not make (and a transactional one could not work inside the open transaction)."""
    if _module_content_active and "module_content" not in request.fixturenames:
        pytest.fail(f"{request.node.nodeid} runs inside its module's shared content load without asking for it")
    if _module_content_active and "transactional_db" in request.fixturenames:
        pytest.fail(f"{request.node.nodeid} is transactional: it cannot use the module's shared content load")


# --- gangs ----------------------------------------------------------------------------------------


@pytest.fixture
def make_house_list(db):
    """``make_house_list("classic")`` → a small house list (fighter types, equipment, skills) in the database.

    Built once per edition per test; see ``gangs/testing.py`` for what it holds.
    """
    from gangs.testing import BUILDERS

    made = {}

    def make(edition: str = "classic"):
        if edition not in made:
            made[edition] = BUILDERS[edition]()
        return made[edition]

    return make


@pytest.fixture
def make_gang(make_user, make_house_list):
    """``make_gang(owner=None, edition="classic", name=None, extra_credits=0)`` → a new gang with its starting credits."""
    from gangs.ledger import ledger_record
    from gangs.models import LedgerKind
    from gangs.services import gang_create

    def make(owner=None, edition: str = "classic", name: str | None = None, extra_credits: int = 0):
        owner = owner or make_user()
        gang = gang_create(owner=owner, house=make_house_list(edition), name=name or f"Gang {next(_serial)}")
        if extra_credits:
            ledger_record(gang=gang, kind=LedgerKind.CREDITS, credits=extra_credits, description="Test credits")
        return gang

    return make


@pytest.fixture
def make_fighter():
    """``make_fighter(gang, "ganger", name=None)`` → a fighter hired through ``fighter_hire`` (seeded dice).

    The second argument is a fighter type slug without the house prefix, or a category.
    """
    from gangs.services import fighter_hire
    from rulebook.dice import SeededDice

    def make(gang, kind: str = "ganger", name: str | None = None, **options):
        types = gang.house.fighter_types.all()
        fighter_type = next(t for t in types if t.slug == f"{gang.house.slug}-{kind}" or t.category == kind)
        name = name or f"Fighter {next(_serial)}"
        return fighter_hire(
            gang=gang, fighter_type=fighter_type, name=name, actor=gang.owner, dice=SeededDice(1), **options
        )

    return make


# --- campaigns ------------------------------------------------------------------------------------


@pytest.fixture
def make_territory(db):
    """``make_territory("n18", "Old Ruins")`` → a content territory a campaign can add to its pool."""
    from django.utils.text import slugify

    from content.models import Territory

    def make(edition: str = "n18", name: str | None = None, income: str = "D6x10"):
        name = name or f"Territory {next(_serial)}"
        return Territory.objects.create(edition=edition, slug=slugify(name), name=name, income=income)

    return make


@pytest.fixture
def make_campaign(make_user, make_gang):
    """``make_campaign(edition="n18", gangs=4, started=True, arbitrator=None)`` → a campaign whose ``gangs``
    new gangs (each with its own player) have joined; started campaigns are in Cycle 1 (2018+). Classic gangs roll
    their starting territories with seeded dice, so a test never depends on the server's dice."""
    from campaigns.services import campaign_create, campaign_join, campaign_start
    from rulebook.dice import SeededDice

    def make(edition: str = "n18", gangs: int = 0, started: bool = False, arbitrator=None, name: str | None = None):
        campaign = campaign_create(user=arbitrator or make_user(), edition=edition, name=name or "Test campaign")
        for seat in range(gangs):
            gang = make_gang(edition=edition)
            campaign_join(campaign=campaign, gang=gang, user=gang.owner, dice=SeededDice(seat))
        if started:
            campaign = campaign_start(campaign=campaign)
        return campaign

    return make


@pytest.fixture
def two_player_campaign(make_user, make_gang, make_fighter):
    """``{"campaign", "users", "gangs"}``: alice's and bob's n18 gangs (a Leader, a Champion and two Gangers each)
    in a started campaign run by ``users["arbitrator"]``."""
    from campaigns import services

    users = {name: make_user(name) for name in ("arbitrator", "alice", "bob")}
    campaign = services.campaign_create(user=users["arbitrator"], edition="n18", name="Dust Falls")
    gangs = {}
    for name in ("alice", "bob"):
        gangs[name] = make_gang(owner=users[name], edition="n18", name=f"{name.title()}'s gang")
        for kind in ("leader", "champion", "ganger", "ganger"):
            make_fighter(gangs[name], kind, name=f"{name.title()} {kind} {gangs[name].fighters.count()}")
        services.campaign_join(campaign=campaign, gang=gangs[name], user=users[name])
    campaign = services.campaign_start(campaign=campaign)
    return {"campaign": campaign, "users": users, "gangs": gangs}


# --- battles --------------------------------------------------------------------------------------


@pytest.fixture
def make_battle(make_gang, make_fighter):
    """``make_battle(edition="classic", fighters=3, **battle_start options)`` → a battle in progress between two
    new gangs of ``fighters`` each (a Leader and gangers), every fighter with a pistol and a close combat weapon."""
    from battles.services import battle_start
    from content.models import Equipment
    from gangs.services import purchase_buy

    arms = {"classic": ("laspistol", "sword"), "n18": ("autopistol", "fighting-knife")}

    def make(edition: str = "classic", fighters: int = 3, **options):
        gangs = []
        for _ in range(2):
            gang = make_gang(edition=edition, extra_credits=100 * fighters)
            for kind in ["leader"] + ["ganger"] * (fighters - 1):
                fighter = make_fighter(gang, kind)
                for slug in arms[edition]:
                    item = Equipment.objects.get(edition=edition, slug=slug)
                    purchase_buy(gang=gang, equipment=item, fighter=fighter, actor=gang.owner, override_reason="test")
            gangs.append(gang)
        return battle_start(gang_a=gangs[0], gang_b=gangs[1], started_by=gangs[0].owner, **options)

    return make


# --- post-battle sequence -------------------------------------------------------------------------


@pytest.fixture
def make_confirmed_battle(make_campaign, make_fighter):
    """``make_confirmed_battle(edition="n18", scenario="the-trap", winner="attacker", results=[...])`` → a confirmed
    battle between two new gangs of a started campaign. Each gang has two Gangers, a Leader and (2018+) a Champion,
    indexed 0-3 in that order; ``results`` rows are ``(side, index, outcome, caused_by index or None, awards)``."""
    from campaigns.models import Battle, BattleFighterResult, BattleOrigin, BattleStatus, Side, other_side
    from rulebook.n18.campaign.scenarios import SCENARIOS

    def make(edition="n18", scenario=None, winner="attacker", results=(), facts=None, campaign=None, **fields):
        campaign = campaign or make_campaign(edition=edition, gangs=2, started=True)
        attacker, defender = [m.gang for m in campaign.memberships.select_related("gang").order_by("pk")][:2]
        kinds = ["ganger", "ganger", "leader"] + (["champion"] if edition == "n18" else ["ganger"])
        roster = {}
        for side, gang in ((Side.ATTACKER, attacker), (Side.DEFENDER, defender)):
            roster[side] = list(gang.fighters.order_by("pk")) or [make_fighter(gang, kind) for kind in kinds]
        scenario = scenario or ("the-trap" if edition == "n18" else "gang-fight")
        rewards = [r.as_json() for r in SCENARIOS[scenario].rewards] if edition == "n18" else []
        battle = Battle.objects.create(
            campaign=campaign,
            origin=BattleOrigin.ARRANGED,
            attacker=attacker,
            defender=defender,
            scenario=scenario,
            scenario_name=scenario.replace("-", " ").title(),
            status=BattleStatus.CONFIRMED,
            winner={"attacker": attacker, "defender": defender}.get(winner),
            is_draw=winner is None,
            scenario_facts=facts or {},
            rewards=rewards,
            **fields,
        )
        for side, index, outcome, caused_by, awards in results:
            enemy = other_side(side)
            BattleFighterResult.objects.create(
                battle=battle,
                fighter=roster[side][index],
                side=side,
                outcome=outcome,
                caused_by=roster[enemy][caused_by] if caused_by is not None else None,
                awards=awards or {},
            )
        return battle

    return make


# --- concurrency ----------------------------------------------------------------------------------


@pytest.fixture
def at_once():
    """``at_once(20, call)`` → 20 threads make ``call()`` at the same moment (behind a barrier), each on its own
    database connection; returns the sorted outcomes, ``"done"`` or ``"refused"`` (a ValidationError), or
    ``"error: ..."`` for anything else (a test comparing outcomes then fails naming it).

    ``load``: run by each thread before the barrier, its result passed to ``call``, so that every request has
    read its rows (as a view's ``get_object_or_404`` does) before any of them writes. The race tests of every app
    use this; they run in the PostgreSQL pass of ``make test`` and are skipped on SQLite, whose writes are
    serialised by a file lock and take no row locks."""
    import threading

    from django.core.exceptions import ValidationError
    from django.db import connections

    def run(count: int, call, load=None) -> list[str]:
        barrier, outcomes = threading.Barrier(count), []

        def one():
            try:
                loaded = load() if load else None
                barrier.wait()
                call(loaded) if load else call()
                outcomes.append("done")
            except ValidationError:
                outcomes.append("refused")
            except Exception as error:  # noqa: BLE001 - reported as an outcome, so the test names it
                outcomes.append(f"error: {type(error).__name__}: {error}")
            finally:
                connections.close_all()

        threads = [threading.Thread(target=one) for _ in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sorted(outcomes)

    return run
