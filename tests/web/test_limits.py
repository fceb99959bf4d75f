"""The site on the open internet: what an attacker tried (issue 11), each a test.

No input is a 500; the admin is off unless turned on, and its login is rate-limited; records are
not kept by shared caches; a game's log is capped, so replays and play-on stay cheap.
"""

from __future__ import annotations

import datetime as dt
import importlib
import io
import logging
import os
import re
import time
from collections.abc import Iterator

import pytest
import time_machine
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.cache import cache, caches
from django.core.management import call_command
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from django.urls import clear_url_caches
from django.utils import timezone
from django_ratelimit.core import get_usage

from game import engine
from game.board import hints, store
from game.engine.fair import FairMove
from game.models import Game
from game.ops import limits, searches
from lucie.sessions import SessionStore
from tests.helpers.embed import assert_cookie_free as embed_assert_cookie_free
from tests.helpers.embed import start as embed_start
from tests.helpers.ending import created
from tests.helpers.limits import CHEAT_DAY, CHEAT_DEAL, everyone_on_the_cheat_day, winning_line
from tests.helpers.play import a_card_move, post, snapshot, start
from tests.helpers.slots import every_slot_held

pytestmark = pytest.mark.django_db

DIGITS = "9" * 5000


# ---------------------------------------------------------------- no 500 for huge numbers


@pytest.mark.parametrize(
    "data",
    [
        {"move": "KS>@" + DIGITS},
        {"move": "*KS>@" + DIGITS},
        {"move": "KS>F", "n": DIGITS},
    ],
)
def test_huge_digit_strings_in_a_site_move_are_a_400(client: Client, data: dict[str, str]) -> None:
    game = start(client)
    before = snapshot(game)

    response = post(client, game, "move", **data)

    assert response.status_code == 400
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "data",
    [{"move": "KS>@" + DIGITS, "n": "0"}, {"move": "KS>F", "n": DIGITS}],
)
def test_huge_digit_strings_in_an_embed_move_are_a_400(data: dict[str, str]) -> None:
    client = Client()
    response = client.post("/embed/deal/5/move/", data)
    assert response.status_code == 400
    assert not Game.objects.exists()

    game = embed_start(client)
    before = snapshot(game)
    response = client.post(f"/embed/g/{game.token}/move/", {**data, "n": data["n"] and "1"})
    assert response.status_code == 400
    if data["n"] == DIGITS:
        response = client.post(f"/embed/g/{game.token}/move/", data)
        assert response.status_code == 400
    assert snapshot(game) == before


def test_huge_digit_strings_in_an_imported_record_are_a_400(client: Client) -> None:
    for text in ("lucie 5 KS>@" + DIGITS, "lucie " + DIGITS, "lucie 5 AS>F *KS>@" + DIGITS):
        response = client.post("/import/", {"record": text, "then": "replay"})
        assert response.status_code == 400, text
    assert not Game.objects.exists()


def test_the_engine_refuses_an_over_long_fan_number_as_malformed() -> None:
    with pytest.raises(engine.InvalidMoveError):
        engine.Move.parse("KS>@" + DIGITS)
    with pytest.raises(engine.InvalidRecordError):
        engine.Record.parse("lucie 5 KS>@" + DIGITS)


@pytest.mark.parametrize("url", ["/daily/0000/01/", "/daily/0000/01/01/", "/daily/0000/00/"])
def test_year_zero_on_the_daily_pages_is_a_404(client: Client, url: str) -> None:
    assert client.get(url).status_code == 404


# ---------------------------------------------------------------- the admin


def _reload_urls() -> None:
    import game.root_urls
    import lucie.urls

    importlib.reload(game.root_urls)
    importlib.reload(lucie.urls)
    clear_url_caches()


@pytest.fixture
def admin_on() -> Iterator[None]:
    with override_settings(ADMIN_ENABLED=True):
        _reload_urls()
        yield
    _reload_urls()


def test_the_admin_is_not_served_by_default(client: Client) -> None:
    assert client.get("/admin/").status_code == 404
    assert client.get("/admin/login/").status_code == 404


