"""Named fixtures for tests that need real parts: a live ASGI server, a Celery worker,
and a headless Chromium driven by Playwright."""

import os
import socket
import threading
import time
import uuid
from pathlib import Path

import pytest
import uvicorn
from celery.contrib.testing.worker import start_worker

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    *os.environ.get("CHROMIUM_EXTRA_ARGS", "").split(),
]
# Playwright's sync API refuses to run while an asyncio loop runs in the thread; Django's
# async-unsafe guard would otherwise complain about ORM calls made from such tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_sessionstart(session):
    """With REDIS_URL unset, the settings name the embedded Redis of VAR_DIR but start
    nothing (infra/embedded_redis.py): the session starts it, as `manage.py serve` does,
    and stops it when it ends (reusing one that answers already)."""
    from django.conf import settings

    from infra import embedded_redis
    from infra.env import env

    xdist_controller = session.config.getoption("numprocesses", None) and not hasattr(
        session.config, "workerinput"
    )
    if xdist_controller:
        return  # it runs no test; each worker starts its own (tests/xdist_worker.py)
    if not env("REDIS_URL"):
        embedded_redis.ensure_running(settings.VAR_DIR / "redis")


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, whose last step drops it: live servers' worker
    threads end holding their connections, and PostgreSQL will not drop a database in
    use, so those sessions are ended first.

    The arena schedules a new site gets (arenas/migrations/0002_default_schedules.py) are
    removed first: tests start from a site with no schedule, as a flush after any
    transactional test would leave it anyway, so no test depends on the order it runs in.
    """
    from arenas.models import ArenaSchedule

    with django_db_blocker.unblock():
        ArenaSchedule.objects.all().delete()
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            # A fault test may have ended this connection on the server (its outage spares
            # the connection it is given, not one opened again since): a fresh one.
            connection.close()
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    """The real ASGI application (HTTP + websockets) under uvicorn, in a thread."""

    def __init__(self):
        from config.asgi import application

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            application, host="127.0.0.1", port=self.port, lifespan="off", log_level="warning"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self):
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the live server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="session", autouse=True)
def collected_static(tmp_path_factory, django_db_blocker):
    """Serve static files as production does: hashed names from a collected manifest."""
    from django.core.management import call_command
    from django.test.utils import override_settings

    # override_settings (not assignment) also drops the storage built for the old root.
    override_settings(STATIC_ROOT=tmp_path_factory.mktemp("static")).enable()
    call_command("collectstatic", interactive=False, verbosity=0)
    # A test module may have imported the ASGI app already; WhiteNoise read STATIC_ROOT
    # when its middleware was built, so build the chain again.
    from config.asgi import django_asgi_app

    django_asgi_app.load_middleware(is_async=True)


@pytest.fixture(autouse=True)
def fresh_create_counts(settings):
    """Each test counts room and arena creations, sign-ups and reset mails afresh: the
    cache (Redis) outlives tests, and on PostgreSQL a new run gives players the last run's
    ids again."""
    settings.ROOM_CREATE_KEY_PREFIX = f"room-create-test-{uuid.uuid4().hex}"
    settings.ARENA_CREATE_KEY_PREFIX = f"arena-create-test-{uuid.uuid4().hex}"
    settings.ACCOUNT_LIMITS_KEY_PREFIX = f"account-limit-test-{uuid.uuid4().hex}"


@pytest.fixture
def asgi_server(transactional_db):
    """A live server; the test's data is committed, so its threads can read it."""
    with LiveServer() as server:
        yield server


@pytest.fixture
def celery_worker(transactional_db):
    """A real Celery worker consuming from the real broker, in a thread of this process."""
    from config.celery import app

    queues = ["celery", "pools"]
    # Tasks left queued by earlier tests point at rows now gone, or would run beside this
    # test (a pool refill, say). (`app.control.purge()` empties only the default queue.)
    with app.connection_for_write() as connection:
        for queue in queues:
            connection.default_channel.queue_purge(queue)
    with start_worker(
        app,
        pool="solo",
        perform_ping_check=False,
        shutdown_timeout=30,
        queues=queues,
    ) as worker:
        yield worker


