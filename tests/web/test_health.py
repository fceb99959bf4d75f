from __future__ import annotations

from typing import NoReturn

import pytest
from django.core.cache import cache
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client

import lucie.views


@pytest.mark.django_db
def test_healthz_says_ok_while_the_database_answers(client: Client) -> None:
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok"
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
    assert response.content == b"database unavailable\n"


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
    assert response.content == b"cache unavailable\n"


@pytest.mark.django_db
def test_healthz_names_both_when_both_fail(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_cursor(self: BaseDatabaseWrapper) -> NoReturn:
        raise OperationalError("the database went away")

    monkeypatch.setattr(BaseDatabaseWrapper, "cursor", broken_cursor)
    monkeypatch.setattr(lucie.views, "cache", DownCache())

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.content == b"database unavailable\ncache unavailable\n"


@pytest.mark.django_db
def test_healthz_writes_and_reads_the_real_cache(client: Client) -> None:
    """Against whatever CACHE_URL names (Redis in CI's PostgreSQL run)."""
    assert client.get("/healthz").status_code == 200
    assert cache.get(lucie.views.HEALTH_KEY) == "ok"
