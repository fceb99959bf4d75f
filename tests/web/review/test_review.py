"""The review of a finished game through the test client: where a lost game slipped away,
checked against the solver run on the record directly; finding the move; fair or foresight;
bounded per request and kept with the game; refusals that change nothing."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client
from redis.exceptions import RedisError

from game import engine
from game.board import store as game_store
from game.engine import solver
from game.models import Game, GameReview
from game.ops import asking, keeper, leases, limits, queue, searches
from game.ops.jobs import Job
from game.review import found as reviews
from game.review import review_job
from lucie import metrics
from tests.helpers.daily import open_daily
from tests.helpers.play import start
from tests.helpers.review import (
    HX,
    LOST_BEFORE_A_REDEAL,
    LOST_FROM_THE_START,
    LOST_IN_THE_LAST_DEAL,
    WON_BY_GREEDY,
    ask_review,
    greedy_record,
    lost_game,
    review_page,
    review_until_done,
    state,
    won_game,
)
from tests.helpers.slots import every_slot_held

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- helpers


def last_winnable(html: str) -> int | None:
    found = re.search(r'data-last-winnable="(-?\d+)"', html)
    return None if found is None else int(found[1])


def position_after(number: int, rules: str, moves: tuple[str, ...], count: int) -> engine.Position:
    parsed = [engine.Move.parse(text) for text in moves[:count]]
    return engine.Play(number, engine.Rules.parse(rules), parsed).position


def verdict(position: engine.Position) -> str:
    return solver.solve(position, max_nodes=None, time_limit=None).status


def unchanged(game: Game) -> dict[str, object]:
    game.refresh_from_db()
    fields = ("moves", "redo", "move_count", "status", "undos", "hints", "assisted", "updated_at")
    return {name: getattr(game, name) for name in fields}


# ---------------------------------------------------------------- where it slipped away


@pytest.mark.parametrize(
    "case",
    [LOST_BEFORE_A_REDEAL, LOST_IN_THE_LAST_DEAL, (13, "nomerci"), (7, "trefoil"), (2, "sixteen")],
    ids=lambda case: f"{case[1]}-{case[0]}",
)
def test_the_last_winnable_position_is_the_solvers(client: Client, case: tuple[int, str]) -> None:
    game = lost_game(client, case)
    moves = greedy_record(*case)

    html = review_until_done(client, game)

    assert state(html) == "done"
    k = last_winnable(html)
    assert k is not None
    assert 0 <= k < len(moves)
    assert verdict(position_after(*case, moves, k)) == "won"
    assert verdict(position_after(*case, moves, k + 1)) == "lost"
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert f"Move {k + 1}, {engine.Move.parse(moves[k]).describe()}, lost it" in said


def test_a_deal_lost_from_its_first_position_says_minus_one(client: Client) -> None:
    game = lost_game(client, LOST_FROM_THE_START)
    html = review_until_done(client, game)

    assert state(html) == "done"
    assert last_winnable(html) == -1
    assert verdict(position_after(*LOST_FROM_THE_START, (), 0)) == "lost"
    assert "No win from the start" in html
    assert "Find the move" not in html


def test_a_win_lost_in_the_last_deal_was_in_view(client: Client) -> None:
    game = lost_game(client, LOST_IN_THE_LAST_DEAL)
    html = review_until_done(client, game)
    k = last_winnable(html)
    assert k is not None

    assert position_after(
        *LOST_IN_THE_LAST_DEAL, greedy_record(*LOST_IN_THE_LAST_DEAL), k
    ).is_last_deal
    assert 'data-fairness="in-view"' in html
    assert "a mistake a player could have seen" in html


def test_before_a_redeal_the_fair_hint_decides_fair_or_foresight(client: Client) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    html = review_until_done(client, game)
    kept = GameReview.objects.get(game=game).found
    k = last_winnable(html)
    assert k is not None
    position = position_after(*LOST_BEFORE_A_REDEAL, greedy_record(*LOST_BEFORE_A_REDEAL), k)
    assert not position.is_last_deal

    hinted = engine.Move.parse(kept["hint"])
    keeps = verdict(engine.apply(position, hinted)) == "won"
    if keeps:
        assert 'data-fairness="fair"' in html
        assert "The hint would have kept it" in html
    else:
        assert 'data-fairness="foresight"' in html
        assert "not a mistake" in html


def test_moments_of_disagreement_are_at_most_three_in_order(client: Client) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    html = review_until_done(client, game)

    numbers = [int(n) for n in re.findall(r'data-moment="(\d+)"', html)]
    assert 0 < len(numbers) <= 3
    assert numbers == sorted(numbers)
    assert last_winnable(html) + 1 not in numbers  # type: ignore[operator]


# ---------------------------------------------------------------- find the move


def test_find_the_move_accepts_a_winning_try_refuses_a_losing_one_and_changes_nothing(
    client: Client,
) -> None:
    case = LOST_BEFORE_A_REDEAL
    game = lost_game(client, case)
    moves = greedy_record(*case)
    html = review_until_done(client, game)
    k = last_winnable(html)
    assert k is not None
    assert "A win was still possible here. Find a move that keeps it." in html
    position = position_after(*case, moves, k)
    winning = next(
        move
        for move in engine.legal_moves(position)
        if verdict(engine.apply(position, move)) == "won"
    )
    before = unchanged(game)

    kept = client.post(f"/game/{game.pk}/review/try/", {"move": winning.text})
    lost = client.post(f"/game/{game.pk}/review/try/", {"move": moves[k]}, headers=HX)

    assert kept.status_code == 200
    assert 'data-try="won"' in kept.content.decode()
    assert lost.status_code == 200
    assert 'data-try="lost"' in lost.content.decode()
    assert "One move that keeps it" in lost.content.decode()
    assert unchanged(game) == before


@pytest.mark.parametrize(
    ("move", "words"),
    [("", "move"), ("XX>F", "card"), ("6C>7C>8C", ""), ("QS>KS" * 4, "")],
)
def test_a_malformed_or_illegal_try_is_a_400_and_changes_nothing(
    client: Client, move: str, words: str
) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    review_until_done(client, game)
    before = unchanged(game)

    response = client.post(f"/game/{game.pk}/review/try/", {"move": move})

    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert unchanged(game) == before


def test_an_illegal_try_is_a_400(client: Client) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    html = review_until_done(client, game)
    k = last_winnable(html)
    assert k is not None
    position = position_after(*LOST_BEFORE_A_REDEAL, greedy_record(*LOST_BEFORE_A_REDEAL), k)
    legal = {move.text for move in engine.legal_moves(position)}
    illegal = next(text for card in engine.DECK if (text := f"{card.code}>F") not in legal)

    response = client.post(f"/game/{game.pk}/review/try/", {"move": illegal})

    assert response.status_code == 400


def test_show_me_steps_through_a_winning_line(client: Client) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    review_until_done(client, game)
    line = GameReview.objects.get(game=game).found["slip"]["line"]

    shown = review_page(client, game, "?show=1")
    last = review_page(client, game, f"?show=1&step={len(line)}")

    assert engine.Move.parse(line[0]).describe() in shown
    assert f"Move <b>{len(line)}</b> of {len(line)}" in last
    assert 'aria-label="Clubs foundation: King of Clubs"' in last  # the line ends with 52 home


# ---------------------------------------------------------------- bounded and kept


@pytest.fixture
def woken(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The wake-ups put on the queue, which no worker takes: the jobs stay waiting."""
    keys: list[str] = []

    def wake(key: str, kind: str, *, behind: int = 0, priority: int | None = None) -> bool:
        keys.append(key)
        return True

    monkeypatch.setattr(leases, "wake", wake)
    return keys


