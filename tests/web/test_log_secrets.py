"""Secrets stay out of the logs (issue 50): against gunicorn with its access log on and Django
logging at INFO, requests that carry an embed game's token, a challenge's and a replay's token,
a transfer code and a session key (in paths, queries and 404s, which Django's own django.request
logger writes with the path as asked) leave none of them in any line of the server's log.
"""

from __future__ import annotations

import secrets
import string
import time
from pathlib import Path

import pytest

from lucie.logmask import mask
from tests.web.live_gunicorn import running_gunicorn


def session_key() -> str:
    alphabet = string.ascii_lowercase + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(32))


@pytest.mark.slow
def test_no_secret_reaches_a_log_line(tmp_path: Path) -> None:
    embed, challenge, replay = (secrets.token_urlsafe(24) for _ in range(3))
    code, key = "ABCDEF2345", session_key()
    asked = [
        f"/embed/g/{embed}/",
        f"/fr/embed/g/{embed}/hint/",
        f"/challenge/{challenge}/",
        f"/replay/{replay}/",
        f"/stats/?code={code}",
        f"/nothing/{key}/",
        f"/?sessionid={key}",
    ]
    with running_gunicorn(tmp_path, GUNICORN_ACCESS_LOG="1", DJANGO_LOG_LEVEL="INFO") as server:
        player = server.player()
        for path in asked:
            assert player.get(path).status < 500, path
        time.sleep(0.5)  # the last lines flushed
        log = server.log.read_text()
    for secret in (embed, challenge, replay, code, key):
        leaked = [line for line in log.splitlines() if secret in line]
        assert leaked == [], leaked
    # The lines were written, masked: Django's 404 line and gunicorn's access line both.
    assert "Not Found: /embed/g/<token>/" in log
    assert '"GET /challenge/<token>/ HTTP/1.1" 404' in log
    assert "<session>" in log


def test_the_mask_leaves_an_ordinary_line_alone() -> None:
    line = 'GET /deal/20261204/move/ 200 3.1ms view=board:change "Mozilla/5.0"'
    assert mask(line) == line