@pytest.fixture
def race_of_two_past_go(settings, transactional_db):
    """Ana and Bo racing already (no countdown: "go" at once), on a fixed deal, their
    data committed: (room, [ana, bo])."""
    from rooms.race import actions as races
    from tests.rooms.rooms_helpers import room_with

    settings.RACE_COUNTDOWN_SECONDS = 0
    room, players = room_with("Ana", "Bo")
    races.start_race(players[0], room.code, seed=7)
    return room, players


def pytest_configure(config):
    from tests import table_reset

    table_reset.install()
    config.addinivalue_line(
        "markers", "countdown(seconds): the race countdown short_countdown sets instead"
    )


@pytest.fixture
def short_countdown(request, settings):
    """A race's countdown of one second: "go" comes soon, and a page still has the time
    to show the count. A module that draws no page may ask for less with
    `pytest.mark.countdown(seconds)`."""
    mark = request.node.get_closest_marker("countdown")
    settings.RACE_COUNTDOWN_SECONDS = mark.args[0] if mark else 1


@pytest.fixture
def device(client):
    """The test client as one device playing solo practice
    (tests.practice.practice_helpers.Device)."""
    from tests.practice.practice_helpers import Device

    return Device(client)


@pytest.fixture
def fresh_deal_caches():
    """Stored layouts' deals read afresh: ids are reused between tests' databases, so a
    cached U code would be stale (before the test, and after it for the next one)."""
    from tests.layouts.layouts_helpers import forget_cached_deals

    forget_cached_deals()
    yield
    forget_cached_deals()


@pytest.fixture(autouse=True)
def fresh_check_counts(monkeypatch):
    """Each test counts the layout pages' checks and stores afresh: the cache outlives
    tests."""
    from layouts import throttle

    monkeypatch.setattr(throttle, "KEY_PREFIX", f"layout-check-test-{uuid.uuid4().hex}")


@pytest.fixture(autouse=True)
def no_pair_floor(settings):
    """Most tests play pairs faster than a hand can (an injected clock, a script, a quick
    browser): the pace floor is off, and so is practice's pace flag. tests/rooms/test_pace.py
    and tests/practice/test_practice_pace.py turn them on."""
    settings.PAIR_FLOOR_MS = 0
    settings.PRACTICE_PACE_FLAGS = False


@pytest.fixture
def throttle(monkeypatch, settings):
    """The login form's throttle on a fresh cache and a fake clock (`throttle.clock`),
    and a fast password hasher: tests that log in, or fail to, dozens of times."""
    from tests.accounts.accounts_helpers import FAST_HASHERS, use_fresh_throttle

    settings.PASSWORD_HASHERS = FAST_HASHERS
    return use_fresh_throttle(monkeypatch)


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_device(chromium):
    """`new_device(**options)`: a page in a browser context of its own, that is another
    device with its own cookies (a second player, an account's second phone). Options
    go to Playwright's new_context (locale, viewport, has_touch); accept_dialogs=True
    says yes to confirm() ("Give up?"). Every context is closed when the test ends."""
    contexts = []

    def open_page(accept_dialogs=False, **options):
        context = chromium.new_context(**options)
        contexts.append(context)
        if accept_dialogs:
            context.on("dialog", lambda dialog: dialog.accept())
        page = context.new_page()
        page.set_default_timeout(10_000)
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_device):
    """The test's one device, in English with the default window."""
    return new_device()


