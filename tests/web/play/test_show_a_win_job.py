"""Show a win past a request's budget (issue 33): the request's own search gives up, a job on the
task queue searches on from the same position far longer (game/board/show_a_win_job.py), and the
board follows it by itself until the answer is in. The tests' queue is immediate
(tests/conftest.py): a job runs in the request that asks for it, unless a test holds it back as a
queue with a busy worker would."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from redis.exceptions import RedisError

from game import engine
from game.board import show_a_win, show_a_win_job
from game.engine import solver
from game.models import Game
from game.ops import asking, leases, queue
from game.ops.jobs import Job
from lucie import metrics
from tests.helpers.board import heard, kept_for
from tests.helpers.play import a_card_move, start
from tests.helpers.play import post as change
from tests.helpers.show_a_win import (
    STILL_LOOKING,
    WON,
    HeldJobs,
    ask,
    panel,
    poll,
    request_gives_up,
    search_on,
    searches,
)

pytestmark = pytest.mark.django_db

REFRESH = '<noscript><meta http-equiv="refresh" content="5"></noscript>'


def record_of(game: Game) -> engine.Record:
    game.refresh_from_db()
    return game.record


# ---------------------------------------------------------------- undecided, then decided


def test_a_request_that_gives_up_asks_a_job_whose_line_the_board_shows(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    asked = searches(monkeypatch)
    game = start(client)

    response = ask(client, game)

    assert response.status_code == 200
    html = response.content.decode()
    assert WON in html
    assert 'data-action="show-a-win-next"' in html
    # The request's search, then the job's, with its budget in CPU seconds.
    assert [call["time_limit"] for call in asked] == [0.001, settings.SHOW_A_WIN_CPU_SECONDS]
    assert asked[1]["max_nodes"] == show_a_win.JOB_NODES
    # The proof is kept where every request reads it, for 30 days.
    key = show_a_win.cache_key(record_of(game))
    kept = cache.get(key)
    assert kept["status"] == "won"
    assert kept_for(key) > 29 * 86400
    assert f"can still be won from here, in {len(kept['line'])} moves." in html  # said


def test_another_player_reaching_the_position_gets_the_jobs_proof_with_no_search(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    ask(client, start(client))
    asked = searches(monkeypatch)
    other = Client()

    response = ask(other, start(other))

    assert WON in response.content.decode()
    assert asked == []


# ---------------------------------------------------------------- while the job works


def test_while_the_job_works_the_board_says_so_and_polls_until_its_answer_is_in(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)
    game = start(client)

    html = ask(client, game).content.decode()

    assert search_on(html) == "working"
    said = panel(html)
    assert STILL_LOOKING in said
    assert f'hx-get="/game/{game.pk}/show-a-win/wait/" hx-trigger="load delay:2s"' in said
    # In a player's words: no solver, no search, no budget.
    assert not re.search(r"\b(solver?|search\w*|undecided|cpu|job|queue)\b", heard(said).lower())
    assert "Still looking for a win from here…</div>" in html  # the live region says it once
    assert held.asked == [record_of(game).text]

    asked = searches(monkeypatch)
    for _ in range(3):
        waiting = poll(client, game)
        assert waiting.status_code == 200
        body = waiting.content.decode()
        assert body.lstrip().startswith('<section id="show-a-win"')  # the panel alone
        assert 'id="board"' not in body
        assert search_on(body) == "working"
        assert waiting["Cache-Control"] == "private, no-store"
    assert asked == []  # a poll never searches
    assert len(held.asked) == 1  # nor asks again while the job is asked

    held.work()  # a worker takes the job
    done = poll(client, game)

    assert done.status_code == 200
    assert done["HX-Retarget"] == "#board"
    assert done["HX-Reswap"] == "outerHTML"
    body = done.content.decode()
    assert body.startswith('<div id="board"')
    assert WON in body
    assert "data-search-on-poll" not in body
    line = cache.get(show_a_win.cache_key(record_of(game)))["line"]
    assert f"This game can still be won from here, in {len(line)} moves." in body  # said
    assert re.search(r'data-card="\w+"[^>]*data-hint="card"', body)  # its next move marked
    # From then on the board shows the line, on every page of the game.
    assert WON in client.get(f"/game/{game.pk}/").content.decode()


@pytest.mark.usefixtures("rate_limits")
def test_polls_are_not_counted_against_the_solvers_rate_limit(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    HeldJobs(monkeypatch)
    game = start(client)
    assert ask(client, game).status_code == 200

    for _ in range(40):  # more than the solver's limits, per session (10/m) and address (30/m)
        assert poll(client, game).status_code == 200

    assert ask(client, game).status_code == 200  # the player's own asks are not used up


def test_many_players_asking_at_one_position_queue_one_job(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)
    players = [Client() for _ in range(4)]

    for player in players:
        game = start(player)
        assert search_on(ask(player, game).content.decode()) == "working"
        assert search_on(poll(player, game).content.decode()) == "working"

    assert len(held.asked) == 1
    assert Job.objects.filter(kind="show_a_win").count() == 1


def test_a_poll_never_asks_for_a_job_whose_lease_lapsed_the_keeper_wakes_it(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its worker died, or the queue lost it: its lease lapsed. A poll is a GET and only reads:
    the board still says it is looking, and the keeper's sweep (not the page) wakes the job."""
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)
    game = start(client)
    ask(client, game)
    assert search_on(poll(client, game).content.decode()) == "working"
    assert len(held.asked) == 1
    job = Job.objects.get(key=show_a_win_job.job_key(record_of(game)))
    Job.objects.filter(pk=job.pk).update(lease_until=timezone.now() - dt.timedelta(seconds=1))

    assert search_on(poll(client, game).content.decode()) == "working"
    assert len(held.asked) == 1
    assert Job.objects.get(pk=job.pk).asked_at == job.asked_at


