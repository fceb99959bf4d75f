"""A full disk for one test: every write the database is asked for fails as SQLite fails on a full
disk."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import OperationalError, connection

WRITES = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b", re.I)


@contextmanager
def full_disk() -> Iterator[list[str]]:
    """Every INSERT, UPDATE and DELETE fails as SQLite's do on a full disk; reads still work."""
    refused: list[str] = []

    def refuse_writes(
        execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        if WRITES.match(sql):
            refused.append(sql.split()[0])
            raise OperationalError("database or disk is full")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse_writes):
        yield refused