# The longest tests, with about how long each took in a full run (seconds, from a run's
# --junitxml): they are handed out first (pytest_collection_modifyitems), so the workers
# (`--maxschedchunk 1` in bin/test: a worker takes one test ahead at a time) end together
# instead of one running a long test alone at the end. A name here matches a test's node
# id up to its parameters; a test renamed only loses its place. The browser tests run
# after the others, so each part's numbers are compared only among themselves: the
# others' from a full run on four workers (PostgreSQL), the browser tests' from
# `-m browser` on three workers beside another session's test run (SQLite, 2026-12-08).
LONG_TESTS = {
    "tests/ops/test_chaos_short.py::": 144,
    "tests/ops/test_multihost.py::test_a_killed_web_host": 43,
    "tests/security/test_hostile_sockets.py::test_a_socket_to_any_room_code": 33,
    "tests/ops/test_layer_faults.py::test_events_reach_sockets": 19,
    "tests/rooms/test_pace.py::test_a_socket_script": 17,
    "tests/rooms/test_standings_pace.py::": 15,
    "tests/ops/test_operator_terminal.py::test_serve_starts_redis": 14,
    "tests/ops/test_layer_faults.py::test_rooms_on_a_layer_shard": 12,
    # the browser tests
    "tests/browser/test_accessibility.py::test_no_page_of_the_site_map": 100,
    "tests/browser/test_arenas_browser.py::test_two_players": 93,
    "tests/browser/test_five_races.py::": 92,
    "tests/browser/test_board_fit.py::test_every_built_in_layout_fits_the_practice_page"
    "_without_scrolling[desktop]": 79,
    "tests/browser/test_board_fit.py::test_every_built_in_layout": 45,
    "tests/browser/test_three_races.py::": 36,
    "tests/browser/test_race_reconnect.py::test_with_the_server_stopped": 31,
    "tests/browser/test_site_map.py::test_no_page_is_wider": 26,
    "tests/browser/test_accessibility.py::test_on_a_phone_every_button": 26,
    "tests/browser/test_screen_details.py::test_a_past_week": 25,
    "tests/browser/test_race_reconnect.py::test_a_tab_back_from_sleep": 22,
    "tests/browser/test_race_browser.py::test_three_players_race": 22,
    "tests/browser/test_race_screens.py::test_a_finished_player_sees_the_clock_stop": 21,
    "tests/browser/test_ranked_pages_browser.py::test_matched_players": 21,
    "tests/browser/test_race_reconnect.py::test_a_board_cleared": 21,
    "tests/browser/test_screen_details.py::test_your_own_row": 20,
    "tests/browser/test_lighthouse.py::": 20,
    "tests/browser/test_phone_design.py::test_on_a_phone_every_checkbox": 18,
    "tests/browser/test_offline_browser.py::test_an_offline_practice_game": 18,
    "tests/browser/test_open_rooms_browser.py::test_a_room_the_owner_lists": 18,
    "tests/browser/test_accessibility.py::test_the_style_page": 18,
    "tests/browser/test_screen_details.py::test_a_refused_arena": 17,
    "tests/browser/test_screen_details.py::test_racing_your_own_ghost": 17,
    "tests/browser/test_accounts_browser.py::test_records_made_before_signing_up": 16,
    "tests/browser/test_screen_details.py::test_an_arena_race_names": 15,
    "tests/browser/test_race_loop.py::test_another_game_from_the_lobby": 15,
    "tests/browser/test_phone_design.py::test_a_stored_layouts_card": 15,
    "tests/browser/test_accessibility.py::test_the_race_page": 13,
    "tests/browser/test_arena_screens.py::test_the_arena_screens_fit": 12,
}


def expected_seconds(item) -> float:
    for prefix, seconds in LONG_TESTS.items():
        if item.nodeid.startswith(prefix):
            return seconds
    return 0


def transactional(item) -> bool:
    """pytest-django runs the tests that flush the database after those that roll back
    (its own ordering, kept here): a flush also empties the rows the migrations made."""
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    return bool(
        "transactional_db" in fixtures
        or "live_server" in fixtures
        or (marker and (marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")))
    )


def pytest_collection_modifyitems(config, items):
    """Browser tests run last: Playwright's sync API keeps an event loop running in the
    main thread for the rest of the session, which async tests cannot share. Before
    them the tests that roll back or use no database, then those that flush it (as
    pytest-django orders them); within each part the longest first (LONG_TESTS), the
    rest in their order."""
    for item in items:
        if "page" in getattr(item, "fixturenames", ()) or "chromium" in getattr(
            item, "fixturenames", ()
        ):
            item.add_marker(pytest.mark.browser)
    items.sort(
        key=lambda item: (
            item.get_closest_marker("browser") is not None,
            transactional(item),
            -expected_seconds(item),
        )
    )


@pytest.fixture(autouse=True)
def default_language():
    """A request through the test client leaves its language active in the thread (the
    middleware activates it and nothing resets it); start every test in English."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_daily_firsts(monkeypatch):
    """Each test reads past days' daily-challenge first wins afresh: the cache that keeps
    them (records/leaderboards.py DAILY_FIRSTS) outlives tests, and tests reuse days."""
    from records import leaderboards

    monkeypatch.setattr(leaderboards, "DAILY_FIRSTS", f"daily-firsts-test-{uuid.uuid4().hex}")