def test_a_review_is_a_job_that_the_page_asks_for_then_polls_until_done(
    client: Client, woken: list[str]
) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)

    first = review_page(client, game)
    assert state(first) == "working"
    assert woken == []  # a page view asks for nothing: its form does, as it loads
    assert 'hx-trigger="load, submit"' in first
    assert "data-review-poll" not in first
    assert not GameReview.objects.filter(game=game).exists()

    asked = client.post(f"/game/{game.pk}/review/ask/", headers=HX)
    assert asked.status_code == 200
    page = asked.content.decode()
    assert state(page) == "working"
    assert 'hx-trigger="load delay:2s"' in page  # the page polls by itself
    assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in review_page(
        client, game
    )
    assert not re.search(r"\bsolver?s?\b", page.lower())  # in a player's words
    for _ in range(3):
        assert state(review_page(client, game, **HX)) == "working"
    client.post(f"/game/{game.pk}/review/ask/", headers=HX)  # a second press: the job is open
    assert woken == [review_job.job_key(game)]

    # A worker takes the job; the next poll shows it finished.
    leases.run.call_local(review_job.job_key(game))
    done = review_page(client, game, **HX)
    assert state(done) == "done"
    assert last_winnable(done) is not None
    assert "data-review-poll" not in done
    assert Job.objects.get(key=review_job.job_key(game)).state == Job.State.DONE