def test_a_board_whose_job_was_lost_long_ago_says_it_could_not_decide_and_asks_nothing(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No row of the job any more (pruned, or another database): the board says the plain
    "could not decide in time", stops polling, and writes no job: Show a win's POST asks one."""
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)
    game = start(client)
    ask(client, game)
    Job.objects.all().delete()

    page = client.get(f"/game/{game.pk}/").content.decode()
    assert search_on(page) is None
    assert "Could not decide in time" in page
    assert len(held.keys) == 1
    assert not Job.objects.exists()


def test_the_lease_keeps_a_second_job_from_searching_the_same_position(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)
    game = start(client)
    html = ask(client, game).content.decode()
    asked = searches(monkeypatch)

    # Another worker holds this position's job: a second wake-up for it does nothing.
    assert leases.claim(held.keys[0], "another worker") is not None
    held.work()

    assert asked == []
    assert search_on(html) == "working"


def test_a_job_finding_the_verdict_kept_already_does_not_search(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = start(client)
    ask(client, game)  # decided in the request
    asked = searches(monkeypatch)

    show_a_win_job.search_on_job(record_of(game).text)

    assert asked == []


# ---------------------------------------------------------------- when it cannot answer


def test_a_search_that_cannot_decide_within_its_cpu_budget_says_so_plainly(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    monkeypatch.setattr(show_a_win, "JOB_NODES", 10)  # the job's budget runs out too
    game = start(client)

    html = ask(client, game).content.decode()

    assert search_on(html) == "exhausted"
    assert "Even a long look could not tell whether this game can still be won" in panel(html)
    assert "data-search-on-poll" not in html
    key = show_a_win.cache_key(record_of(game))
    assert cache.get(key)["searched"] == settings.SHOW_A_WIN_CPU_SECONDS
    assert kept_for(key) > show_a_win_job.EXHAUSTED_SECONDS - 60
    # Asked again: that long search is believed, and nothing is searched again meanwhile.
    asked = searches(monkeypatch)
    assert search_on(ask(client, game).content.decode()) == "exhausted"
    assert asked == []


def test_a_job_that_fails_on_every_try_says_so(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    real = solver.solve
    tries: list[int] = []

    def broken(position: engine.Position, **kwargs: object) -> solver.Solution:
        if kwargs.get("time_limit") == settings.SHOW_A_WIN_CPU_SECONDS:
            tries.append(1)
            raise MemoryError("the worker ran out of memory")
        return real(position, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(solver, "solve", broken)
    game = start(client)

    response = ask(client, game)

    assert response.status_code == 200
    assert len(tries) == leases.MAX_ATTEMPTS
    html = response.content.decode()
    assert search_on(html) == "failed"
    assert "The longer look could not be finished" in panel(html)
    assert "data-search-on-poll" not in html


def test_a_queue_that_refuses_the_job_says_so_and_is_never_a_500(
    client: Client, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    request_gives_up(monkeypatch)

    def down(*args: object, **kwargs: object) -> None:
        raise RedisError("Connection refused")

    monkeypatch.setattr(queue.huey, "enqueue", down)
    before = metrics.QUEUE_ERRORS._value.get()
    game = start(client)

    response = ask(client, game)

    assert response.status_code == 200
    html = response.content.decode()
    assert search_on(html) == "refused"
    assert "Could not look further just now" in panel(html)
    assert "data-search-on-poll" not in html
    assert metrics.QUEUE_ERRORS._value.get() == before + 1
    assert "the task queue failed" in caplog.text
    key = show_a_win_job.job_key(record_of(game))
    assert kept_for(f"show-a-win-refused:{key.removeprefix('show_a_win:')}") <= (
        show_a_win_job.REFUSED_SECONDS
    )

    # The queue is back; once the refusal has been kept its while, asking again works.
    monkeypatch.undo()
    request_gives_up(monkeypatch)
    queue._Down.until = 0.0
    later = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=show_a_win_job.REFUSED_SECONDS + 1)
    with time_machine.travel(later):
        cache.clear()
        assert WON in ask(client, game).content.decode()


def test_a_queue_holding_its_cap_of_jobs_asks_no_more_and_says_so(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What a script finding many undecided positions from many addresses meets: the queue grows
    # no further than the cap, whoever asks.
    request_gives_up(monkeypatch)
    monkeypatch.setattr(settings, "QUEUE_CAPS", {**settings.QUEUE_CAPS, "show_a_win": 1})
    held = HeldJobs(monkeypatch)
    assert asking.ask("show_a_win", "show_a_win:another-position", "lucie 9").outcome == "queued"
    enqueued = held.keys[1:]
    game = start(client)

    response = ask(client, game)

    assert response.status_code == 200
    assert search_on(response.content.decode()) == "refused"
    assert enqueued == []


# ---------------------------------------------------------------- without JavaScript


def test_without_javascript_the_page_refreshes_itself_until_the_answer_is_in(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)
    game = start(client)

    asked = ask(client, game, htmx=False)
    assert asked.status_code == 303
    page = client.get(asked["Location"]).content.decode()

    assert STILL_LOOKING in page
    head = page.split("</head>")[0]
    assert REFRESH in head
    assert f'<noscript><p><a href="/game/{game.pk}/">Look again</a></p></noscript>' in page
    # The poll's own URL, opened as a plain link, goes to the game's page.
    plain = poll(client, game, htmx=False)
    assert (plain.status_code, plain["Location"]) == (303, f"/game/{game.pk}/")

    held.work()
    page = client.get(f"/game/{game.pk}/").content.decode()

    assert WON in page
    assert REFRESH not in page
    assert 'data-action="show-a-win-next"' in page


# ---------------------------------------------------------------- bad input


def test_a_poll_for_an_unknown_game_or_another_sessions_game_is_not_found(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)
    game = start(client)
    ask(client, game)
    stranger = Client()
    stranger.get("/")

    assert client.get("/game/999999/show-a-win/wait/").status_code == 404
    assert stranger.get(f"/game/{game.pk}/show-a-win/wait/").status_code == 404
    assert client.post(f"/game/{game.pk}/show-a-win/wait/").status_code == 405
    assert len(held.asked) == 1


def test_a_poll_from_a_board_the_game_has_left_gets_the_board_as_it_stands(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    HeldJobs(monkeypatch)
    game = start(client)
    ask(client, game)
    game.refresh_from_db()
    change(client, game, "move", htmx=True, move=a_card_move(game).text)  # from another tab

    response = poll(client, game)

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#board"
    body = response.content.decode()
    assert 'data-moves="1"' in body
    assert 'id="show-a-win"' not in body


def test_a_poll_for_a_game_with_nothing_on_show_gets_its_board(client: Client) -> None:
    game = start(client)

    response = poll(client, game)

    assert response.status_code == 200
    assert response["HX-Retarget"] == "#board"
    assert 'id="show-a-win"' not in response.content.decode()


def test_show_a_win_on_a_stale_board_asks_no_job(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)
    game = start(client)
    change(client, game, "move", htmx=True, move=a_card_move(game).text)

    response = client.post(f"/game/{game.pk}/show-a-win/", {"n": 0}, headers={"HX-Request": "true"})

    assert response.status_code == 409
    assert held.asked == []


# ---------------------------------------------------------------- a deal's first board, languages


def test_show_a_win_on_a_deals_first_board_asks_the_job_too(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)

    response = client.post("/deal/5/show-a-win/", {"n": 0}, headers={"HX-Request": "true"})

    assert response.status_code == 200
    assert search_on(response.content.decode()) == "working"
    assert held.asked == ["lucie 5"]


@pytest.mark.parametrize(
    ("language", "heading"),
    [
        ("fr", "Toujours \u00e0 la recherche d\u2019une victoire d\u2019ici\u2026"),
        ("de", "Wir suchen noch nach einem Sieg von hier aus \u2026"),
    ],
)
def test_the_panel_speaks_the_pages_language(
    client: Client, monkeypatch: pytest.MonkeyPatch, language: str, heading: str
) -> None:
    request_gives_up(monkeypatch)
    HeldJobs(monkeypatch)
    game = start(client)

    html = ask(client, game, prefix=f"/{language}").content.decode()

    assert heading in panel(html)
    assert STILL_LOOKING not in html
    assert f'hx-get="/{language}/game/{game.pk}/show-a-win/wait/"' in html
    assert heading in poll(client, game, prefix=f"/{language}").content.decode()
