"""Fixtures and hooks shared by every test folder."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import _pytest.python
import pytest
import time_machine
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test import override_settings
from django.utils import translation

from tests.helpers.frame_stack import fresh_chunk
from tests.helpers.migrated import migrated_template
from tests.helpers.order import slow_ones_spread


def _answer_without_nagle() -> None:
    """The tests' live server (Django's development server, under pytest-django's
    `live_server`) writes an answer's headers and its body in two sends. On a kept-alive
    connection, Nagle's algorithm holds the body until the headers are acknowledged, and the
    client's kernel delays that acknowledgement by up to 40 ms: about 40 ms of nothing on every
    answer after a connection's first. gunicorn sets TCP_NODELAY on its sockets (production is
    not affected); the development server's handler can too."""
    from django.core.servers.basehttp import WSGIRequestHandler

    WSGIRequestHandler.disable_nagle_algorithm = True


_answer_without_nagle()

# Why each rerun's first run failed, printed at the end of a run (CI reruns: docs/testing.md).
pytest_plugins = ["tests.helpers.reruns"]

TESTS_DIR = Path(__file__).resolve().parent
SQLITE_FOLDER = pytest.StashKey[Path]()
CLOCK = pytest.StashKey[time_machine.travel]()
FROM_TEMPLATE = pytest.StashKey[bool]()
# The whole run at another moment (an ISO datetime, UTC unless it says otherwise), the clock
# ticking from there: `LUCIE_TEST_CLOCK=2028-02-29T12:00:00Z make test`. Every test must pass
# whatever the date; tests/web/test_any_date.py runs the date-minded ones at several.
CLOCK_VARIABLE = "LUCIE_TEST_CLOCK"