def test_a_job_whose_worker_died_is_woken_again_once_its_lease_lapses(
    client: Client, woken: list[str]
) -> None:
    game = lost_game(client, LOST_IN_THE_LAST_DEAL)
    ask_review(client, game)
    key = review_job.job_key(game)
    assert leases.claim(key, "a worker that is then killed") is not None
    assert keeper.sweep(pending=0) == []  # its lease still runs: nothing to do
    with time_machine.travel(
        dt.datetime.now(dt.UTC) + dt.timedelta(seconds=leases.LEASE_SECONDS + 1)
    ):
        assert [job.key for job in keeper.sweep(pending=0)] == [key]
        assert state(review_page(client, game, **HX)) == "working"  # still waited for
        leases.run.call_local(key)  # the wake-up the sweep gave, on another worker
    assert state(review_page(client, game, **HX)) == "done"
    job = Job.objects.get(key=key)
    assert (job.state, job.attempts) == (Job.State.DONE, 2)


def test_a_lost_wake_up_is_given_again_only_when_the_queue_holds_fewer_than_wait(
    client: Client, woken: list[str]
) -> None:
    games = [lost_game(client, LOST_BEFORE_A_REDEAL) for _ in range(2)]
    for game in games:
        ask_review(client, game)
    later = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=leases.PICKUP_SECONDS + 1)
    with time_machine.travel(later):
        assert keeper.sweep(pending=2) == []  # both wake-ups are still on the queue
        # The queue was emptied (a Redis restarted without its data): both are woken again.
        assert sorted(job.key for job in keeper.sweep(pending=0)) == sorted(
            review_job.job_key(game) for game in games
        )
        assert keeper.sweep(pending=0) == []  # once per pickup, not every sweep


def test_a_review_is_never_worked_on_twice_at_once(client: Client, woken: list[str]) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    ask_review(client, game)
    assert leases.claim(review_job.job_key(game), "another worker") is not None
    leases.run.call_local(review_job.job_key(game))
    # The job found its lease held and did nothing: the review is as it was.
    assert state(review_page(client, game)) == "working"
    assert GameReview.objects.get(game=game).found["slip"]["solves"] == 0