@pytest.mark.usefixtures("admin_on", "rate_limits")
def test_the_admins_login_is_rate_limited_when_it_is_on(client: Client) -> None:
    assert client.get("/admin/login/").status_code == 200
    answers = [
        client.post("/admin/login/", {"username": "admin", "password": f"guess{n}"}).status_code
        for n in range(15)
    ]
    assert answers[:10] == [200] * 10  # the form again, saying the password is wrong
    assert set(answers[10:]) == {429}
    response = client.post("/admin/login/", {"username": "admin", "password": "x"})
    assert int(response["Retry-After"]) >= 1


# ---------------------------------------------------------------- record.txt


def test_a_record_download_is_private_and_varies_by_cookie(client: Client) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)

    response = client.get(f"/game/{game.pk}/record.txt")

    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert "Cookie" in response["Vary"]


# ---------------------------------------------------------------- the move cap


def _redeals(count: int) -> str:
    return "lucie-ru 5 " + " ".join(["R"] * count)


def test_a_record_longer_than_the_cap_is_refused_at_import(client: Client) -> None:
    response = client.post("/import/", {"record": _redeals(5000), "then": "play"})

    assert response.status_code == 400
    assert f"at most {limits.MAX_GAME_MOVES} moves" in response.content.decode()
    assert not Game.objects.exists()


def test_a_game_at_the_cap_refuses_another_move_but_undoes(client: Client) -> None:
    response = client.post("/import/", {"record": _redeals(limits.MAX_GAME_MOVES), "then": "play"})
    assert response.status_code == 303
    game = Game.objects.get()
    assert game.move_count == limits.MAX_GAME_MOVES
    before = snapshot(game)

    refused = post(client, game, "redeal")

    assert refused.status_code == 400
    assert f"at most {limits.MAX_GAME_MOVES} moves" in refused.content.decode()
    assert snapshot(game) == before
    assert post(client, game, "undo").status_code == 303
    game.refresh_from_db()
    assert game.move_count == limits.MAX_GAME_MOVES - 1


def test_a_long_replay_lists_a_bounded_number_of_jumps(client: Client) -> None:
    response = client.post(
        "/import/", {"record": _redeals(limits.MAX_GAME_MOVES), "then": "replay"}
    )
    game = Game.objects.get()
    assert response["Location"] == f"/replay/{game.replay_token}/"

    page = client.get(response["Location"]).content.decode()

    assert page.count("data-jump=") == limits.MAX_REPLAY_JUMPS
    # Past MAX_STEPPED_MOVES the steps' felts stay on the server, and the list shows the moves
    # around the one on show: a 1,000-move record once made a 26 MB page.
    assert 'id="replay-parts"' not in page
    assert page.count('<li id="m') == limits.REPLAY_LIST_AROUND + 1
    assert len(page) < 200_000


def test_play_keeps_the_cap_for_a_game_played_move_by_move(client: Client) -> None:
    game = start(client, rules="lucie-ru")
    played = game.replay()
    for _ in range(limits.MAX_GAME_MOVES):
        played.play(engine.REDEAL)
    store.save(game, played)

    assert post(client, game, "redeal").status_code == 400
    game.refresh_from_db()
    assert game.move_count == limits.MAX_GAME_MOVES


# ---------------------------------------------------------------- a game belongs to a real session


def _game_id(response: HttpResponse) -> int:
    found = re.search(rb'data-game="(\d+)"', response.content)
    assert found is not None
    return int(found[1])


@pytest.mark.parametrize(
    "cookie", ["chosenkey", "a" * 32, "x" * 41, "0" * 40, "Not-A-Key!", "k" * 5000]
)
def test_a_chosen_cookie_never_owns_a_game(cookie: str) -> None:
    client = Client()
    client.cookies["sessionid"] = cookie

    response = client.get("/")
    assert response.status_code == 200
    number = int(re.search(r'data-deal="(\d+)"', response.content.decode())[1])  # type: ignore[index]
    move = engine.card_moves(engine.Play(number).position)[0]
    started = client.post(f"/deal/{number}/move/?rules=lucie", {"n": "0", "move": move.text})

    assert started.status_code == 303
    assert not Game.objects.filter(session_key=cookie).exists()
    assert Game.objects.get().session_key != cookie
    # The browser was handed a fresh session of its own instead.
    fresh = client.cookies["sessionid"].value
    assert fresh != cookie
    assert Session.objects.filter(session_key=fresh).exists()
    assert not Session.objects.filter(session_key=cookie).exists()


