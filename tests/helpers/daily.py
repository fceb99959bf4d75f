"""Today's deal for a test: the site at a fixed moment, the daily page opened, a daily game
finished, a calendar cell read."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from contextlib import contextmanager

import time_machine
from django.core.cache import cache
from django.test import Client
from pytest_django.fixtures import Settings

from game import ending
from game.models import Game

NOON = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


@contextmanager
def site_at(
    settings: Settings, moment: dt.datetime, opened: str = "2026-01"
) -> Iterator[time_machine.Traveller]:
    """The site as it stands at `moment`: open since the month `opened` (YYYY-MM), with nothing in
    its cache from another test, and the clock stopped there."""
    settings.SITE_START_MONTH = opened
    cache.clear()
    with time_machine.travel(moment, tick=False) as traveller:
        yield traveller


def game_on_page(html: bytes) -> Game:
    found = re.search(rb'data-game="(\d+)"', html)
    assert found is not None, html[:500]
    return Game.objects.get(pk=int(found[1]))


def open_daily(client: Client, url: str = "/daily/") -> Game:
    """This client's game of the day: resumed, or dealt for real with the page's own POST (a
    browser with no session is shown the first board, and nothing is stored until it plays)."""
    response = client.get(url)
    assert response.status_code == 200
    if re.search(rb'data-game="\d+"', response.content) is None:
        assert client.post(url).status_code == 303
        response = client.get(url)
    return game_on_page(response.content)


def cell(html: str, day: str) -> str:
    """The calendar cell of `day` (YYYY-MM-DD), tag and contents."""
    found = re.search(rf'<td class="day[^"]*"\s+data-day="{day}".*?</td>', html, re.S)
    assert found is not None, f"no cell for {day}"
    return found[0]


def finished_daily(
    client: Client, number: int, status: str, started: dt.datetime, **fields: object
) -> Game:
    """A finished game of this client's session, stored as a change would leave it."""
    defaults: dict[str, object] = {
        "elapsed_ms": 252_000,
        "move_count": 93,
        "redeals_used": 2,
        "mercis_used": 1,
        "cards_home": 52 if status == Game.Status.WON else 31,
        "daily": True,
        "wall_ms": 300_000,
    }
    defaults.update(fields)
    key = client.session.session_key
    assert key is not None
    game = Game.objects.create(
        session_key=key,
        deal_number=number,
        rules="lucie",
        status=status,
        started_at=started,
        finished_at=started + dt.timedelta(minutes=5),
        **defaults,
    )
    # Its end, as the change that ends a game calls it (game/ending.py): the tally, the first
    # end and the challenge follow.
    ending.saved(game, ending.FRESH)
    return game