def test_a_finished_review_is_read_from_the_database_by_any_server(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    first = review_until_done(client, game)
    cache.clear()  # another server: nothing in this one's cache

    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("a finished review searched again")

    monkeypatch.setattr(solver, "solve", no_search)
    monkeypatch.setattr("game.board.hints.fair_hint", no_search)
    again = review_page(client, game)

    assert state(again) == "done"
    assert last_winnable(again) == last_winnable(first)


def test_an_undecided_solve_is_said_plainly_with_the_stretch_on_a_board(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    monkeypatch.setattr(reviews, "SOLVE_NODES", 50)

    html = review_until_done(client, game)

    assert state(html) == "undecided"
    assert last_winnable(html) is None
    assert "could not settle" in html
    found = GameReview.objects.get(game=game).found["slip"]
    low, high = max(found["low"], 0), found["high"]
    assert f"The win was lost between move {low + 1} and move {high}" in html
    assert re.findall(r'data-stretch-move="(\d+)"', html) == [
        str(n) for n in range(low + 1, high + 1)
    ]
    assert 'class="board replay-board"' in html


def test_a_review_past_its_cpu_budget_says_where_it_stands(client: Client, settings: Any) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    settings.REVIEW_CPU_SECONDS = 0

    html = review_until_done(client, game)

    assert state(html) == "undecided"
    assert f"The win was lost between move 1 and move {game.move_count}" in html
    assert len(re.findall(r"data-stretch-move=", html)) == game.move_count


def test_a_review_that_fails_on_every_try_says_so_and_a_press_asks_again(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    tries: list[int] = []

    def broken(game_id: int, **kwargs: object) -> None:
        tries.append(game_id)
        raise RuntimeError("the database went away")

    monkeypatch.setattr(reviews, "work_through", broken)
    html = ask_review(client, game, **HX).content.decode()
    assert tries == [game.pk] * leases.MAX_ATTEMPTS
    assert state(html) == "failed"
    assert "could not be finished" in html
    assert "Try the review again" in html
    assert state(review_page(client, game, **HX)) == "failed"  # a poll does not ask again
    assert len(tries) == leases.MAX_ATTEMPTS
    assert "the database went away" in Job.objects.get(key=review_job.job_key(game)).error

    monkeypatch.undo()
    assert state(ask_review(client, game, **HX).content.decode()) == "done"


def test_a_queue_that_refuses_the_job_is_said_not_a_500(
    client: Client, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)

    def down(*args: object, **kwargs: object) -> None:
        raise RedisError("Connection refused")

    monkeypatch.setattr(queue.huey, "enqueue", down)
    before = metrics.QUEUE_ERRORS._value.get()
    html = ask_review(client, game, **HX).content.decode()

    assert "could not be started just now" in html
    assert metrics.QUEUE_ERRORS._value.get() == before + 1
    assert "the task queue failed" in caplog.text
    # Not a failed review: the site's trouble. The page asks again by itself once the wait it
    # was told is over.
    assert state(html) == "working"
    assert "Not finished" not in html
    assert 'hx-trigger="load delay:60s, submit"' in html
    # Remembered as down a few seconds: the next ask does not wait for it again.
    assert not leases.wake("any", "review")
    monkeypatch.undo()
    queue._Down.until = 0.0
    assert state(ask_review(client, game, **HX).content.decode()) == "done"


def test_after_the_queue_is_back_the_next_visit_asks_again_by_itself(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The queue's Redis frozen while the review was asked, then thawed: the player's next
    visit is the page that asks as it loads (a POST from htmx on load; a button without
    JavaScript), not a "Not finished" that waits for a press."""
    game = lost_game(client, LOST_BEFORE_A_REDEAL)

    def frozen(*args: object, **kwargs: object) -> None:
        raise RedisError("Timeout reading from socket")

    monkeypatch.setattr(queue.huey, "enqueue", frozen)
    ask_review(client, game, **HX)
    monkeypatch.undo()
    queue._Down.until = 0.0  # thawed, and a few seconds on

    page = review_page(client, game)
    form = re.search(r"<form[^>]*data-review-ask[^>]*>", page)
    assert form is not None, page
    assert f'hx-post="/game/{game.pk}/review/ask/"' in form[0]
    assert 'hx-trigger="load, submit"' in form[0]
    assert state(page) == "working"
    assert "Start the review" in page  # the button without JavaScript
    # What htmx posts on load: the review is asked, and (the tests' queue runs at once) done.
    assert state(ask_review(client, game, **HX).content.decode()) == "done"


def test_a_full_queue_says_so_and_a_flood_of_reviews_never_refuses_show_a_win(
    client: Client, settings: Any, woken: list[str]
) -> None:
    settings.QUEUE_CAPS = {**settings.QUEUE_CAPS, "review": 2}
    games = [lost_game(client, LOST_BEFORE_A_REDEAL) for _ in range(3)]
    for game in games[:2]:
        assert state(ask_review(client, game, **HX).content.decode()) == "working"
    full = ask_review(client, games[2], **HX)
    assert full.status_code == 200
    assert "Many reviews are waiting" in full.content.decode()
    assert int(full["Retry-After"]) >= 1
    assert len(woken) == 2
    # Another kind still has room.
    assert asking.ask("show_a_win", "show_a_win:test", "x").outcome == "queued"


def test_an_askers_second_review_is_taken_after_everyones_first(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    behind: list[tuple[str, int]] = []
    monkeypatch.setattr(
        leases, "wake", lambda key, kind, *, behind=0, priority=None: behind_of(key, behind)
    )

    def behind_of(key: str, count: int) -> bool:
        behind.append((key, count))
        return True

    mine = [lost_game(client, LOST_BEFORE_A_REDEAL) for _ in range(3)]
    for game in mine:
        ask_review(client, game)
    other = Client()
    theirs = lost_game(other, LOST_IN_THE_LAST_DEAL)
    other.post(f"/game/{theirs.pk}/review/ask/", REMOTE_ADDR="203.0.113.9")
    assert [count for _key, count in behind] == [0, 1, 2, 0]
    assert queue.PRIORITIES["review"] - min(2, queue.BEHIND_MOST) < queue.PRIORITIES["review"]


# ---------------------------------------------------------------- refusals


def test_refusals_are_clear_and_change_nothing(client: Client) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    stranger = Client()
    stranger.get("/")

    assert client.get("/game/999999/review/").status_code == 404
    assert stranger.get(f"/game/{game.pk}/review/").status_code == 404
    assert stranger.post(f"/game/{game.pk}/review/try/", {"move": "R"}).status_code == 404
    assert client.post(f"/game/{game.pk}/review/").status_code == 405
    assert client.get(f"/game/{game.pk}/review/try/").status_code == 405
    assert not GameReview.objects.exists()

    playing = start(client, 9)
    response = client.get(f"/game/{playing.pk}/review/")
    assert response.status_code == 400
    assert "still being played" in response.content.decode()
    assert client.post(f"/game/{playing.pk}/review/try/", {"move": "R"}).status_code == 400
    assert not GameReview.objects.exists()


def test_a_game_undone_out_of_its_loss_starts_its_review_afresh(client: Client) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    review_until_done(client, game)
    client.post(f"/game/{game.pk}/undo/", {"n": game.move_count}, headers=HX)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING

    assert client.get(f"/game/{game.pk}/review/").status_code == 400
    moves = greedy_record(*LOST_BEFORE_A_REDEAL)
    client.post(
        f"/game/{game.pk}/move/", {"n": game.move_count, "move": moves[-1], "auto": "0"}, headers=HX
    )
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    html = review_until_done(client, game)
    assert GameReview.objects.get(game=game).moves == game.moves
    assert state(html) == "done"


def test_the_end_panel_and_the_replay_link_to_the_review(client: Client) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)

    board = client.get(f"/game/{game.pk}/").content.decode()
    replay = client.get(f"/replay/{game.replay_token}/").content.decode()
    shared = Client().get(f"/replay/{game.replay_token}/").content.decode()

    link = f'href="/game/{game.pk}/review/"'
    assert link in board
    assert "Review this game" in board
    assert link in replay
    assert link not in shared  # whoever has the replay link sees no review of someone's game


# ---------------------------------------------------------------- a won game, clean or not


def test_a_won_game_without_help_is_clean_everywhere(client: Client) -> None:
    game = won_game(client)

    board = client.get(f"/game/{game.pk}/").content.decode()
    html = review_page(client, game)
    stats = client.get("/stats/").content.decode()

    assert state(html) == "done"
    assert "A clean win" in html
    assert last_winnable(html) is None
    assert "A clean win: no undo, no hint" in board
    assert 'data-stat="clean-won">1<' in stats
    assert 'data-stat="clean-streak">1<' in stats
    assert f'href="/game/{game.pk}/review/"' in stats


def test_an_undo_taken_back_by_redo_makes_a_win_not_clean(client: Client) -> None:
    moves = greedy_record(*WON_BY_GREEDY)
    game = start(client, *WON_BY_GREEDY)
    client.post(f"/game/{game.pk}/move/", {"n": 0, "move": moves[0], "auto": "0"}, headers=HX)
    client.post(f"/game/{game.pk}/undo/", {"n": 1}, headers=HX)
    client.post(f"/game/{game.pk}/redo/", {"n": 0, "auto": "0"}, headers=HX)
    for count, text in enumerate(moves[1:], start=1):
        action, data = ("redeal", {}) if text == "R" else ("move", {"move": text})
        client.post(f"/game/{game.pk}/{action}/", {"n": count, "auto": "0", **data}, headers=HX)
    game.refresh_from_db()
    assert game.status == Game.Status.WON
    assert game.undos == 1

    html = review_page(client, game)
    stats = client.get("/stats/").content.decode()

    assert not game.is_clean_win
    assert "A clean win" not in html
    assert 'data-figure="undos">1<' in html
    assert 'data-stat="won">1<' in stats
    assert 'data-stat="clean-won">0<' in stats


def test_a_hint_makes_a_win_not_clean(client: Client) -> None:
    moves = greedy_record(*WON_BY_GREEDY)
    game = start(client, *WON_BY_GREEDY)
    client.post(f"/game/{game.pk}/move/", {"n": 0, "move": moves[0], "auto": "0"}, headers=HX)
    assert client.post(f"/game/{game.pk}/hint/", {"n": 1}, headers=HX).status_code == 200
    for count, text in enumerate(moves[1:], start=1):
        action, data = ("redeal", {}) if text == "R" else ("move", {"move": text})
        client.post(f"/game/{game.pk}/{action}/", {"n": count, "auto": "0", **data}, headers=HX)
    game.refresh_from_db()

    assert game.status == Game.Status.WON
    assert game.hints == 1
    assert not game.is_clean_win
    assert 'data-stat="clean-won">0<' in client.get("/stats/").content.decode()


def test_show_a_win_makes_a_game_assisted_never_clean(client: Client) -> None:
    game = start(client, *WON_BY_GREEDY)
    client.post(f"/game/{game.pk}/show-a-win/", {"n": 0}, headers=HX)
    game.refresh_from_db()
    game_store.save(
        game,
        engine.Play(
            3, engine.DEFAULT_RULES, [engine.Move.parse(t) for t in greedy_record(*WON_BY_GREEDY)]
        ),
    )
    game.refresh_from_db()

    html = review_page(client, game)

    assert game.assisted
    assert game.status == Game.Status.WON
    assert not game.is_clean_win
    assert "Won with “Show a win”" in html


def test_a_hint_on_a_first_board_counts_once_the_game_is_stored(client: Client) -> None:
    start(client, 9)  # a session
    moves = greedy_record(*WON_BY_GREEDY)

    assert client.post("/deal/3/hint/", {"n": 0}, headers=HX).status_code == 200
    response = client.post("/deal/3/move/", {"n": 0, "move": moves[0], "auto": "0"}, headers=HX)

    assert response.status_code == 200
    game = Game.objects.get(deal_number=3)
    assert game.hints == 1
    assert game.move_count == 1


# ---------------------------------------------------------------- busy, rate-limited


def test_a_review_takes_no_compute_slot_from_hints(client: Client) -> None:
    game = lost_game(client, LOST_BEFORE_A_REDEAL)
    # Every slot a request's hint may use is taken: the review's job needs none.
    with every_slot_held(searches._slots):
        asked = ask_review(client, game)
        plain = client.get(f"/game/{game.pk}/review/")
        tried = client.post(f"/game/{game.pk}/review/try/", {"move": "R"})

    assert asked.status_code == 303
    assert plain.status_code == 200
    assert state(plain.content.decode()) == "done"
    assert tried.status_code in (200, 400, 503)  # a try is a request's search: never a 500


def test_asking_for_a_review_meets_the_solvers_rate_limit_and_polls_do_not(
    client: Client, settings: Any, woken: list[str]
) -> None:
    # One minute's window throughout: django-ratelimit counts per clock minute.
    with time_machine.travel(dt.datetime(2026, 12, 3, 12, 0, 5, tzinfo=dt.UTC), tick=False):
        games = [lost_game(client, LOST_BEFORE_A_REDEAL) for _ in range(2)]
        settings.RATELIMIT_ENABLE = True
        per_session = int(limits.SOLVE.per_session.split("/")[0])  # type: ignore[union-attr]
        ask_review(client, games[0], **HX)
        polls = [
            client.get(f"/game/{games[0].pk}/review/", headers=HX).status_code
            for _ in range(per_session + 2)
        ]
        assert set(polls) == {200}
        assert woken == [review_job.job_key(games[0])]
        # Past the limit (the session's tries count too), asking is refused with a clear answer.
        for _ in range(per_session):
            client.post(f"/game/{games[0].pk}/review/try/", {"move": "R"})
        refused = ask_review(client, games[1], **HX)
        assert refused.status_code == 200
        assert int(refused["Retry-After"]) >= 1
        assert woken == [review_job.job_key(games[0])]


def test_an_embed_game_has_no_review(client: Client) -> None:
    client.get("/")
    embed = game_store.start_unattached(*LOST_BEFORE_A_REDEAL[:1], engine.DEFAULT_RULES)
    moves = [engine.Move.parse(text) for text in greedy_record(*LOST_BEFORE_A_REDEAL)]
    game_store.save(embed, engine.Play(LOST_BEFORE_A_REDEAL[0], engine.DEFAULT_RULES, moves))
    embed.refresh_from_db()
    assert embed.status == Game.Status.LOST

    assert client.get(f"/game/{embed.pk}/review/").status_code == 404
    frame = Client().get(f"/embed/g/{embed.token}/").content.decode()
    assert "Review this game" not in frame
    assert not GameReview.objects.exists()


def test_a_daily_game_is_reviewed_like_any_other(client: Client, settings: Any) -> None:
    settings.SITE_START_MONTH = "2026-01"
    day = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
    number = 20261201
    game = engine.Play(number, engine.DEFAULT_RULES)
    while (found := engine.greedy_hint(game.position)) is not None:
        game.play(found.move)
    assert game.position.cards_home < 52
    with time_machine.travel(day, tick=False):
        stored = open_daily(client)
        assert stored.daily_entry
        assert stored.deal_number == number
        game_store.save(stored, game)
        stored.refresh_from_db()
        html = review_until_done(client, stored)
    k = last_winnable(html)
    assert k is not None
    if k >= 0:
        assert verdict(game.positions()[k]) == "won"
    assert verdict(game.positions()[k + 1]) == "lost"
