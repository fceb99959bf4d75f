"""Helpers for the tests of the daily loop (the rank, challenges, the month's badge): finished
games stored as a change leaves them, and a page's marked parts read back."""

from __future__ import annotations

import datetime as dt
import re

from django.test import Client

from game import ending
from game.models import Game


def session_of(client: Client) -> str:
    """The client's session key, made and saved if it has none yet."""
    session = client.session
    if session.session_key is None:
        session["player"] = True
        session.save()
        client.cookies["sessionid"] = session.session_key
    key = session.session_key
    assert key is not None
    return key


def finished(
    key: str,
    number: int,
    status: str = Game.Status.WON,
    *,
    started: dt.datetime,
    rules: str = "lucie",
    entry: bool = True,
    network: str = "",
    **fields: object,
) -> Game:
    """A finished game of `number` for session `key`, saved through the ORM (so the tally and the
    ranks follow, as after a real game): a daily entry by default, begun from the daily page."""
    values: dict[str, object] = {
        "elapsed_ms": 240_000,
        "wall_ms": 250_000,
        "move_count": 90,
        "cards_home": 52 if status == Game.Status.WON else 30,
    }
    values.update(fields)
    game = Game.objects.create(
        session_key=key,
        deal_number=number,
        rules=rules,
        status=status,
        started_at=started,
        finished_at=started + dt.timedelta(minutes=5),
        daily=entry,
        daily_entry=entry,
        network=network or (f"net-{key}"[:16] if entry else ""),
        **values,
    )
    # Its end, as the change that ends a game calls it (game/ending.py): the tally, the first
    # end and the challenge follow.
    ending.saved(game, ending.FRESH)
    return game


def percentiles(html: str) -> list[int]:
    """Every `data-percentile` on the page, in order."""
    return [int(value) for value in re.findall(r'data-percentile="(\d+)"', html)]


def challenge_links(html: str) -> list[str]:
    """The href of every `<a data-challenge>` on the page."""
    return re.findall(r'<a class="button" data-challenge href="([^"]+)"', html)


def text_of(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", fragment).split())


def marked(html: str, attribute: str) -> str:
    """The element (tag and contents, to its section's end) that carries `attribute`."""
    found = re.search(rf"<(\w+)[^>]*\s{re.escape(attribute)}.*?</\1>", html, re.S)
    assert found is not None, f"nothing marked {attribute}"
    return found[0]
