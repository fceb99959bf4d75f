"""Today's deal in real Chromium: a move shows on the month's calendar, a win shows with its time,
the share text is copied to the clipboard, and the rollover is written in the player's own time.

The browser's clock cannot be frozen, so today is what game.deals.today_utc() says in the
test, and the server's clock (in this process) is set to its noon.
Winning needs a line that wins today's deal: the test asks the engine's solver (the one behind
"Show a win"). Should it find none in time, the server's clock is moved back to noon of the
nearest recent day whose deal it wins.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

import pytest
import time_machine
from axe_playwright_python.sync_playwright import Axe
from django.test import Client
from playwright.sync_api import Browser, expect
from pytest_django.fixtures import Settings
from pytest_django.live_server_helper import LiveServer

from game import deals, engine
from game.board import store
from game.engine.solver import solve
from game.models import Game
from tests.helpers.browser import board, moves_shown, open_dealt, screenshot, tap
from tests.helpers.ending import created

pytestmark = pytest.mark.django_db(transaction=True)


# ---------------------------------------------------------------- a winning line for a deal


def winning_line(number: int, seconds: float = 10.0) -> tuple[engine.Move, ...] | None:
    """The solver's winning line for deal `number` (it foresees the redeals), or None."""
    found = solve(engine.Position.start(number), time_limit=seconds)
    return found.moves if found.won else None


@pytest.fixture
def winnable_day(settings: Settings) -> Iterator[tuple[dt.date, tuple[engine.Move, ...]]]:
    """Today (UTC) and a line that wins its deal; see the module's docstring for the fallback."""
    settings.SITE_START_MONTH = "2000-01"
    today = deals.today_utc()
    for back in range(10):
        day = today - dt.timedelta(days=back)
        line = winning_line(deals.deal_number_for(day))
        if line is not None:
            break
    else:
        pytest.fail("the solver won no deal of the last ten days")
    # The server's clock at noon of that day (a session cookie must outlive the jump, so never
    # more than ten days back): the day cannot end during the test, and a game begun ten
    # minutes before its last move is begun on its day. On the real clock, a run in the first
    # ten minutes after midnight UTC saw its win "played late" (begun the day before).
    moment = dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC)
    with time_machine.travel(moment, tick=True):
        yield day, line


def month_url(live_server: LiveServer, day: dt.date) -> str:
    return f"{live_server.url}/daily/{day:%Y}/{day:%m}/"


# ---------------------------------------------------------------- tests


