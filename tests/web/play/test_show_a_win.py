"""'Show a win' through the test client: it asks first, marks the game assisted, shows the
solver's verdict (won with a line, lost, or undecided within its budget), caches it per position,
and steps through the line with the move pipeline; statistics never count such a game as won.
Also the hint's plain words for a redeal and for the merci."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache as memo
from html import unescape
from typing import TYPE_CHECKING, Any

import pytest
import time_machine
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from game import deals, engine
from game.board import show_a_win
from game.board import store as game_store
from game.board import words as board_words
from game.daily import figures as daily_figures
from game.daily import player
from game.engine import solver
from game.models import Game
from game.stats import player_stats as stats
from tests.helpers.board import kept_for
from tests.helpers.play import start, status_of
from tests.helpers.show_a_win import STILL_LOOKING, HeldJobs

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse

pytestmark = pytest.mark.django_db

DEAL = 5
HX = {"HX-Request": "true"}
WON = "This game can still be won from here"
LOST = "No win is possible from here"


# ---------------------------------------------------------------- helpers


def post(
    client: Client, game: Game, action: str, htmx: bool = True, **data: object
) -> _MonkeyPatchedWSGIResponse:
    game.refresh_from_db()
    data.setdefault("n", game.move_count)
    return client.post(f"/game/{game.pk}/{action}/", data, headers=HX if htmx else {})


def text(response: _MonkeyPatchedWSGIResponse) -> str:
    """The response's markup, as sent (attributes keep their escapes, so `>` ends a tag)."""
    return response.content.decode()


def words(html: str) -> str:
    """What a reader sees of `html`: the text without tags, spaces collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", "", html)).split())


def shown_line(client: Client) -> list[str]:
    kept = client.session[show_a_win.SESSION_KEY]
    assert isinstance(kept["line"], list)
    return kept["line"]


def line_step(html: str) -> int | None:
    found = re.search(r'data-line-step="(\d+)"', html)
    return None if found is None else int(found[1])


def hinted_card(html: str) -> str | None:
    found = re.search(r'data-card="(\w+)"[^>]*data-hint="card"', html)
    return None if found is None else found[1]


def store(game: Game, moves: list[engine.Move] | tuple[engine.Move, ...]) -> None:
    """Give `game` these moves as the pipeline would have saved them."""
    game_store.save(game, engine.Play(game.deal_number, game.engine_rules, list(moves)))


def follow(number: int, rules: engine.Rules, until: Callable[[engine.Hint], bool]) -> list[str]:
    """The moves of the hint's own game up to the first hint that `until` accepts ([] if none)."""
    played = engine.Play(number, rules)
    while (found := engine.hint(played.position)) is not None:
        if until(found):
            return [move.text for move in played.moves]
        played.play(found.move)
    return []


@memo
def hinted_before(kind: str) -> tuple[int, tuple[str, ...]]:
    """A deal and the hint's moves up to where it first says redeal (or takes the merci)."""

    def wanted(found: engine.Hint) -> bool:
        return found.move.is_redeal if kind == "redeal" else found.move.merci

    for number in range(1, 60):
        moves = follow(number, engine.DEFAULT_RULES, wanted)
        if moves:
            return number, tuple(moves)
    raise AssertionError(f"the hint never says {kind} in deals 1-59")


@memo
def unwinnable_deal(rules: str) -> int:
    """A deal that cannot be won from its start under `rules` (one deal, no merci: exact)."""
    for number in range(1, 200):
        position = engine.Play(number, engine.Rules.parse(rules)).position
        if solver.solve(position, time_limit=5.0).status == "lost":
            return number
    raise AssertionError(f"every deal in 1-199 can be won under {rules}")


# ---------------------------------------------------------------- asking first


def test_the_menu_offers_show_a_win_with_its_question(client: Client) -> None:
    game = start(client)
    html = text(client.get(f"/game/{game.pk}/"))

    assert re.search(
        r'action="/game/\d+/show-a-win/"[^>]*>\s*<button[^>]*data-dialog="show-a-win-dialog"', html
    )
    assert '<dialog id="show-a-win-dialog"' in html
    assert "Peek at a winning line? This game will count as played, not won." in words(html)


def test_without_javascript_a_page_asks_first_and_changes_nothing(
    client: Client, solver_calls: list[engine.Position]
) -> None:
    game = start(client)

    response = client.get(f"/game/{game.pk}/show-a-win/")

    assert response.status_code == 200
    html = text(response)
    assert "Peek at a winning line? This game will count as played, not won." in words(html)
    assert f'<form method="post" action="/game/{game.pk}/show-a-win/"' in html
    assert 'name="n" value="0"' in html
    assert solver_calls == []
    game.refresh_from_db()
    assert not game.assisted