def moved_clock() -> dt.datetime | None:
    """The moment the run was moved to, or None for the real clock."""
    value = os.environ.get(CLOCK_VARIABLE, "").strip()
    if not value:
        return None
    moment = dt.datetime.fromisoformat(value)
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_Order(), "lucie-order")
    moment = moved_clock()
    if moment is not None:
        # Started before Django or any test reads the clock; every thread (the live server's
        # included) sees it. Tests that travel on their own nest inside it.
        traveller = time_machine.travel(moment, tick=True)
        traveller.start()
        config.stash[CLOCK] = traveller
    # Tests never run collectstatic: use plain static names and let WhiteNoise
    # find files in the source folders, whatever DJANGO_STATIC_MANIFEST says.
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # Rate limits are off (a test run makes hundreds of games from one address within a minute),
    # except where tests/web/test_limits.py turns them on to test them.
    override_settings(
        STORAGES=storages,
        WHITENOISE_USE_FINDERS=True,
        WHITENOISE_AUTOREFRESH=True,
        RATELIMIT_ENABLE=False,
        # Searches in the test's own thread, where monkeypatches see them (test_limits.py runs
        # one through a compute process).
        COMPUTE_PROCESSES=False,
        # The admin's login checks a password even for a user who does not exist, and the
        # production hasher is made to take a fifth of a second of CPU (test_limits.py's login
        # test spent 2 s on ten guesses). No test is about the hash itself.
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    ).enable()
    # SQLite's test database is a file, not memory: an in-memory database is one connection that
    # the live server's threads would share, and two requests at once (a move and the timer's
    # beacon) would then collide inside one transaction. A file gives each thread its own
    # connection, as in production. (pytest-django adds a suffix per xdist worker.)
    # With CACHE_URL the cache is one Redis, and each test empties it (see _empty_cache): give
    # each pytest-xdist worker a Redis database of its own (gw0 uses 1, gw1 uses 2, ...) so that
    # one worker's test does not empty another's cache halfway through.
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    cache_config = settings.CACHES["default"]
    redis = cache_config["BACKEND"].endswith("RedisCache")
    if redis:
        # Production gives up on Redis after 100 ms and answers from the process's memory for a
        # few seconds (lucie/cache.py). A test machine loaded by a whole suite can keep a healthy
        # Redis waiting longer than that, and a test of what the servers share would then count
        # in memory instead: a second here. tests/web/test_degrade.py times production's own
        # timeouts against a Redis of its own.
        options = {**cache_config.get("OPTIONS", {})}
        options.update(socket_timeout=1.0, socket_connect_timeout=1.0)
        cache_config = {**cache_config, "OPTIONS": options}
    if worker.startswith("gw") and redis and cache_config["LOCATION"].startswith("redis"):
        parts = urlsplit(cache_config["LOCATION"])
        number = int(worker.removeprefix("gw")) % 15 + 1
        cache_config = {
            **cache_config,
            "LOCATION": urlunsplit(parts._replace(path=f"/{number}")),
        }
    # Sessions are cached where production caches them when it has a shared cache (the Redis
    # above), and in this process's memory otherwise: the test client and the live server are
    # one process, so that cache cannot go stale (a gunicorn started by a test reads its own
    # settings, and without CACHE_URL reads sessions from the database).
    sessions = cache_config if redis else {**cache_config, "LOCATION": "sessions"}
    override_settings(CACHES={"default": cache_config, "sessions": sessions}).enable()
    # Jobs run in the request that asks for them, in memory (game/ops/queue.py); the tests that
    # watch real workers start `manage.py work` against a live server's queue.
    from game.ops.queue import huey

    huey.immediate = True
    database = settings.DATABASES["default"]
    if database["ENGINE"] == "django.db.backends.sqlite3":
        folder = Path(tempfile.mkdtemp(prefix="lucie-tests-"))
        database.setdefault("TEST", {})["NAME"] = str(folder / "test.sqlite3")
        config.stash[SQLITE_FOLDER] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    traveller = config.stash.get(CLOCK, None)
    if traveller is not None:
        traveller.stop()
    folder = config.stash.get(SQLITE_FOLDER, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


# ---------------------------------------------------------------- the migrated template
# Migrating a test database takes seconds, and each pytest-xdist worker of each run did it again.
# On SQLite the first worker to migrate keeps a copy of the migrated file, named by what the
# schema depends on (the migrations' text and Django's version); every later worker and run
# starts from a copy of it and only checks that nothing is left to migrate. PostgreSQL migrates
# each worker's database as before (docs/testing.md).
def sqlite_test_file() -> Path | None:
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return None
    return Path(database["TEST"]["NAME"])


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    request: pytest.FixtureRequest, django_db_modify_db_settings_parallel_suffix: None
) -> None:
    """Start this worker's SQLite test database as a copy of the migrated template, if one is
    kept (after pytest-django gave the file its worker's suffix)."""
    test_file = sqlite_test_file()
    template = migrated_template()
    if test_file is None or not template.exists() or request.config.getvalue("nomigrations"):
        return
    shutil.copyfile(template, test_file)
    request.config.stash[FROM_TEMPLATE] = True


@pytest.fixture(scope="session")
def django_db_keepdb(request: pytest.FixtureRequest, django_db_modify_db_settings: None) -> bool:
    """A database copied from the template is kept as it is (Django then only migrates what is
    missing, which is nothing); it is deleted with the run's folder."""
    return bool(request.config.getvalue("reuse_db")) or request.config.stash.get(
        FROM_TEMPLATE, False
    )


@pytest.fixture(scope="session")
def django_db_setup(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: Any
) -> None:
    """After the first migration, keep the migrated file as the template for the next ones."""
    test_file = sqlite_test_file()
    if (
        test_file is None
        or request.config.stash.get(FROM_TEMPLATE, False)
        or request.config.getvalue("nomigrations")
    ):
        return
    template = migrated_template()
    template.parent.mkdir(parents=True, exist_ok=True)
    partial = template.with_name(f"{template.name}.{os.getpid()}.partial")
    # SQLite's backup API: a consistent copy even with the write-ahead log open. Then a rename,
    # so a worker never copies a template that another is still writing.
    with django_db_blocker.unblock():
        source = sqlite3.connect(test_file)
        target = sqlite3.connect(partial)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
    os.replace(partial, template)


