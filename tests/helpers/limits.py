"""The day whose figures a cheat tries to forge, and everyone's page on it."""

from __future__ import annotations

import datetime as dt
import functools
import re

from django.core.cache import cache
from django.test import Client

from game import engine
from game.engine import solver

CHEAT_DAY = dt.datetime(2026, 11, 15, 12, tzinfo=dt.UTC)


CHEAT_DEAL = 20261115


@functools.cache
def winning_line() -> tuple[str, ...]:
    """A winning line of the cheat day's deal, as Show a win gives it (the real solver)."""
    found = solver.solve(engine.Play(CHEAT_DEAL).position, time_limit=30)
    assert found.status == "won"
    return tuple(move.text for move in found.moves)


def everyone_on_the_cheat_day(client: Client) -> dict[str, str]:
    cache.clear()
    html = client.get("/daily/2026/11/").content.decode()
    row = re.search(r'<tr[^>]*data-day="2026-11-15"[^>]*>.*?</tr>', html, re.S)
    assert row is not None
    return dict(re.findall(r'data-figure="([\w-]+)">([^<]*)<', row[0]))