def test_play_today_see_the_month_win_and_copy_the_result(
    browser: Browser,
    live_server: LiveServer,
    winnable_day: tuple[dt.date, tuple[engine.Move, ...]],
) -> None:
    day, line = winnable_day
    number = deals.deal_number_for(day)
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        permissions=["clipboard-read", "clipboard-write"],
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))

    page.goto(f"{live_server.url}/daily/")
    expect(board(page)).to_have_attribute("data-deal", str(number))
    expect(board(page)).to_have_attribute("data-rules", "lucie")
    expect(page.get_by_role("heading", name=re.compile("Today's deal"))).to_be_visible()
    tap(page, line[0], 1)

    page.goto(month_url(live_server, day))
    today_cell = page.locator(f'td[data-day="{day.isoformat()}"]')
    expect(today_cell).to_have_attribute("aria-current", "date")
    expect(today_cell).to_have_attribute("data-state", "playing")
    expect(today_cell).to_contain_text("In progress")

    # Most of the win through the pipeline and the test client, in the browser's own session.
    session = next(c["value"] for c in context.cookies() if c["name"] == "sessionid")
    game = Game.objects.get(session_key=session, deal_number=number)
    store.save(game, engine.Play(number, engine.DEFAULT_RULES, list(line[:-2])))
    # Begun ten minutes ago, as a person plays: a win faster than 250 ms a move is a script's,
    # which no streak counts (game.status.too_fast).
    Game.objects.filter(pk=game.pk).update(started_at=deals.now_utc() - dt.timedelta(minutes=10))
    client = Client()
    client.cookies["sessionid"] = session
    game.refresh_from_db()
    response = client.post(f"/game/{game.pk}/move/", {"n": game.move_count, "move": line[-2].text})
    assert response.status_code == 303

    # The last move by tapping: the board says won and the result box comes in below it, out of
    # band with the move's answer (no second request for it).
    page.goto(f"{live_server.url}/daily/")
    moves_shown(page, len(line) - 1)
    tap(page, line[-1], len(line))
    expect(board(page)).to_have_attribute("data-status", "won")
    result = page.locator("#daily-result")
    expect(result).to_be_visible()
    expect(result.get_by_role("heading")).to_contain_text("You won today's deal")
    assert not [url for url in asked if url.endswith("/result/")], asked
    result.get_by_role("button", name="Copy").click()
    expect(result.locator(".copy-status")).to_have_text("Copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    game.refresh_from_db()
    first, link, challenge = copied.split("\n")
    assert first.startswith(f"La Belle Lucie #{number} \N{EM DASH} won in ")
    assert f", {len(line)} moves, " in first
    assert "played late" not in first
    assert link == f"{live_server.url}/daily/{day:%Y/%m/%d}/"
    assert challenge.startswith(f"Beat me on this deal: {live_server.url}/challenge/")

    page.goto(month_url(live_server, day))
    expect(today_cell).to_have_attribute("data-state", "won")
    expect(today_cell).to_contain_text("Won")
    expect(today_cell.locator(".detail")).to_have_text(
        re.compile(rf"^\d+:\d\d · {len(line)} moves$")
    )
    expect(page.locator('[data-stat="daily-streak"]')).to_have_text("1")
    assert errors == []
    context.close()


def test_the_rollover_is_shown_in_the_players_own_time(
    browser: Browser, live_server: LiveServer
) -> None:
    context = browser.new_context(timezone_id="Pacific/Kiritimati", locale="en-GB")
    page = context.new_page()
    rollover = deals.next_rollover()
    local = rollover.astimezone(ZoneInfo("Pacific/Kiritimati"))

    page.goto(f"{live_server.url}/daily/")
    shown = page.locator("time[data-local-time]")

    expect(shown).to_have_attribute("datetime", rollover.strftime("%Y-%m-%dT%H:%M:%SZ"))
    expect(shown).to_contain_text(f"{local:%H:%M} on ")
    expect(shown).to_contain_text(f"{local.day} {local:%b}")
    expect(shown).to_contain_text("your time (Pacific/Kiritimati)")
    assert local.hour == 14
    context.close()


def test_without_javascript_the_share_text_is_there_to_copy_by_hand(
    browser: Browser, live_server: LiveServer
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    open_dealt(page, f"{live_server.url}/daily/")
    session = next(c["value"] for c in context.cookies() if c["name"] == "sessionid")
    Game.objects.filter(session_key=session).update(
        status=Game.Status.LOST, started_at=deals.now_utc(), cards_home=17
    )

    page.goto(f"{live_server.url}/daily/")

    expect(page.locator("time[data-local-time]")).to_contain_text("00:00 UTC on")
    share = page.get_by_label("Your result to share")
    expect(share).to_have_attribute("readonly", "")
    expect(share).to_have_value(re.compile(" \N{EM DASH} lost, 17/52 cards home, no redeal"))
    expect(page.get_by_role("button", name="Copy")).to_be_hidden()
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_month_page_has_no_serious_accessibility_violations(
    browser: Browser, live_server: LiveServer, scheme: Literal["light", "dark"]
) -> None:
    context = browser.new_context(color_scheme=scheme, viewport={"width": 390, "height": 844})
    page = context.new_page()
    today = deals.today_utc()
    page.goto(f"{live_server.url}/daily/")
    page.goto(month_url(live_server, today))

    results = Axe().run(page)

    serious = [
        f"{v['id']}: {v['help']} {[n['target'] for n in v['nodes']]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == []
    expect(page.locator('td[aria-current="date"]')).to_have_count(1)
    context.close()


# A mid-month day after unplayed days: the case that found the clipped "Not playe" cell.
MID_MONTH = dt.datetime(2027, 3, 16, 10, 0, tzinfo=dt.UTC)


def a_month_of_every_state(session_key: str) -> None:
    """March 2027 as of the 16th, one day of each state side by side: won clean (1st), won with
    help (2nd), lost (3rd), left unfinished (4th), won late (5th, played on the 9th), not played
    (6th to 15th), today in progress (16th), to come (17th on)."""

    def finished(day: int, status: str, **fields: object) -> None:
        started = dt.datetime(2027, 3, fields.pop("played_on", day), 9, tzinfo=dt.UTC)
        created(
            session_key=session_key, deal_number=20270300 + day, rules="lucie", daily=True,
            status=status, started_at=started, finished_at=started + dt.timedelta(minutes=6),
            elapsed_ms=358_000, move_count=104, cards_home=52 if status == "won" else 23,
            **fields,
        )  # fmt: skip

    finished(1, Game.Status.WON)
    finished(2, Game.Status.WON, assisted=True)
    finished(3, Game.Status.LOST)
    finished(4, Game.Status.ABANDONED)
    finished(5, Game.Status.WON, played_on=9, undos=3)


# What shows of each cell's words (pseudo-elements included) lies inside the cell, and the cell
# scrolls nothing out of view: a word cut at the cell's edge fails, as one that spills over.
SPILLED = """cells => cells.flatMap(cell => {
    const box = cell.getBoundingClientRect();
    const parts = [...cell.querySelectorAll('*')].filter(e => {
        const r = e.getBoundingClientRect();
        return r.width > 1 && r.height > 1 && getComputedStyle(e).display !== 'none';
    });
    const out = parts.filter(e => {
        const r = e.getBoundingClientRect();
        return r.left < box.left - 0.5 || r.right > box.right + 0.5;
    });
    if (cell.scrollWidth > cell.clientWidth + 1) out.push(cell);
    return out.map(e => cell.closest('td').dataset.day + ': ' + e.textContent.trim());
})"""


# The calendar's words and the clock are the same on either database: run on SQLite's pass.
ONE_DATABASE = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")), reason="run once, on SQLite's pass"
)


@ONE_DATABASE
@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_a_320_px_calendar_shows_every_state_whole_and_counts_down_to_the_next_deal(
    browser: Browser, live_server: LiveServer, artifact_dir: Path, language: str
) -> None:
    prefix = "" if language == "en" else f"/{language}"
    with time_machine.travel(MID_MONTH, tick=True):
        context = browser.new_context(viewport={"width": 320, "height": 800}, locale=language)
        page = context.new_page()
        page.goto(f"{live_server.url}{prefix}/daily/")
        day = deals.today_utc()
        start = engine.Position.start(deals.deal_number_for(day))
        tap(page, next(m for m in engine.card_moves(start)), 1)
        session = next(c["value"] for c in context.cookies() if c["name"] == "sessionid")
        a_month_of_every_state(session)

        page.goto(f"{live_server.url}{prefix}/daily/{day:%Y}/{day:%m}/")
        states = page.eval_on_selector_all(
            ".calendar td.day", "cells => cells.map(c => c.dataset.state)"
        )
        short = page.locator(f'td[data-day="{day.isoformat()}"] .state').evaluate(
            "el => getComputedStyle(el, '::before').content"
        )
        # Every cell's content fits its cell: no word is cut, split or spilled.
        spilled = page.eval_on_selector_all(".calendar .cell", SPILLED)
        # The grid uses the width it has: a few pixels of margin on each side at most.
        calendar = page.locator(".calendar").bounding_box()
        screenshot(page.locator(".calendar"), artifact_dir / f"calendar-320-{language}.png")
        countdown = page.locator("[data-countdown]")
        expect(countdown).to_have_text(re.compile(r"\d\d\D+\d\d\D*$"))
        first = countdown.text_content()
        expect(countdown).not_to_have_text(first or "", timeout=3000)  # it ticks each second
        second = countdown.text_content()
        context.close()

    assert states[:17] == [
        "won", "assisted", "lost", "abandoned", "won", *["unplayed"] * 10, "playing", "future",
    ]  # fmt: skip
    assert short == '"▶"'
    assert spilled == []
    assert calendar is not None
    assert calendar["x"] <= 8
    assert calendar["x"] + calendar["width"] >= 312
    assert first != second


@ONE_DATABASE
def test_a_daily_game_played_across_midnight_utc_stays_the_day_it_began(
    browser: Browser, live_server: LiveServer
) -> None:
    """31 December 2027, a minute before midnight UTC: a move on today's deal; then midnight
    passes on the server's clock and the page's, and another move is made on the same board.
    Both are moves of the 31st's game, which the calendar keeps as begun on its day; the daily
    page now deals 1 January 2028, and the countdown has rolled to the next midnight."""
    eve = dt.datetime(2027, 12, 31, 23, 59, 0, tzinfo=dt.UTC)
    new_year = dt.datetime(2028, 1, 1, 0, 0, 5, tzinfo=dt.UTC)
    with time_machine.travel(eve, tick=True):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        context.clock.install(time=eve)
        page = context.new_page()
        page.goto(f"{live_server.url}/daily/")
        expect(board(page)).to_have_attribute("data-deal", "20271231")
        position = engine.Position.start(20271231)
        first = next(m for m in engine.card_moves(position) if not m.merci)
        tap(page, first, 1)
        assert deals.today_utc() == dt.date(2027, 12, 31), "the first move came after midnight"
        with time_machine.travel(new_year, tick=True):
            page.clock.set_system_time(new_year)
            second = next(
                m for m in engine.card_moves(engine.apply(position, first)) if not m.merci
            )
            tap(page, second, 2)
            expect(board(page)).to_have_attribute("data-deal", "20271231")
            # The page that dealt the 31st says a new deal is out.
            expect(page.locator("[data-countdown]")).to_have_text(re.compile("new deal is out"))

            page.goto(f"{live_server.url}/daily/2027/12/")
            eve_cell = page.locator('td[data-day="2027-12-31"]')
            eve_state = eve_cell.get_attribute("data-state")
            eve_classes = (eve_cell.get_attribute("class") or "").split()
            page.goto(f"{live_server.url}/daily/")
            new_deal = board(page).get_attribute("data-deal")
            countdown = page.locator("[data-countdown]")
            expect(countdown).to_have_text(re.compile(r"\b23 h 59 min"))
        context.close()

    games = Game.objects.filter(deal_number=20271231, daily=True)
    assert [game.move_count for game in games] == [2]
    assert eve_state == "playing"
    assert "late" not in eve_classes
    assert new_deal == "20280101"
