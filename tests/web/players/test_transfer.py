"""Statistics moved to another device with a one-time code, no account."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client, override_settings

from game import engine
from game.models import Game, Transfer
from game.ops import limits
from game.stats import player_stats as stats
from game.stats import transfer
from tests.helpers.play import a_card_move, greedy_record, play_through, post, start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _a_fixed_moment() -> Iterator[None]:
    # The sessions made here live 400 days from their frozen moments: the checks made after
    # those stretches run near them too, not on the real clock, where the sessions expire.
    with time_machine.travel(T0 + dt.timedelta(hours=1)):
        yield


T0 = dt.datetime(2026, 11, 20, 10, tzinfo=dt.UTC)


def code_of(client: Client) -> str:
    page = client.post("/stats/transfer/code/").content.decode()
    code = re.search(r'data-transfer="code">([A-Z0-9-]+)<', page)
    assert code is not None, page
    # The code is shown to be typed, never put in a link.
    assert code[1] not in page.replace(code[0], "")
    return code[1]


def won_games(client: Client, count: int) -> list[Game]:
    number, moves = greedy_record("won")
    games = []
    for _ in range(count):
        game = start(client, number)
        play_through(client, game, moves)
        games.append(game)
    return games


def test_a_code_moves_every_game_and_the_streak_to_the_other_device() -> None:
    old, new = Client(), Client()
    with time_machine.travel(T0, tick=False):
        won_games(old, 3)
        mine = start(new, 9)
        post(new, mine, "move", move=a_card_move(mine).text)
        code = code_of(old)
        # A code in a URL (an old link) is dropped, and moves nothing.
        dropped = new.get(f"/stats/transfer/?code={code}")
        assert (dropped.status_code, dropped["Location"]) == (302, "/stats/transfer/")
        assert Game.objects.filter(session_key=old.session.session_key).count() == 3
        done = new.post("/stats/transfer/use/", {"code": code.lower().replace("-", " ")})

    assert done.status_code == 200
    assert "Moved 3 games (3 won) here" in done.content.decode()
    key = new.session.session_key
    result = stats.for_session(key)
    assert (result.played, result.won, result.current_streak, result.in_progress) == (3, 3, 3, 1)
    assert not Game.objects.filter(session_key=old.session.session_key).exists()
    # This device's game in progress is where it was.
    assert re.search(rf'data-game="{mine.pk}"', new.get("/").content.decode())


def test_a_code_works_once() -> None:
    old, new, third = Client(), Client(), Client()
    with time_machine.travel(T0, tick=False):
        won_games(old, 1)
        code = code_of(old)
        assert new.post("/stats/transfer/use/", {"code": code}).status_code == 200
        third.get("/")
        again = third.post("/stats/transfer/use/", {"code": code})
    assert again.status_code == 400
    assert "opens nothing" in again.content.decode()
    assert Game.objects.filter(session_key=new.session.session_key).count() == 1


@pytest.mark.parametrize(
    "code",
    ["", "ABCDE", "ABCDE-FGHJK-MN", "ABCDE-FGHIL", "abcde-fghj\x00", "x" * 5000, "ABCDE-23456"],
)
def test_a_wrong_code_is_a_clear_400_and_changes_nothing(code: str) -> None:
    old, new = Client(), Client()
    with time_machine.travel(T0, tick=False):
        won_games(old, 1)
        code_of(old)
        before = list(Game.objects.values_list("pk", "session_key", "status"))
        answer = new.post("/stats/transfer/use/", {"code": code})
    assert answer.status_code == 400
    assert 'data-transfer="error"' in answer.content.decode()
    assert list(Game.objects.values_list("pk", "session_key", "status")) == before


def test_an_expired_code_opens_nothing() -> None:
    old, new = Client(), Client()
    with time_machine.travel(T0, tick=False):
        won_games(old, 1)
        code = code_of(old)
    late = T0 + dt.timedelta(minutes=transfer.TRANSFER_MINUTES, seconds=1)
    with time_machine.travel(late, tick=False):
        answer = new.post("/stats/transfer/use/", {"code": code})
    assert answer.status_code == 400
    assert Game.objects.filter(session_key=old.session.session_key).count() == 1


def test_a_browsers_own_code_and_a_replaced_code_open_nothing() -> None:
    old, new = Client(), Client()
    with time_machine.travel(T0, tick=False):
        won_games(old, 1)
        first = code_of(old)
        second = code_of(old)
        own = old.post("/stats/transfer/use/", {"code": second})
        replaced = new.post("/stats/transfer/use/", {"code": first})
    assert own.status_code == 400
    assert "own code" in own.content.decode()
    assert replaced.status_code == 400
    assert Transfer.objects.count() == 1  # one code per session at a time
    # Only a hash is kept: the code is nowhere in the table.
    assert second.replace("-", "") not in Transfer.objects.get().code_hash


def test_a_game_in_progress_on_both_devices_keeps_this_ones_and_closes_the_other() -> None:
    old, new = Client(), Client()
    with time_machine.travel(T0, tick=False):
        theirs = start(old, 5)
        post(old, theirs, "move", move=a_card_move(theirs).text)
        mine = start(new, 9)
        post(new, mine, "move", move=a_card_move(mine).text)
        code = code_of(old)
        done = new.post("/stats/transfer/use/", {"code": code}).content.decode()
    theirs.refresh_from_db()
    mine.refresh_from_db()
    assert (theirs.status, mine.status) == (Game.Status.ABANDONED, Game.Status.PLAYING)
    assert "count as left unfinished" in done


def test_a_daily_entry_both_devices_made_stays_counted_where_it_was_made() -> None:
    old, new = Client(REMOTE_ADDR="192.0.2.1"), Client(REMOTE_ADDR="192.0.2.2")
    with time_machine.travel(T0, tick=False):
        for client in (old, new):
            assert client.get("/daily/").status_code == 200
            move = next(m for m in engine.legal_moves(engine.Play(20261120).position))
            answer = client.post(
                "/deal/20261120/move/?rules=lucie&daily=1", {"n": "0", "move": move.text}
            )
            assert answer.status_code == 303
        assert Game.objects.filter(daily_entry=True).count() == 2
        code = code_of(old)
        assert new.post("/stats/transfer/use/", {"code": code}).status_code == 200
    key = new.session.session_key
    assert Game.objects.filter(session_key=key, deal_number=20261120).count() == 1
    assert Game.objects.filter(session_key=key, daily_entry=True).count() == 1
    # The other browser's entry is where it was counted, with its network.
    left = Game.objects.get(session_key=old.session.session_key)
    assert left.daily_entry
    assert left.network


def test_codes_are_rate_limited() -> None:
    cache.clear()
    old, guesser = Client(), Client()
    with override_settings(RATELIMIT_ENABLE=True), time_machine.travel(T0, tick=False):
        won_games(old, 1)
        start(guesser, 5)  # a player with a session, so both limits count from the first try
        shown = [old.post("/stats/transfer/code/").status_code for _ in range(5)]
        per_session = int(limits.TRANSFER_REDEEM.per_session.split("/")[0])  # type: ignore[union-attr]
        guesses = [
            guesser.post(
                "/stats/transfer/use/",
                {"code": f"ABCDE-{n:05}".replace("0", "2").replace("1", "3")},
            ).status_code
            for n in range(per_session + 3)
        ]
    cache.clear()
    assert shown[:3] == [200] * 3
    assert set(shown[3:]) == {429}
    assert set(guesses[:per_session]) == {400}
    assert set(guesses[per_session:]) == {429}


def test_a_browser_with_nothing_to_move_is_told_so(client: Client) -> None:
    page = client.post("/stats/transfer/code/")
    assert page.status_code == 200
    assert "nothing to move" in page.content.decode()
    assert not Transfer.objects.exists()
