"""Secrets kept out of every log line: a filter for Django's handlers (django.request's "Not
Found: /embed/g/…", django.security's lines, the request log) and a gunicorn logger whose access
line is masked the same way (gunicorn.conf.py).

What a line may carry that opens something: a session key (32 lowercase letters and digits, the
form Django issues, in a cookie header or a message), an embed game's token and a challenge's
or replay's token (in their paths, any language's prefix), and a transfer code or a token in a
query (`code=`, `token=`). Each is replaced by a word saying what stood there, so the line still
tells what happened. The request log already writes its own paths masked (lucie/middleware.py);
this catches the lines Django and gunicorn write themselves.
"""

from __future__ import annotations

import logging
import re

MASKS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(/embed/g/)[^/\s?#\"']+"), r"\1<token>"),
    (re.compile(r"(/challenge/)[^/\s?#\"']+"), r"\1<token>"),
    (re.compile(r"(/replay/)[^/\s?#\"']+"), r"\1<token>"),
    (re.compile(r"((?:^|[?&;\s])(?:code|token|sessionid)=)[^&;\s\"']*"), r"\1<secret>"),
    (re.compile(r"(?<![A-Za-z0-9])[a-z0-9]{32}(?![A-Za-z0-9])"), "<session>"),
)


def mask(text: str) -> str:
    """`text` with every secret it holds replaced by what it was."""
    for pattern, word in MASKS:
        text = pattern.sub(word, text)
    return text


class MaskSecrets(logging.Filter):
    """A logging filter that rewrites a record's message with its secrets masked (it never drops
    a record)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not format: left to the handler
            return True
        masked = mask(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True