def test_a_chosen_cookie_cannot_open_or_move_another_sessions_game() -> None:
    owner = Client()
    game = start(owner)
    post(owner, game, "move", move=a_card_move(game).text)
    game.refresh_from_db()
    before = snapshot(game)

    # Whoever learns nothing but the game's number cannot name its session; a string that is not
    # a live session reaches no game, even one whose key it copies after the session is gone.
    key = game.session_key
    SessionStore(key).delete()  # the session is gone (its cached copy with it)
    thief = Client()
    thief.cookies["sessionid"] = key

    assert thief.get(f"/game/{game.pk}/").status_code == 404
    assert thief.get(f"/game/{game.pk}/record.txt").status_code == 404
    assert post(thief, game, "move", move=a_card_move(game).text).status_code == 404
    assert post(thief, game, "undo").status_code == 404
    assert snapshot(game) == before


def test_an_expired_sessions_cookie_opens_nothing() -> None:
    client = Client()
    game = start(client)
    Session.objects.filter(session_key=game.session_key).update(
        expire_date=timezone.now() - dt.timedelta(seconds=1)
    )
    # The session's cached copy lives no longer than its expiry (Django's cached_db sessions).
    caches[settings.SESSION_CACHE_ALIAS].clear()

    assert client.get(f"/game/{game.pk}/").status_code == 404
    # A change checks the session in the query that locks the game: just as closed.
    assert post(client, game, "move", move=a_card_move(game).text).status_code == 404
    assert post(client, game, "clock", state="pause").status_code == 404
    response = client.get("/")
    assert response.status_code == 200
    assert f'data-game="{game.pk}"' not in response.content.decode()


def test_a_real_session_keeps_its_game() -> None:
    client = Client()
    game = start(client)
    assert client.get(f"/game/{game.pk}/").status_code == 200
    assert _game_id(client.get("/")) == game.pk


# ---------------------------------------------------------------- expensive work: compute slots


def test_a_hint_is_served_while_every_solver_slot_is_busy(client: Client) -> None:
    game = start(client)
    with every_slot_held(searches._slots):
        response = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"})
    assert response.status_code == 200


@pytest.mark.usefixtures("slots_taken")
def test_a_hint_while_every_slot_is_busy_is_a_polite_503_on_the_board(client: Client) -> None:
    game = start(client)

    response = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"})

    assert response.status_code == 503
    assert int(response["Retry-After"]) >= 1
    page = response.content.decode()
    assert 'id="board"' in page
    assert limits.BUSY_MESSAGE in page


@pytest.mark.usefixtures("slots_taken")
def test_an_embed_hint_while_busy_is_a_503_in_the_frame() -> None:
    client = Client()
    for url in ("/embed/deal/10/hint/?rules=lucie-r0-m2", "/embed/deal/10/hint/"):
        response = client.get(url)
        assert response.status_code == 503
        assert limits.BUSY_MESSAGE in response.content.decode()
        assert "X-Frame-Options" not in response.headers
        embed_assert_cookie_free(response)
    game = embed_start(client)
    response = client.get(f"/embed/g/{game.token}/hint/")
    assert response.status_code == 503


@pytest.mark.usefixtures("slots_taken")
def test_show_a_win_while_busy_leaves_the_game_unmarked(client: Client) -> None:
    game = start(client)

    response = post(client, game, "show-a-win", htmx=True)

    assert response.status_code == 503
    assert limits.BUSY_MESSAGE in response.content.decode()
    game.refresh_from_db()
    assert not game.assisted


