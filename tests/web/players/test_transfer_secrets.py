"""A transfer code is a secret: only ever posted, never in a URL or the request log; a refused
code stores nothing, not even a session; and no script can read the CSRF cookie."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client

from game import engine
from game.models import Game

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "static"


def _code_of(client: Client) -> str:
    page = client.post("/stats/transfer/code/").content.decode()
    code = re.search(r'data-transfer="code">([A-Z0-9-]+)<', page)
    assert code is not None, page
    return code[1]


def _a_session_with_a_game(client: Client) -> None:
    move = min(move.text for move in engine.legal_moves(engine.Position.start(5)))
    answer = client.post("/deal/5/move/", {"n": "0", "move": move})
    assert answer.status_code == 303, answer.content[:300]


def test_the_csrf_cookie_is_http_only(client: Client) -> None:
    page = client.get("/stats/transfer/")
    assert page.status_code == 200
    assert page.cookies["csrftoken"]["httponly"] is True


def test_no_script_reads_a_cookie() -> None:
    # htmx and the timer's beacon take the token from the hx-headers on <body>.
    readers = [
        path.relative_to(STATIC)
        for path in STATIC.rglob("*.js")
        if "document.cookie" in path.read_text(encoding="utf-8")
    ]
    assert readers == []


def test_a_shown_code_comes_with_no_link(client: Client) -> None:
    _a_session_with_a_game(client)
    page = client.post("/stats/transfer/code/").content.decode()
    code = re.search(r'data-transfer="code">([A-Z0-9-]+)<', page)
    assert code is not None
    assert page.count(code[1]) == 1
    assert "?code=" not in page


def test_the_request_log_never_writes_a_code(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="lucie.requests"):
        answer = client.get("/stats/transfer/?rules=all&code=ABCDE-23456")
    lines = [record.getMessage() for record in caplog.records if record.name == "lucie.requests"]
    assert answer.status_code == 302
    assert answer["Location"] == "/stats/transfer/"
    assert len(lines) == 1
    # The log mask (lucie/logmask.py) writes any code in a query as <secret>.
    assert lines[0].startswith("GET /stats/transfer/?rules=all&code=<secret> 302 ")
    assert "ABCDE" not in lines[0]


@pytest.mark.parametrize("code", ["ABCDE-23456", "not a code", ""])
def test_a_refused_code_from_a_new_browser_stores_no_session(code: str) -> None:
    owner, stranger = Client(), Client()
    _a_session_with_a_game(owner)
    _code_of(owner)
    sessions = Session.objects.count()
    answer = stranger.post("/stats/transfer/use/", {"code": code})
    assert answer.status_code == 400
    assert Session.objects.count() == sessions
    assert settings.SESSION_COOKIE_NAME not in answer.cookies


def test_a_good_code_from_a_new_browser_makes_its_session() -> None:
    owner, newcomer = Client(), Client()
    _a_session_with_a_game(owner)
    code = _code_of(owner)
    answer = newcomer.post("/stats/transfer/use/", {"code": code})
    assert answer.status_code == 200
    key = newcomer.session.session_key
    assert key is not None
    assert Game.objects.filter(session_key=key).count() == 1
