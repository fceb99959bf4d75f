"""A counted daily result stays counted: a transfer cannot take a loss out of everyone's figures.

The sequence tried as an attacker would: a player loses the day's deal on one network, starts it
on another, and moves the first device's games to the second. Before, the loss left the figures
(3 players / 0 winners became 2 / 0) and the first network could enter again and win (3 / 1).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator

import pytest
import time_machine
from django.test import Client

from game import deals, engine
from game.models import DailyTally, Game
from tests.helpers.play import status_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _a_fixed_moment() -> Iterator[None]:
    # The sessions made here live 400 days from their frozen moments: the checks made after
    # those stretches run near them too, not on the real clock, where the sessions expire.
    with time_machine.travel(dt.datetime(2026, 12, 2, 12, tzinfo=dt.UTC)):
        yield


RULES = engine.Rules.parse(deals.DAILY_RULES)


def _line(number: int, wanted: str) -> list[str]:
    """Moves that end deal `number` in `wanted`: the greedy hint's, else a seeded random walk."""
    greedy = engine.Play(number, RULES)
    while (found := engine.greedy_hint(greedy.position)) is not None:
        greedy.play(found.move)
    if status_of(greedy) == wanted:
        return [move.text for move in greedy.moves]
    for seed in range(50):
        rng = random.Random(seed)
        walk = engine.Play(number, RULES)
        while status_of(walk) == "playing" and len(walk.moves) < 500:
            walk.play(rng.choice(sorted(engine.legal_moves(walk.position), key=str)))
        if status_of(walk) == wanted:
            return [move.text for move in walk.moves]
    raise AssertionError(f"no line to {wanted} found for deal {number}")


def _enter(client: Client, number: int, first: str) -> Game:
    """The first move on the day's first board, as the daily page posts it."""
    answer = client.post(
        f"/deal/{number}/move/?rules={RULES.name}&daily=1", {"n": "0", "move": first}
    )
    assert answer.status_code == 303, answer.content[:300]
    return Game.objects.filter(deal_number=number).latest("pk")


def _play(client: Client, game: Game, moves: list[str]) -> None:
    for count, move in enumerate(moves, start=game.move_count):
        answer = client.post(
            f"/game/{game.pk}/move/", {"n": count, "move": move}, HTTP_HX_REQUEST="true"
        )
        assert answer.status_code == 200, answer.content[:300]
    game.refresh_from_db()


def _figures(number: int) -> tuple[int, int]:
    tally = DailyTally.objects.get(deal_number=number)
    return tally.players, tally.winners


def _code_of(client: Client) -> str:
    page = client.post("/stats/transfer/code/").content.decode()
    code = re.search(r'data-transfer="code">([A-Z0-9-]+)<', page)
    assert code is not None, page
    return code[1]


# The 31st of December and the 29th of February, each a deal the greedy hint wins.
@pytest.mark.parametrize("day", [dt.date(2026, 12, 31), dt.date(2028, 2, 29)])
def test_a_transfer_never_takes_a_counted_daily_loss_out_of_the_figures(day: dt.date) -> None:
    number = deals.deal_number_for(day)
    loss = _line(number, "lost")
    win = _line(number, "won")
    first_network, second_network = "192.0.2.1", "198.51.100.7"
    with time_machine.travel(dt.datetime.combine(day, dt.time(10), dt.UTC), tick=False):
        # Someone else plays today's deal too.
        other = Client(REMOTE_ADDR="203.0.113.9")
        _enter(other, number, loss[0])

        # On the first network the player loses today's deal.
        lost_device = Client(REMOTE_ADDR=first_network)
        lost = _enter(lost_device, number, loss[0])
        _play(lost_device, lost, loss[1:])
        assert lost.status == Game.Status.LOST
        assert lost.daily_entry

        # On a second network the player starts it again: a second entry.
        second_device = Client(REMOTE_ADDR=second_network)
        second = _enter(second_device, number, loss[0])
        assert second.daily_entry
        assert _figures(number) == (3, 0)

        # The first device's games move to the second.
        code = _code_of(lost_device)
        moved = second_device.post("/stats/transfer/use/", {"code": code})
        assert moved.status_code == 200
        assert "stays there" in moved.content.decode()
        assert _figures(number) == (3, 0)
        lost.refresh_from_db()
        assert (lost.session_key, lost.status, lost.daily_entry, lost.network != "") == (
            lost_device.session.session_key,
            Game.Status.LOST,
            True,
            True,
        )

        # The first network comes back with a fresh browser and wins: not a new entry.
        again = Client(REMOTE_ADDR=first_network)
        retry = _enter(again, number, win[0])
        _play(again, retry, win[1:])
        assert retry.status == Game.Status.WON
        assert not retry.daily_entry

    assert _figures(number) == (3, 0)
    assert Game.objects.daily_entries().filter(deal_number=number).count() == 3


def test_a_day_only_the_other_browser_played_moves_with_its_entry() -> None:
    day = dt.date(2026, 12, 1)
    number = deals.deal_number_for(day)
    loss = _line(number, "lost")
    with time_machine.travel(dt.datetime.combine(day, dt.time(10), dt.UTC), tick=False):
        old, new = Client(REMOTE_ADDR="192.0.2.1"), Client(REMOTE_ADDR="198.51.100.7")
        lost = _enter(old, number, loss[0])
        _play(old, lost, loss[1:])
        new.get("/")
        new.post(f"/deal/5/move/?rules={RULES.name}", {"n": "0", "move": _line(5, "lost")[0]})
        moved = new.post("/stats/transfer/use/", {"code": _code_of(old)})
        assert moved.status_code == 200
    lost.refresh_from_db()
    assert lost.session_key == new.session.session_key
    assert (lost.daily_entry, lost.status) == (True, Game.Status.LOST)
    assert _figures(number) == (1, 0)
