from __future__ import annotations

from typing import NoReturn

import pytest
from django.db import OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client


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


def test_healthz_only_answers_get(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
