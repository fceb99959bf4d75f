from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import NoReturn

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.db import OperationalError, connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client

import lucie.views


@pytest.mark.django_db
def test_healthz_says_ok_while_the_database_answers(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content.split(b"\n")[0] == b"ok"
    assert response.cookies == {}
    assert "Cookie" not in response.get("Vary", "")


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_fails(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_cursor(self: BaseDatabaseWrapper) -> NoReturn:
        raise OperationalError("the database went away")

    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", broken_cursor)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.content.startswith(b"database unavailable\n")


def test_healthz_only_answers_get(client: Client) -> None:
    assert client.post("/healthz").status_code == 405


class DownCache:
    def set(self, *args: object, **kwargs: object) -> NoReturn:
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    get = set


class ForgetfulCache:
    def set(self, *args: object, **kwargs: object) -> None:
        return None

    def get(self, *args: object, **kwargs: object) -> None:
        return None


@pytest.mark.django_db
@pytest.mark.parametrize("broken", [DownCache(), ForgetfulCache()], ids=["down", "keeps nothing"])
def test_healthz_is_503_naming_the_cache_when_it_fails(
    client: Client, monkeypatch: pytest.MonkeyPatch, broken: object
) -> None:
    monkeypatch.setattr(lucie.views, "cache", broken)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.content.startswith(b"cache unavailable\n")


@pytest.mark.django_db
def test_healthz_names_both_when_both_fail(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_cursor(self: BaseDatabaseWrapper) -> NoReturn:
        raise OperationalError("the database went away")

    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", broken_cursor)
    monkeypatch.setattr(lucie.views, "cache", DownCache())

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.content.startswith(b"database unavailable\ncache unavailable\n")


@pytest.mark.django_db
def test_healthz_writes_and_reads_the_real_cache(client: Client) -> None:
    """Against whatever CACHE_URL names (Redis in CI's PostgreSQL run)."""
    assert client.get("/healthz").status_code == 200
    assert cache.get(lucie.views.HEALTH_KEY) == "ok"


@pytest.mark.django_db
def test_a_flood_of_probes_checks_once_a_second(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    checks: list[str] = []

    def checker(name: str) -> Callable[[], bool]:
        def check() -> bool:
            checks.append(name)
            return True

        return check

    monkeypatch.setattr(lucie.views, "_database", checker("database"))
    monkeypatch.setattr(lucie.views, "_cache", checker("cache"))
    clock = [1000.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])

    answers = [client.get("/healthz").status_code for _ in range(50)]
    clock[0] += lucie.views.HEALTH_REUSE_SECONDS
    answers.append(client.get("/healthz").status_code)

    assert answers == [200] * 51
    assert checks == ["database", "cache"] * 2


# ---------------------------------------------------------------- a database that cannot write


@pytest.fixture
def read_only_database() -> Iterator[None]:
    """The database itself refuses every write on this connection, as a read-only database
    does: SQLite's query_only, PostgreSQL's default_transaction_read_only."""
    on, off = {
        "sqlite": ("PRAGMA query_only = ON", "PRAGMA query_only = OFF"),
        "postgresql": (
            "SET default_transaction_read_only = on",
            "SET default_transaction_read_only = off",
        ),
    }[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(on)
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(off)


@pytest.mark.django_db(transaction=True)
def test_healthz_is_503_when_the_database_answers_reads_but_refuses_writes(
    client: Client, read_only_database: None
) -> None:
    """A full disk or a read-only database answers `SELECT 1` and fails every move: a load
    balancer must take the server out (issue 19: it said 200 ok)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")  # reads still work

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.content.startswith(b"database unavailable\n")


@pytest.mark.django_db(transaction=True)
def test_the_health_checks_write_leaves_nothing_behind(client: Client) -> None:
    assert client.get("/healthz").status_code == 200
    assert client.head("/healthz").status_code == 200

    assert not Session.objects.exists()
