"""The session store (lucie/sessions.py): a session is read once, from the cache when it holds
it; a key the database does not hold alive, or not of the form Django issues, reads as none; and
a live session is renewed once a day at most (lucie.middleware.SessionRenewalMiddleware)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from lucie.middleware import RENEWED
from lucie.sessions import SessionStore

pytestmark = pytest.mark.django_db


def stored_session() -> str:
    session = SessionStore()
    session["player"] = True
    session.save()
    key = session.session_key
    assert key is not None
    return key


def test_a_session_is_read_once_and_then_from_the_cache() -> None:
    key = stored_session()
    caches["sessions"].clear()
    with CaptureQueriesContext(connection) as cold:
        first = SessionStore(key)
        assert first.get("player") is True
        assert first.session_key == key
    with CaptureQueriesContext(connection) as warm:
        again = SessionStore(key)
        assert again.session_key == key
        assert again.get("player") is True
    assert len(cold.captured_queries) == 1
    assert len(warm.captured_queries) == 0


@pytest.mark.parametrize("first", ["data", "key"])
def test_a_session_with_no_cache_is_one_query_whatever_is_read_first(first: str) -> None:
    # Without CACHE_URL the sessions' cache is a dummy (lucie.settings.session_cache_config):
    # reading the data first used to load the session twice, once for the key's check.
    key = stored_session()
    dummy = {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    no_cache = override_settings(CACHES={**settings.CACHES, "sessions": dummy})
    with no_cache, CaptureQueriesContext(connection) as queries:
        session = SessionStore(key)
        if first == "data":
            assert session.get("player") is True
        assert session.session_key == key
        assert session.get("player") is True
    assert len(queries.captured_queries) == 1


def test_a_deleted_session_key_reads_as_none() -> None:
    key = stored_session()
    SessionStore(key).delete()
    assert SessionStore(key).session_key is None


@pytest.mark.parametrize("forged", ["x" * 41, "ABCDEFGH12", "abc\x00defgh", "short"])
def test_a_key_not_of_our_form_is_none_and_never_looked_up(forged: str) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert SessionStore(forged).session_key is None
    assert queries.captured_queries == []


def test_a_live_session_is_renewed_once_a_day(client: Client) -> None:
    with time_machine.travel(dt.datetime(2027, 2, 28, 23, 0, tzinfo=dt.UTC), tick=False):
        client.post("/deal/5/")  # a client that does not enforce CSRF, as a test's
        key = client.session.session_key
        assert key is not None
        client.get("/")
        first_expiry = Session.objects.get(session_key=key).expire_date
        assert client.session[RENEWED] == "2027-02-28"
        # Later the same day: nothing is written, no cookie is sent again.
        with time_machine.travel(dt.datetime(2027, 2, 28, 23, 50, tzinfo=dt.UTC), tick=False):
            later = client.get("/")
        assert "sessionid" not in later.cookies
    # The next day (1 March): the session is written with a new expiry and the cookie sent again.
    with time_machine.travel(dt.datetime(2027, 3, 1, 0, 10, tzinfo=dt.UTC), tick=False):
        renewed = client.get("/")
        assert "sessionid" in renewed.cookies
        assert client.session[RENEWED] == "2027-03-01"
    assert Session.objects.get(session_key=key).expire_date - first_expiry > dt.timedelta(hours=1)