def test_a_post_without_the_board_it_came_from_is_refused(client: Client) -> None:
    game = start(client)

    response = client.post(f"/game/{game.pk}/show-a-win/", {}, headers=HX)

    assert response.status_code == 400
    game.refresh_from_db()
    assert not game.assisted
    assert show_a_win.SESSION_KEY not in client.session


def test_a_stale_board_is_refused_with_the_game_as_it_stands(
    client: Client, solver_calls: list[engine.Position]
) -> None:
    game = start(client)
    move = next(m for m in engine.legal_moves(game.replay().position) if m.card is not None)
    post(client, game, "move", move=move.text)

    response = post(client, game, "show-a-win", n=0)

    assert response.status_code == 409
    assert "That board was out of date" in text(response)
    game.refresh_from_db()
    assert not game.assisted
    assert solver_calls == []


def test_another_sessions_game_is_not_found(client: Client) -> None:
    game = start(client)
    stranger = Client()
    stranger.get("/")

    assert stranger.get(f"/game/{game.pk}/show-a-win/").status_code == 404
    assert stranger.post(f"/game/{game.pk}/show-a-win/", {"n": 0}).status_code == 404
    for action in ("show-a-win/next", "show-a-win/out"):
        assert stranger.post(f"/game/{game.pk}/{action}/", {"n": 0}).status_code == 404
    game.refresh_from_db()
    assert not game.assisted


def test_show_a_win_answers_get_and_post_only(client: Client) -> None:
    game = start(client)

    assert client.put(f"/game/{game.pk}/show-a-win/").status_code == 405
    assert client.get(f"/game/{game.pk}/show-a-win/next/").status_code == 405
    assert client.get(f"/game/{game.pk}/show-a-win/out/").status_code == 405


# ---------------------------------------------------------------- the verdicts


def test_a_winnable_game_shows_a_line_that_wins_and_is_marked_assisted(client: Client) -> None:
    game = start(client)

    response = post(client, game, "show-a-win")

    assert response.status_code == 200
    html = text(response)
    assert WON in html
    assert "Assisted" in html
    game.refresh_from_db()
    assert game.assisted
    assert game.move_count == 0
    line = shown_line(client)
    assert f'data-line-length="{len(line)}"' in html
    assert line_step(html) == 0
    first = engine.Move.parse(line[0])
    assert first.card is not None
    assert hinted_card(html) == first.card.code
    assert f"Move 1 of {len(line)}: {first.describe()}" in words(html)
    replayed = engine.Play(DEAL, engine.DEFAULT_RULES, [engine.Move.parse(m) for m in line])
    assert replayed.position.cards_home == 52


def test_the_verdict_is_shown_on_the_page_after_a_plain_post(client: Client) -> None:
    game = start(client)

    response = post(client, game, "show-a-win", htmx=False)

    assert response.status_code == 303
    assert response["Location"] == f"/game/{game.pk}/?did=show_a_win&from=0"
    page = text(client.get(f"/game/{game.pk}/"))
    assert WON in page
    assert 'data-action="show-a-win-next"' in page


def test_a_deal_that_cannot_be_won_says_so(client: Client) -> None:
    number = unwinnable_deal("nomerci-r0")
    game = start(client, number, rules="nomerci-r0")

    response = post(client, game, "show-a-win")

    assert response.status_code == 200
    html = text(response)
    assert LOST in html
    assert 'data-action="show-a-win-next"' not in html
    game.refresh_from_db()
    assert game.assisted
    assert game.status == Game.Status.PLAYING


def test_a_game_with_no_move_left_is_no_win(client: Client) -> None:
    game = start(client, 1, rules="nomerci-r0")
    played = engine.Play(1, game.engine_rules)
    while (found := engine.greedy_hint(played.position)) is not None:
        played.play(found.move)
    assert status_of(played) == "lost"
    store(game, played.moves)

    response = post(client, game, "show-a-win")

    assert response.status_code == 200
    assert LOST in text(response)
    assert "No moves left" in text(response)
    game.refresh_from_db()
    assert (game.status, game.assisted) == (Game.Status.LOST, True)