def pytest_report_header(config: pytest.Config) -> list[str]:
    host = connection.settings_dict.get("HOST") or "local file or memory"
    moment = moved_clock()
    clock = f"moved to {moment.isoformat()}" if moment else "the real one"
    return [f"database: {connection.vendor} ({host})", f"clock: {clock}"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/browser is marked `browser`, before `-m` selects on the marks."""
    browser_dir = TESTS_DIR / "browser"
    for item in items:
        if item.path.is_relative_to(browser_dir):
            item.add_marker(pytest.mark.browser)


class _Order:
    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(
        self, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        """The run's order (tests/helpers/order.py), once `-m` has left only the tests that run:
        pytest-xdist splits that list, not the whole suite."""
        workers = getattr(config, "workerinput", {}).get("workercount", 1)
        items[:] = slow_ones_spread(items, workers)


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> object | None:
    """pytest's own call of the test function, at the start of a fresh chunk of the frame stack
    (tests/helpers/frame_stack.py). Not for a browser test: its pages are served by the live
    server's own thread, and the browser is driven from greenlets that keep stacks of their own."""
    if pyfuncitem.get_closest_marker("browser"):
        return None
    return fresh_chunk(lambda: _pytest.python.pytest_pyfunc_call(pyfuncitem))


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    """Every test starts with an empty cache.

    With CACHE_URL set the cache is a Redis that outlives the test process, so figures or
    counters left by an earlier test (or an earlier run) would otherwise leak into this one. The
    cache empties Redis even while it remembers an outage an earlier test met (lucie/cache.py):
    skipping it left a rate limit's counts to the next test, and CI's PostgreSQL pass once
    refused a test's hints after 42 of 120."""
    for alias in settings.CACHES:
        caches[alias].clear()


@pytest.fixture(autouse=True, scope="session")
def _finished_hint_searches_remembered() -> Iterator[None]:
    """A hint searched to its end is searched once per test process, not once per test.

    Each board carries its hint (game/board/hints.py's `ready`), and the cache that keeps a
    searched hint is emptied before every test, so the suite searched the same openings of the
    same few deals hundreds of times. A search that finished is a pure function of the position
    (game/engine/hint.py), so its answer is kept here for the process: the board still asks the
    cache, charges the client's hint budget and takes a compute slot as in production; only the
    search's CPU is skipped. A search the deadline cut short is what a loaded moment found, so
    it is never kept. A test that replaces `hints.fair_hint` replaces this too."""
    from game.board import hints
    from game.engine import Position
    from game.engine.fair import FairMove
    from game.engine.hint import fair_hint

    known: dict[Position, FairMove | None] = {}

    # game/board/hints.py asks with the board's deadline alone: `fair_hint(position)`.
    def remembered(position: Position) -> FairMove | None:
        if position in known:
            return known[position]
        found = fair_hint(position)
        if found is None or not found.cut:
            known[position] = found
        return found

    hints.fair_hint = remembered
    yield
    hints.fair_hint = fair_hint


@pytest.fixture(autouse=True)
def _queue_up() -> None:
    """A queue that a test made fail is not remembered as down by the next (game/ops/queue.py)."""
    from game.ops import queue

    queue._Down.until = 0.0


@pytest.fixture(autouse=True)
def _fresh_health() -> None:
    """/healthz reuses its answer for a second per process (lucie/views.py): a test reads the
    health of its own database, not the answer an earlier test in this process was given."""
    import lucie.views

    lucie.views._last_check = lucie.views._LastCheck()


@pytest.fixture(autouse=True)
def _english_outside_requests() -> Iterator[None]:
    """Every test starts in English, whatever the last one asked for.

    LocaleMiddleware activates a request's language for the thread and leaves it active after
    the response, so a test that fetched a French page would otherwise leave French active for
    the next test's code outside any request (pytest-randomly runs them in any order)."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)