def test_a_slot_is_given_back_after_each_search(client: Client) -> None:
    game = start(client)
    for _ in range(searches.settings.COMPUTE_SLOTS + 2):
        assert client.get(f"/game/{game.pk}/hint/").status_code == 200


def test_a_search_runs_in_a_lower_priority_process_of_its_own() -> None:
    """What production does (the suite runs searches in the test's thread): an engine search in
    a separate, niced process gives the very answer the engine gives here (the greedy hint: it
    has no deadline, so its answer does not depend on the machine's load)."""
    position = engine.Play(5).position
    with override_settings(COMPUTE_PROCESSES=True), searches.computing():
        found = searches.search(engine.greedy_hint, position, seconds=60)
        pid = searches.search(os.getpid, seconds=60)
        niceness = searches.search(os.nice, 0, seconds=60)
    assert found == engine.greedy_hint(position)
    assert pid != os.getpid()
    assert niceness == min(19, os.nice(0) + searches.settings.COMPUTE_NICENESS)


def test_a_request_stops_waiting_for_a_search_its_process_cannot_run(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """On a saturated machine an idle-class search process gets no CPU for as long as the load
    lasts: the request waits the time it was given (the search's and a grace), then is answered
    busy (a board goes without its hint) instead of being held. A process that sleeps stands
    for one that gets no CPU; the pool serves the next search."""
    before = searches.metrics.SEARCHES_ABANDONED._value.get()
    monkeypatch.setattr(searches, "_abandoned_lines", searches.Sparse(60))
    with override_settings(COMPUTE_PROCESSES=True), searches.computing():
        searches.search(os.getpid, seconds=60)  # the pool started: its start is not timed below
        began = time.monotonic()
        with (
            caplog.at_level(logging.WARNING, logger=searches.__name__),
            pytest.raises(limits.Busy),
        ):
            searches.search(time.sleep, 5, seconds=0.4)
        waited = time.monotonic() - began
        assert searches.search(os.getpid, seconds=60) != os.getpid()
    assert 0.4 <= waited < 2
    assert searches.metrics.SEARCHES_ABANDONED._value.get() == before + 1
    assert [record.getMessage() for record in caplog.records] == [
        "a search waited 0.40 s for its compute process: the request went on without it "
        "(this process's count since its last such line: 1)"
    ]


def test_a_search_given_up_on_with_every_request_logs_a_line_a_minute() -> None:
    """On a saturated machine every board may go without its hint: the WARNING is written once a
    minute at most, saying how many requests it stands for (the metric counts each)."""
    now = [1000.0]
    lines = searches.Sparse(60, clock=lambda: now[0])
    said = []
    for second in range(0, 150, 10):  # fifteen events, one every ten seconds
        now[0] = 1000.0 + second
        said.append(lines.due())
    assert [count for count in said if count is not None] == [1, 6, 6]
    assert said.index(6) == 6  # the line at 60 s says the six events since the first line


def test_a_search_under_way_when_its_request_stops_waiting_is_kept_when_it_ends() -> None:
    """A board stops waiting for its hint after a quarter of a second; the search goes on in its
    process, and its answer is handed to `keep` (the hint's cache) when it ends, so the press of
    Hint or the board that asks next finds it instead of searching again."""
    kept: list[object] = []
    with override_settings(COMPUTE_PROCESSES=True), searches.computing():
        searches.search(os.getpid, seconds=60)  # the pool started, and its process idle
        with pytest.raises(limits.Busy):
            # time.sleep stands for a search: a function the spawned process imports alone.
            searches.search(time.sleep, 1, seconds=0.3, keep=kept.append)
        assert kept == []
        began = time.monotonic()
        while not kept and time.monotonic() - began < 30:
            time.sleep(0.05)
    assert kept == [None]  # time.sleep's answer


def test_a_site_hint_is_searched_in_a_compute_process(client: Client) -> None:
    game = start(client)
    with override_settings(COMPUTE_PROCESSES=True):
        response = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "Hint:" in response.content.decode()


# ---------------------------------------------------------------- rate limits


@pytest.mark.usefixtures("rate_limits")
def test_a_flood_of_cookieless_embed_starts_is_cut_off() -> None:
    client = Client()
    answers = [client.post("/embed/deal/5/redeal/", {"n": "0"}).status_code for _ in range(80)]

    allowed = int(limits.START.per_address.split("/")[0])  # type: ignore[union-attr]
    assert answers.count(303) == allowed
    assert set(answers[allowed:]) == {429}
    assert Game.objects.count() == allowed
    refused = client.post("/embed/deal/5/redeal/", {"n": "0"}, headers={"HX-Request": "true"})
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) >= 1
    assert limits.LIMITED_MESSAGE in refused.content.decode()
    embed_assert_cookie_free(refused)


