"""The writes a request sends to the database, caught where they leave for it
(`connection.execute_wrapper`), for the tests that a GET only reads."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.I)


class Writes:
    """The writes sent to the database, other than the session's."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        if WRITES.match(sql) and "django_session" not in sql:
            self.seen.append(sql)
        return execute(sql, params, many, context)
