"""How hard each daily deal is: the fair hint over hidden shuffles of the layout, computed ahead
by the queue's workers or `manage.py deal_difficulty`, kept, and shown on the daily page,
the calendar and the share text."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from pytest_django.fixtures import Settings

from game.daily import difficulties, difficulty_job
from game.engine import difficulty as engine_difficulty
from game.models import DealDifficulty, Game
from game.ops import leases, watch
from tests.helpers.daily import finished_daily, site_at

pytestmark = pytest.mark.django_db

DAY = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
SAMPLES = 10
# Pinned: the fair hint with no deadline wins 5, 4 and 6 of the first ten hidden shuffles of
# these layouts. A change to the hint, the shuffle or the seeds moves them.
PINNED = {20261201: 5, 20261202: 4, 20261203: 6}


@pytest.fixture(autouse=True)
def _setup(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(engine_difficulty, "SAMPLES", SAMPLES)
    with site_at(settings, DAY):
        yield


def test_the_figure_is_the_fair_hints_wins_over_the_hidden_shuffles() -> None:
    for number, wins in PINNED.items():
        direct = sum(engine_difficulty.fair_win(number, index) for index in range(SAMPLES))
        assert direct == wins
        found = difficulties.compute(number)
        assert found is not None
        assert (found.wins, found.played) == (wins, SAMPLES)


def test_the_hidden_shuffles_are_never_the_real_one() -> None:
    seeds = {engine_difficulty.sample_seed(20261201, index) for index in range(SAMPLES)}
    assert len(seeds) == SAMPLES
    assert 20261201 not in seeds


@pytest.mark.parametrize(
    ("wins", "rating", "ten"), [(10, "Easy", 10), (6, "Easy", 6), (5, "Medium", 5), (2, "Hard", 2)]
)
def test_ratings(wins: int, rating: str, ten: int) -> None:
    found = difficulties.Difficulty(wins, 10)
    assert (found.rating, found.in_ten) == (rating, ten)
    assert found.sentence == f"a strong fair player wins this layout {ten} times in 10"


def test_the_command_computes_the_coming_days_and_the_daily_page_shows_them(
    client: Client,
) -> None:
    call_command("deal_difficulty", "--date", "2026-12-01", "--days", "2")

    assert DealDifficulty.objects.count() == 2
    html = client.get("/daily/").content.decode()
    assert 'data-difficulty="medium"' in html
    assert "a strong fair player wins this layout 5 times in 10" in html
    month = client.get("/daily/2026/12/").content.decode()
    assert 'data-difficulty="medium"' in month  # today's cell; tomorrow's is not shown yet
    assert month.count('class="difficulty"') == 1


def test_running_the_command_again_costs_no_search(monkeypatch: pytest.MonkeyPatch) -> None:
    call_command("deal_difficulty", "--days", "1")

    def no_search(*args: object) -> bool:
        raise AssertionError("searched again")

    monkeypatch.setattr(engine_difficulty, "fair_win", no_search)
    call_command("deal_difficulty", "--days", "1")


@pytest.mark.parametrize("args", [("--days", "0"), ("--days", "400"), ("--date", "2026-13-01")])
def test_the_command_refuses_bad_input(args: tuple[str, str]) -> None:
    with pytest.raises(CommandError):
        call_command("deal_difficulty", *args)
    assert not DealDifficulty.objects.exists()


def test_a_missing_figure_is_asked_of_the_workers_once_and_polled(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []
    # Queued; no worker has taken it.
    monkeypatch.setattr(
        leases, "wake", lambda key, kind, behind=0, priority=None: asked.append(key) or True
    )
    page = client.get("/daily/").content.decode()
    assert 'data-difficulty="unknown"' in page
    assert 'hx-get="/daily/2026/12/01/difficulty/"' in page
    assert asked == []  # a page asks for nothing

    difficulty_job.coming_days.call_local()  # the periodic job, every five minutes
    answers = [client.get("/daily/2026/12/01/difficulty/").content.decode() for _ in range(5)]
    assert all('data-difficulty="unknown"' in answer for answer in answers)
    assert all('hx-trigger="load delay:3s"' in answer for answer in answers)
    # No worker has beaten: the line says what the figure waits for.
    assert all('data-queue="workers-away"' in answer for answer in answers)
    difficulty_job.coming_days.call_local()
    assert asked == ["difficulty:20261201", "difficulty:20261202"]  # once each

    watch.beat("worker:test:1")
    assert (
        'data-queue="workers-away"'
        not in client.get("/daily/2026/12/01/difficulty/").content.decode()
    )
    leases.run.call_local("difficulty:20261201")  # a worker takes the job
    answer = client.get("/daily/2026/12/01/difficulty/").content.decode()
    assert 'data-difficulty="medium"' in answer
    assert "hx-get" not in answer
    row = DealDifficulty.objects.get()
    assert (row.wins, row.played) == (PINNED[20261201], SAMPLES)
    assert 'data-difficulty="medium"' in client.get("/daily/").content.decode()


def test_the_workers_work_out_today_and_tomorrow_before_anyone_asks() -> None:
    difficulty_job.coming_days.call_local()
    assert sorted(DealDifficulty.objects.values_list("deal_number", "played")) == [
        (20261201, SAMPLES),
        (20261202, SAMPLES),
    ]


def test_a_day_to_come_has_no_figure_to_ask_for(client: Client) -> None:
    assert client.get("/daily/2026/12/09/difficulty/").status_code == 404
    assert client.get("/daily/2026/02/30/difficulty/").status_code == 404
    assert not DealDifficulty.objects.exists()


def test_the_share_text_says_how_hard_the_deal_was(client: Client) -> None:
    call_command("deal_difficulty", "--days", "1")
    client.get("/")  # a session
    finished_daily(client, 20261201, Game.Status.WON, DAY - dt.timedelta(hours=1))

    html = client.get("/daily/").content.decode()

    assert "La Belle Lucie #20261201 \N{EM DASH} won in 4:12, 93 moves, clean, 2 redeals, " in html
    assert "merci used \N{MIDDLE DOT} Medium (5 in 10)\n" in html