def test_past_the_requests_budget_and_the_jobs_no_answer_is_found(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Neither the request's search nor the search on that follows (game/board/show_a_win_job.py,
    run in the request here: the tests' queue is immediate) decides: the board says so plainly."""
    monkeypatch.setattr(show_a_win, "NODE_CAP", 10)
    monkeypatch.setattr(show_a_win, "JOB_NODES", 10)
    game = start(client)

    response = post(client, game, "show-a-win")

    assert response.status_code == 200
    assert "Even a long look could not tell whether this game can still be won" in text(response)
    game.refresh_from_db()
    assert game.assisted


def test_the_search_is_bounded_in_time_and_nodes(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[dict[str, Any]] = []

    def fake(position: engine.Position, **kwargs: Any) -> solver.Solution:
        asked.append(kwargs)
        return solver.Solution("undecided")

    monkeypatch.setattr(solver, "solve", fake)
    game = start(client)

    post(client, game, "show-a-win")

    # The request's search, then the search on's job (run in the request here), in CPU seconds.
    assert asked == [
        {"max_nodes": show_a_win.NODE_CAP, "time_limit": show_a_win.TIME_LIMIT},
        {"max_nodes": show_a_win.JOB_NODES, "time_limit": settings.SHOW_A_WIN_CPU_SECONDS},
    ]
    assert 1.0 <= show_a_win.TIME_LIMIT <= 2.5


# ---------------------------------------------------------------- the cache


def test_a_second_ask_of_the_same_position_is_answered_from_the_cache(
    client: Client, solver_calls: list[engine.Position]
) -> None:
    game = start(client)
    first = text(post(client, game, "show-a-win"))
    line = shown_line(client)

    again = text(post(client, game, "show-a-win"))

    assert len(solver_calls) == 1
    assert WON in first
    assert WON in again
    assert shown_line(client) == line


def test_another_player_reaching_the_same_position_gets_the_cached_answer(
    client: Client, solver_calls: list[engine.Position]
) -> None:
    post(client, start(client), "show-a-win")
    other = Client()

    response = post(other, start(other), "show-a-win")

    assert WON in text(response)
    assert len(solver_calls) == 1


def test_each_position_has_its_own_cached_answer(
    client: Client, solver_calls: list[engine.Position]
) -> None:
    game = start(client)
    post(client, game, "show-a-win")
    post(client, game, "show-a-win/next")
    post(client, game, "undo")
    post(client, game, "move", move=_other_move(game))

    post(client, game, "show-a-win")

    assert len(solver_calls) == 2
    assert solver_calls[0] != solver_calls[1]


def test_the_cache_keeps_the_verdict_and_the_line_as_move_texts(client: Client) -> None:
    game = start(client)
    post(client, game, "show-a-win")
    game.refresh_from_db()

    kept = cache.get(show_a_win.cache_key(game.record))

    assert kept == {"status": "won", "line": shown_line(client)}
    assert show_a_win.cache_key(game.record) == show_a_win.cache_key(
        engine.Record.parse(f"lucie {DEAL}")
    )


def test_undecided_is_kept_only_a_few_seconds(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An "undecided" is what a loaded moment could do: kept seconds, not an hour (issue 19),
    so the same question asked on a quieter server gets searched again."""
    calls: list[int] = []

    def loaded(position: engine.Position, **kwargs: Any) -> solver.Solution:
        calls.append(1)
        return solver.Solution("undecided")

    monkeypatch.setattr(solver, "solve", loaded)
    HeldJobs(monkeypatch)  # the search on waits for a worker
    game = start(client)
    assert STILL_LOOKING in text(post(client, game, "show-a-win"))
    assert STILL_LOOKING in text(post(client, game, "show-a-win"))

    assert len(calls) == 1  # a double press shares one search
    seconds = show_a_win.CACHE_SECONDS["undecided"]
    assert seconds <= 10
    assert seconds - 2 < kept_for(show_a_win.cache_key(game.record)) <= seconds


def test_undecided_never_replaces_a_proof_kept_meanwhile(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While this server's search ran out of time, another server proved a win and kept it."""
    game = start(client)
    key = show_a_win.cache_key(game.record)
    proof = {"status": "won", "line": ["AS>F"]}

    def loaded(position: engine.Position, **kwargs: Any) -> solver.Solution:
        cache.set(key, proof, show_a_win.CACHE_SECONDS["won"])
        return solver.Solution("undecided")

    monkeypatch.setattr(solver, "solve", loaded)

    found = show_a_win.answer(game.record, game.replay().position)

    assert found.status == "undecided"
    assert cache.get(key) == proof


def test_a_short_searchs_undecided_does_not_answer_a_longer_one(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A request's "undecided" says only what two seconds could do: a job with a larger budget
    (a review's solve) searches again, and its own "undecided" then stands for the shorter
    searches too."""
    calls: list[float] = []

    def loaded(position: engine.Position, **kwargs: Any) -> solver.Solution:
        calls.append(kwargs["time_limit"])
        return solver.Solution("undecided")

    monkeypatch.setattr(solver, "solve", loaded)
    game = start(client)
    key = show_a_win.cache_key(game.record)
    position = game.replay().position

    show_a_win.answer(game.record, position)
    show_a_win.answer(game.record, position, time_limit=30.0, undecided_seconds=3600)
    show_a_win.answer(game.record, position)

    assert calls == [show_a_win.TIME_LIMIT, 30.0]
    assert cache.get(key) == {"status": "undecided", "line": [], "searched": 30.0}
    assert 3500 < kept_for(key) <= 3600


def _other_move(game: Game) -> str:
    """A card move that is not the line's first (the player leaves the line)."""
    game.refresh_from_db()
    position = game.replay().position
    kept = cache.get(show_a_win.cache_key(game.record))
    line_first = kept["line"][0] if kept else ""
    return next(
        m.text for m in engine.legal_moves(position) if m.card is not None and m.text != line_first
    )


# ---------------------------------------------------------------- stepping through the line


def test_next_plays_the_lines_moves_through_the_pipeline(client: Client) -> None:
    game = start(client)
    post(client, game, "show-a-win")
    line = shown_line(client)

    for step in range(1, 4):
        response = post(client, game, "show-a-win/next", auto="1")
        assert response.status_code == 200
        html = text(response)
        assert line_step(html) == step
        assert f"Move {step + 1} of {len(line)}" in words(html)

    game.refresh_from_db()
    assert game.moves.split() == line[:3]
    assert game.move_count == 3
    assert game.auto_flags == "000"  # the line is played as it is, auto-move or not
    assert game.started_at is not None


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_the_lines_list_marks_the_moves_played_and_the_next_in_the_pages_language(
    client: Client, language: str
) -> None:
    """The list of the line's moves (its items are remembered per process, game.board.
    show_a_win._step_item): one item per move, those played "done", the next one the current
    step, and each move said as the board says it in the page's language."""
    game = start(client)
    prefix = "" if language == "en" else f"/{language}"
    post(client, game, "show-a-win")
    line = shown_line(client)
    for step in range(2):
        url = f"{prefix}/game/{game.pk}/show-a-win/next/"
        response = client.post(url, {"n": step, "auto": "0"}, headers=HX)
        assert response.status_code == 200
    html = text(response).split('id="show-a-win"')[1]
    items = re.findall(r"<li( [^>]*)?>([^<]*)</li>", html)
    assert len(items) == len(line)
    marks = [attributes for attributes, _ in items]
    assert marks[:2] == [' class="done"', ' class="done"']
    assert marks[2] == ' class="next" aria-current="step"'
    assert set(marks[3:]) == {""}
    with translation.override(language):
        said = [board_words.capfirst(board_words.describe(engine.Move.parse(m))) for m in line]
    assert [unescape(item) for _, item in items] == said
    if language != "en":
        english = [board_words.capfirst(engine.Move.parse(m).describe()) for m in line]
        assert said != english


def test_previous_is_undo_and_stays_on_the_line(client: Client) -> None:
    game = start(client)
    post(client, game, "show-a-win")
    line = shown_line(client)
    post(client, game, "show-a-win/next")
    post(client, game, "show-a-win/next")

    html = text(post(client, game, "undo"))

    assert line_step(html) == 1
    second = engine.Move.parse(line[1])
    assert second.card is not None
    assert hinted_card(html) == second.card.code
    game.refresh_from_db()
    assert game.moves.split() == line[:1]


def test_play_it_out_wins_and_statistics_count_it_played_not_won(client: Client) -> None:
    game = start(client)
    post(client, game, "show-a-win")
    post(client, game, "show-a-win/next")

    response = post(client, game, "show-a-win/out")

    assert response.status_code == 200
    html = text(response)
    assert "All 52 cards are home" in html
    assert "counts as played, not won" in html
    assert "You won!" not in html
    game.refresh_from_db()
    assert (game.status, game.cards_home, game.assisted) == (Game.Status.WON, 52, True)
    assert game.moves.split() == shown_line(client)
    figures = stats.for_session(client.session.session_key)
    assert (figures.played, figures.won, figures.current_streak) == (1, 0, 0)
    assert figures.best_time_ms is None
    assert [g.result for g in figures.recent] == ["assisted"]
    page = text(client.get("/stats/"))
    assert re.search(r'data-stat="played">1<', page)
    assert re.search(r'data-stat="won">0<', page)
    assert 'class="result assisted"' in page


def test_play_it_out_without_javascript_redirects_to_the_won_game(client: Client) -> None:
    game = start(client)
    post(client, game, "show-a-win", htmx=False)

    response = post(client, game, "show-a-win/out", htmx=False)

    assert response.status_code == 303
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    assert "All 52 cards are home" in text(client.get(f"/game/{game.pk}/"))


def test_an_assisted_daily_win_is_played_not_won_in_the_daily_figures(client: Client) -> None:
    with time_machine.travel("2026-11-29 12:00Z", tick=False):
        client.post("/daily/")  # dealt for real (a first view stores nothing)
        page = client.get("/daily/")
        assert page.status_code == 200
        found = re.search(rb'data-game="(\d+)"', page.content)
        assert found is not None
        game = Game.objects.get(pk=int(found[1]))
        assert game.deal_number == deals.todays_deal_number()
        post(client, game, "show-a-win")
        post(client, game, "show-a-win/out")
        game.refresh_from_db()

        figures = daily_figures.day_figures(deals.today_utc())
        result = player.day_result(game)

    assert game.status == Game.Status.WON
    assert (figures.players, figures.winners) == (1, 0)
    assert result.state == "assisted"


def test_playing_another_move_leaves_the_line(client: Client) -> None:
    game = start(client)
    post(client, game, "show-a-win")
    other = _other_move(game)

    html = text(post(client, game, "move", move=other))

    assert WON not in html
    assert line_step(html) is None
    assert show_a_win.SESSION_KEY not in client.session
    refused = post(client, game, "show-a-win/next")
    assert refused.status_code == 400
    assert "Show a win" in text(refused)
    game.refresh_from_db()
    assert game.move_count == 1
    assert game.assisted  # Show a win was used: leaving the line does not undo that


def test_next_without_a_line_is_refused(client: Client) -> None:
    game = start(client)

    for action in ("show-a-win/next", "show-a-win/out"):
        response = post(client, game, action)
        assert response.status_code == 400
        assert "no winning line" in text(response)
    game.refresh_from_db()
    assert (game.move_count, game.assisted) == (0, False)


def test_next_on_a_stale_board_plays_nothing(client: Client) -> None:
    game = start(client)
    post(client, game, "show-a-win")
    post(client, game, "show-a-win/next")

    response = post(client, game, "show-a-win/next", n=0)

    assert response.status_code == 409
    game.refresh_from_db()
    assert game.move_count == 1


def test_a_line_is_shown_only_beside_its_own_game(client: Client) -> None:
    first = start(client)
    post(client, first, "show-a-win")

    second = start(client, DEAL + 1)
    html = text(client.get(f"/game/{second.pk}/"))

    assert WON not in html
    second.refresh_from_db()
    assert not second.assisted


def test_show_a_win_is_not_offered_on_a_won_game(client: Client) -> None:
    game = start(client)
    post(client, game, "show-a-win")
    post(client, game, "show-a-win/out")

    html = text(client.get(f"/game/{game.pk}/"))
    assert re.search(r'data-action="show-a-win"[^>]*disabled', html)
    assert "nothing to show" in text(client.get(f"/game/{game.pk}/show-a-win/"))
    assert post(client, game, "show-a-win").status_code == 400


def test_the_embed_does_not_offer_show_a_win(client: Client) -> None:
    html = text(client.get("/embed/"))

    assert "Show a win" not in html
    assert "/show-a-win/" not in html


# ---------------------------------------------------------------- the hint's redeal and merci


def test_the_hint_says_redeal_now_and_marks_the_redeal_button(client: Client) -> None:
    number, moves = hinted_before("redeal")
    game = start(client, number)
    store(game, [engine.Move.parse(m) for m in moves])

    html = text(client.get(f"/game/{game.pk}/hint/", headers=HX))

    assert "Hint: Redeal now" in html
    assert re.search(r'data-action="redeal"[^>]*data-hint="card"', html)


def test_the_hint_names_the_mercis_buried_card_and_marks_it(client: Client) -> None:
    number, moves = hinted_before("merci")
    game = start(client, number)
    store(game, [engine.Move.parse(m) for m in moves])
    position = game.replay().position
    found = engine.hint(position)
    assert found is not None
    assert found.move.merci
    assert found.move.card is not None
    where = position.find(found.move.card)
    assert where is not None

    html = text(client.get(f"/game/{game.pk}/hint/", headers=HX))

    card = found.move.card
    assert f"Hint: take the merci: the {card.name}, buried in fan {where[0] + 1}," in words(html)
    assert re.search(
        rf'class="card [^"]*buried[^"]*" data-card="{card.code}"[^>]*data-hint="card"', html
    )
    assert html.count('data-hint="target"') == 1
