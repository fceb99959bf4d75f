"""Daily figures no script can write: one client network adds at most one player a day, and the
public best time is the server's clock from the first move to the win."""

from __future__ import annotations

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client, RequestFactory, override_settings

from game.models import Game
from game.ops import limits
from tests.helpers.limits import CHEAT_DAY, CHEAT_DEAL, everyone_on_the_cheat_day, winning_line

pytestmark = pytest.mark.django_db

STEP_SECONDS = 0.26


def forge_a_win(player: Client, line: tuple[str, ...], traveller: time_machine.Traveller) -> Game:
    """What the script did: a fresh cookieless client opens the daily page, then plays a solver's
    line at 0.26 s a move, posting pause and resume to the clock before each move."""
    assert player.get("/daily/").status_code == 200
    first = player.post(
        f"/deal/{CHEAT_DEAL}/move/?rules=lucie&daily=1", {"n": "0", "move": line[0]}
    )
    assert first.status_code == 303, first.content
    game = Game.objects.filter(session_key=player.session.session_key).get()
    for count, text in enumerate(line[1:], start=1):
        player.post(f"/game/{game.pk}/clock/", {"state": "pause"})
        traveller.shift(STEP_SECONDS)
        player.post(f"/game/{game.pk}/clock/", {"state": "resume"})
        answer = player.post(f"/game/{game.pk}/move/", {"n": str(count), "move": text})
        assert answer.status_code == 303, answer.content
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    return game


@pytest.mark.slow
def test_ten_fresh_sessions_from_one_address_add_one_player_and_no_forged_best_time() -> None:
    line = winning_line()
    with time_machine.travel(CHEAT_DAY, tick=False) as traveller:
        games = [
            forge_a_win(Client(REMOTE_ADDR="198.51.100.7"), line, traveller) for _ in range(10)
        ]
        real_ms = int(STEP_SECONDS * 1000) * (len(line) - 1)
        figures = everyone_on_the_cheat_day(Client())

    # Each player's own game is won and theirs to see; everyone's figures count one of them.
    assert all(game.status == Game.Status.WON for game in games)
    assert sum(game.daily_entry for game in games) == 1
    # The pauses shrank the player's own timer, not the public time: the server's clock ran.
    assert all(game.elapsed_ms < real_ms for game in games)
    assert all(game.wall_ms is not None and game.wall_ms >= real_ms for game in games)
    # Over the mean's floor (0.26 s a move), but at a machine's steady pace, with no pause in
    # the whole line (game.status.too_fast): a player, and no winner and no best time.
    assert all((game.turns, game.pauses) == (len(line) - 1, 0) for game in games)
    assert (figures["players"], figures["winners"]) == ("1", "0")
    assert ":" not in figures.get("best-time", "")


def test_one_ipv6_network_is_one_player_and_another_network_is_another() -> None:
    line = winning_line()[:1]
    with time_machine.travel(CHEAT_DAY, tick=False):
        for address in ("2001:db8:1:2::10", "2001:db8:1:2:ffff::1", "2001:db8:1:3::10"):
            player = Client(REMOTE_ADDR=address)
            player.get("/daily/")
            answer = player.post(
                f"/deal/{CHEAT_DEAL}/move/?rules=lucie&daily=1", {"n": "0", "move": line[0]}
            )
            assert answer.status_code == 303
        figures = everyone_on_the_cheat_day(Client())
    assert figures["players"] == "2"
    entries = Game.objects.filter(daily_entry=True)
    assert entries.count() == 2
    # No address is kept: only a short keyed hash of the network.
    assert all(len(game.network) == 16 and ":" not in game.network for game in entries)


@pytest.mark.parametrize(
    ("address", "network"),
    [
        ("198.51.100.7", "198.51.100.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2::", "2001:db8:1:2::/64"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
    ],
)
def test_the_client_network_is_the_ipv4_address_or_the_ipv6_64(address: str, network: str) -> None:
    request = RequestFactory().get("/", REMOTE_ADDR=address)
    assert limits.client_network(request) == network


def test_rate_limits_count_a_whole_ipv6_64_as_one_client() -> None:
    cache.clear()
    allowed = int(limits.SESSION.per_address.split("/")[0])
    with override_settings(RATELIMIT_ENABLE=True), time_machine.travel(CHEAT_DAY, tick=False):
        answers = [
            Client(REMOTE_ADDR=f"2001:db8:7:7::{n + 1:x}").post("/deal/7/").status_code
            for n in range(allowed + 3)
        ]
        elsewhere = Client(REMOTE_ADDR="2001:db8:7:8::1").post("/deal/7/").status_code
    cache.clear()
    assert answers[:allowed] == [303] * allowed
    assert set(answers[allowed:]) == {429}
    assert elsewhere == 303