def limit_of(rate: str | None) -> int:
    assert rate is not None
    return int(rate.split("/")[0])


@pytest.fixture
def quick_hints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints that search nothing (the limit, not the engine, is under test): the first legal
    move, searched to the end."""

    def first_move(position: engine.Position) -> FairMove | None:
        moves = engine.legal_moves(position)
        return FairMove(moves[0], cut=False) if moves else None

    monkeypatch.setattr(hints, "fair_hint", first_move)


def searched_hint(client: Client, game: Game, address: str = "127.0.0.1") -> int:
    """A hint the cache does not have (as for a position no one asked about)."""
    cache.delete(hints.cache_key(game.record))
    return client.get(f"/game/{game.pk}/hint/", REMOTE_ADDR=address).status_code


@pytest.mark.usefixtures("rate_limits", "quick_hints")
@pytest.mark.slow
def test_searched_hints_are_limited_per_session_whatever_the_address(client: Client) -> None:
    """A script that spreads one session's hints over many addresses meets the session's
    limit."""
    game = start(client)
    per_session = limit_of(limits.HINT.per_session)

    answers = [
        searched_hint(client, game, f"10.0.{n // 200}.{n % 200}") for n in range(per_session + 3)
    ]

    assert answers[:per_session] == [200] * per_session
    assert set(answers[per_session:]) == {429}


@pytest.mark.usefixtures("rate_limits", "quick_hints")
def test_searched_hints_are_limited_per_address_whatever_the_session() -> None:
    per_address = limit_of(limits.HINT.per_address)
    games = []
    for _ in range(4):
        client = Client()
        games.append((client, start(client)))
    # Opening the four boards searched their ready hint once, from this address's budget (a
    # page view pays for its search: docs/frontend.md); the count starts from the presses.
    cache.clear()

    answers = [searched_hint(*games[n % 4]) for n in range(per_address + 3)]

    assert answers[:per_address] == [200] * per_address
    assert set(answers[per_address:]) == {429}
    # Another address still gets its hints.
    assert searched_hint(*games[0], address="10.1.1.1") == 200


@pytest.mark.usefixtures("rate_limits")
@pytest.mark.slow
def test_a_hint_found_in_the_cache_counts_against_no_limit(client: Client) -> None:
    game = start(client)
    per_session = limit_of(limits.HINT.per_session)
    answers = [client.get(f"/game/{game.pk}/hint/").status_code for _ in range(per_session + 20)]
    assert set(answers) == {200}


# The limit a hint-following player met before issue 19: 40 hints a minute per session.
HINT_BEFORE = limits.Rate("hint", per_address="120/m", per_session="40/m")


@pytest.mark.usefixtures("rate_limits")
def test_a_player_following_hint_as_fast_as_the_board_answers_never_meets_a_limit(
    client: Client,
) -> None:
    """Hint, play the hinted move, hint... through a whole game, with the clock stopped so that
    every request falls in one counting window (issue 19: 74 hints in 78 s met a 429)."""
    game = start(client)
    hints_asked = 0
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        response = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"})
        assert response.status_code == 200, (hints_asked, response.content[:300])
        hints_asked += 1
        if "Hint:" not in response.content.decode():
            break
        hinted = cache.get(hints.cache_key(game.record))  # the move the page just showed
        assert isinstance(hinted, str)
        moved = post(client, game, "move", htmx=True, move=hinted)
        assert moved.status_code == 200, moved.content[:300]

    game.refresh_from_db()
    assert game.status != Game.Status.PLAYING
    assert hints_asked > limit_of(HINT_BEFORE.per_session)


@pytest.mark.usefixtures("rate_limits", "quick_hints")
def test_a_strangers_first_board_hint_is_limited_per_address_and_stores_nothing() -> None:
    # /deal/<n>/hint/ needs no cookie: a script sending it at will (here for a position no one
    # asked about each time) meets the address limit, and no answer stores a game or a session.
    allowed = limit_of(limits.HINT.per_address)
    key = hints.cache_key(engine.Play(5, engine.Rules.parse("lucie")).record)

    def searched_hint() -> int:
        cache.delete(key)
        return Client().get("/deal/5/hint/?rules=lucie", headers={"HX-Request": "true"}).status_code

    answers = [searched_hint() for _ in range(allowed + 3)]
    assert answers[:allowed] == [200] * allowed
    assert set(answers[allowed:]) == {429}
    assert not Game.objects.exists()
    assert not Session.objects.exists()


@pytest.mark.usefixtures("rate_limits")
def test_new_sessions_are_limited_per_address() -> None:
    allowed = int(limits.SESSION.per_address.split("/")[0])
    answers = [Client().post("/deal/7/").status_code for _ in range(allowed + 5)]
    assert answers[:allowed] == [303] * allowed
    assert set(answers[allowed:]) == {429}


@pytest.mark.usefixtures("rate_limits")
def test_imports_are_limited(client: Client) -> None:
    per_session = int(limits.IMPORT.per_session.split("/")[0])  # type: ignore[union-attr]
    client.post("/deal/5/")
    answers = [
        client.post("/import/", {"record": "lucie 5", "then": "replay"}).status_code
        for _ in range(per_session + 2)
    ]
    assert answers[:per_session] == [303] * per_session
    assert set(answers[per_session:]) == {429}


@pytest.mark.usefixtures("rate_limits")
def test_addresses_are_counted_apart() -> None:
    for address in ("192.0.2.1", "192.0.2.2"):
        client = Client(REMOTE_ADDR=address)
        answers = [client.post("/embed/deal/5/redeal/", {"n": "0"}).status_code for _ in range(3)]
        assert answers == [303] * 3


def test_behind_a_proxy_the_named_header_gives_the_address() -> None:
    factory = RequestFactory()
    request = factory.get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.9, 198.51.100.7"
    )
    assert limits.client_address(request) == "10.0.0.1"
    with override_settings(CLIENT_ADDRESS_HEADER="X-Forwarded-For"):
        # The last address: the one the operator's own proxy wrote.
        assert limits.client_address(request) == "198.51.100.7"
        junk = factory.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="not an address")
        assert limits.client_address(junk) == "10.0.0.1"


# ---------------------------------------------------------------- daily figures that mean something


NOBODY = {
    "players": "0",
    "winners": "0",
    "strict-winners": "0",
    "win-rate": "\N{EN DASH}",
    "best-time": "\N{EN DASH}",
}


def test_the_cheat_through_the_embed_writes_no_daily_figures() -> None:
    """Issue 11's cheat: a winning line replayed through the cookieless embed on today's deal,
    with `pause` posted before each move, counted as a clean win in 0:00."""
    line = winning_line()
    cheat = Client()
    with time_machine.travel(CHEAT_DAY, tick=False) as traveller:
        for _ in range(2):  # and again, to add players and winners
            response = cheat.post(f"/embed/deal/{CHEAT_DEAL}/move/", {"n": "0", "move": line[0]})
            token = response["Location"].split("/")[3]
            for count, text in enumerate(line[1:], start=1):
                cheat.post(f"/embed/g/{token}/clock/", {"state": "pause"})
                traveller.shift(2)
                cheat.post(f"/embed/g/{token}/move/", {"n": str(count), "move": text})
            assert Game.objects.get(token=token).status == Game.Status.WON

        assert everyone_on_the_cheat_day(Client()) == NOBODY


def test_pausing_between_moves_on_the_daily_page_does_not_shrink_the_time() -> None:
    line = winning_line()
    player = Client()
    with time_machine.travel(CHEAT_DAY, tick=False) as traveller:
        player.post("/daily/")
        game_id = _game_id(player.get("/daily/"))
        for count, text in enumerate(line):
            if count:
                player.post(f"/game/{game_id}/clock/", {"state": "pause"})
            traveller.shift(2)
            response = player.post(f"/game/{game_id}/move/", {"n": str(count), "move": text})
            assert response.status_code == 303
        game = Game.objects.get(pk=game_id)
        assert game.status == Game.Status.WON
        # The first move starts the clock; every later one counts the two seconds before it.
        assert game.elapsed_ms == 2000 * (len(line) - 1)

        figures = everyone_on_the_cheat_day(Client())
    minutes, seconds = divmod(2 * (len(line) - 1), 60)
    assert figures == {
        "players": "1", "winners": "1", "strict-winners": "0", "win-rate": "100%",
        "best-time": f"{minutes}:{seconds:02}",
    }  # fmt: skip


def test_one_game_per_session_counts_and_only_from_the_daily_page() -> None:
    line = winning_line()
    player = Client()
    with time_machine.travel(CHEAT_DAY, tick=False):
        player.post("/daily/")
        first = _game_id(player.get("/daily/"))
        player.post(f"/game/{first}/move/", {"n": "0", "move": line[0]})
        for number in range(3):  # another deal leaves the daily game alone; once it is over
            assert player.post(f"/deal/{number + 1}/").status_code == 303
            Game.objects.filter(deal_number=CHEAT_DEAL, daily=True).update(
                status=Game.Status.ABANDONED
            )  # (as an old game left for another was), the daily deal may be taken again
            player.post("/daily/")
            again = _game_id(player.get("/daily/"))
            assert again != first
            player.post(f"/game/{again}/move/", {"n": "0", "move": line[0]})
        # The same deal by number, and played on from a record, are not the daily page.
        other = Client()
        other.get(f"/deal/{CHEAT_DEAL}/?rules=lucie")
        record = f"lucie {CHEAT_DEAL} " + " ".join(line)
        assert other.post("/import/", {"record": record, "then": "play"}).status_code == 303

        figures = everyone_on_the_cheat_day(Client())
    assert (figures["players"], figures["winners"]) == ("1", "0")


def test_a_win_faster_than_a_person_could_play_is_not_the_best_time() -> None:
    with time_machine.travel(CHEAT_DAY, tick=False):
        for key, seconds in (("script", 3), ("person", 400)):
            created(
                session_key=key, deal_number=CHEAT_DEAL, rules="lucie", status=Game.Status.WON,
                started_at=CHEAT_DAY, elapsed_ms=seconds * 1000, move_count=90, daily_entry=True,
                wall_ms=seconds * 1000,
            )  # fmt: skip

        figures = everyone_on_the_cheat_day(Client())

    # Both played; the script's win, faster than the floor allows, is no winner and no best
    # time (game/status.py: too_fast, the one floor); the best time is the person's.
    assert figures == {
        "players": "2", "winners": "1", "strict-winners": "0", "win-rate": "50%",
        "best-time": "6:40",
    }  # fmt: skip


def test_the_daily_page_says_what_the_figures_count(client: Client) -> None:
    with time_machine.travel(CHEAT_DAY, tick=False):
        html = client.get("/daily/2026/11/").content.decode()
    assert "one game per player" in html
    assert "begun from this page" in html


# ---------------------------------------------------------------- manage.py prune


def test_prune_removes_what_nobody_can_use_and_keeps_the_rest() -> None:
    now = timezone.now()
    old, recent = now - dt.timedelta(days=40), now - dt.timedelta(hours=1)

    def made(**fields: object) -> Game:
        updated = fields.pop("updated_at", None)
        fields.setdefault("deal_number", 5)
        game = Game.objects.create(**fields)
        if updated is not None:
            Game.objects.filter(pk=game.pk).update(updated_at=updated)
        return game

    gone = [
        made(session_key="s" * 32, created_at=old),  # dealt, never moved in
        made(session_key="", created_at=old, started_at=old, updated_at=old),  # embed, left
        made(
            session_key="",
            created_at=old,
            started_at=old,
            status=Game.Status.WON,
            updated_at=old,
        ),
        # Begun, and its session is gone (idle past its age): nobody can reach it, and a game in
        # progress has no replay link.
        made(session_key="v" * 32, created_at=old, started_at=old),
    ]
    kept = [
        made(session_key="s" * 32, created_at=recent),  # dealt an hour ago
        made(session_key="", created_at=old, started_at=old, updated_at=recent),  # embed, in play
        made(
            session_key="t" * 32,
            created_at=old,
            started_at=old,
            status=Game.Status.WON,
        ),  # a finished site game: its replay link
        made(
            session_key="u" * 32,
            created_at=old,
            started_at=old,
            daily_entry=True,
            deal_number=20261115,
            status=Game.Status.LOST,
        ),  # counted in the daily figures
        made(session_key="y" * 32, created_at=old, started_at=old),  # begun, its session alive
        made(
            session_key="w" * 32,
            created_at=old,
            started_at=old,
            daily_entry=True,
            deal_number=20261116,
        ),  # in progress, session gone, but counted in the daily figures
        made(session_key="", imported=True, created_at=old, updated_at=old),  # an imported record
    ]
    Session.objects.create(session_key="x" * 32, session_data="", expire_date=now - dt.timedelta(1))
    Session.objects.create(session_key="y" * 32, session_data="", expire_date=now + dt.timedelta(1))

    out = io.StringIO()
    call_command("prune", stdout=out)

    assert "removed 1 expired sessions, 1 games never moved in, 2 embed games" in out.getvalue()
    assert "1 games in progress of sessions that are gone" in out.getvalue()
    assert not Game.objects.filter(pk__in=[game.pk for game in gone]).exists()
    assert set(Game.objects.values_list("pk", flat=True)) == {game.pk for game in kept}
    assert list(Session.objects.values_list("session_key", flat=True)) == ["y" * 32]


def test_prune_ages_are_configurable() -> None:
    game = Game.objects.create(
        session_key="s" * 32, deal_number=5, created_at=timezone.now() - dt.timedelta(hours=3)
    )
    call_command("prune", "--unplayed-hours", "4", stdout=io.StringIO())
    assert Game.objects.filter(pk=game.pk).exists()
    call_command("prune", "--unplayed-hours", "2", stdout=io.StringIO())
    assert not Game.objects.filter(pk=game.pk).exists()


def test_a_request_is_counted_once_per_rate_and_a_refusal_stands_for_the_whole_request() -> None:
    """A hint's search that runs out of time leaves the board's ready hint to search again in
    the same request: the request is still counted once. Once refused, it stays refused."""

    def count() -> int:
        usage = get_usage(
            RequestFactory().get("/", REMOTE_ADDR="10.9.8.7"),
            group=limits.HINT.group,
            key=limits._address,
            rate=limits.HINT.per_address,
            increment=False,
        )
        assert usage is not None
        return int(usage["count"])

    with override_settings(RATELIMIT_ENABLE=True):
        cache.clear()
        request = RequestFactory().get("/", REMOTE_ADDR="10.9.8.7")
        limits.check(request, limits.HINT, session=False)
        limits.check(request, limits.HINT, session=False)
        assert count() == 1
        assert limits.HINT.per_address is not None
        allowed = int(limits.HINT.per_address.split("/")[0])
        for _ in range(allowed - 1):
            limits.check(
                RequestFactory().get("/", REMOTE_ADDR="10.9.8.7"), limits.HINT, session=False
            )
        refused = RequestFactory().get("/", REMOTE_ADDR="10.9.8.7")
        with pytest.raises(limits.Limited):
            limits.check(refused, limits.HINT, session=False)
        with pytest.raises(limits.Limited):
            limits.check(refused, limits.HINT, session=False)
