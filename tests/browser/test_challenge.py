"""Challenge a friend and the daily rank in real Chromium: the link on a finished game, the
friend's own game taken up in another browser (with and without JavaScript), both results side
by side when it ends, the challenger's list, and "better than P %" on the daily page.

Games are ended in the database (the board's own moves are tested elsewhere): what is tested
here is what a player sees and clicks around a finished game."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from game import deals
from game.models import Game
from tests.helpers.browser import open_dealt
from tests.helpers.ending import created, saved

pytestmark = pytest.mark.django_db(transaction=True)


def session_of(context: BrowserContext) -> str:
    return next(c["value"] for c in context.cookies() if c["name"] == "sessionid")


def end_game(session: str, **fields: object) -> Game:
    """This session's game, ended as a loss (unless told otherwise), begun an hour ago."""
    game = Game.objects.filter(session_key=session).latest("pk")
    now = deals.now_utc()
    fields.setdefault("status", Game.Status.LOST)
    # Saved as the change that ends a game saves it: its end (the challenge, the day's first
    # end) follows in the same transaction (game/ending.py).
    return saved(game, started_at=now - dt.timedelta(hours=1), finished_at=now, **fields)


def challenger_link(browser: Browser, live_server: LiveServer) -> tuple[Page, Game, str]:
    """A player who lost deal 77 under Trefoil with 17 cards home, and their challenge's link."""
    context = browser.new_context()
    page = context.new_page()
    open_dealt(page, f"{live_server.url}/deal/77/?rules=trefoil")
    game = end_game(session_of(context), cards_home=17, elapsed_ms=200_000, wall_ms=210_000)
    page.goto(f"{live_server.url}/game/{game.pk}/")
    link = page.locator("a[data-challenge]")
    expect(link).to_have_text("Challenge a friend")
    href = link.get_attribute("href")
    assert href is not None
    assert re.fullmatch(r"http://[^/]+/challenge/[\w-]{32}/", href)
    return page, game, href


@pytest.mark.parametrize("javascript", [True, False])
def test_a_friend_takes_up_the_challenge_and_both_see_the_results(
    browser: Browser, live_server: LiveServer, javascript: bool
) -> None:
    page, _, href = challenger_link(browser, live_server)

    friend_context = browser.new_context(java_script_enabled=javascript)
    friend = friend_context.new_page()
    friend.goto(href)
    expect(friend.get_by_role("heading", level=1)).to_have_text(
        "A friend challenges you to deal #77"
    )
    expect(friend.locator("[data-challenger-result]")).to_have_text(
        "Your friend brought 17 cards home."
    )
    friend.get_by_role("button", name="Take up the challenge").click()
    expect(friend).to_have_url(re.compile(r"/game/\d+/$"))
    expect(friend.locator("#board")).to_have_attribute("data-deal", "77")
    expect(friend.locator("#board")).to_have_attribute("data-rules", "trefoil")
    expect(friend.locator("#board")).to_have_attribute("data-status", "playing")

    end_game(session_of(friend_context), cards_home=30, elapsed_ms=300_000, wall_ms=310_000)
    friend.reload()
    result = friend.locator("[data-challenge-result]")
    expect(result).to_have_attribute("data-verdict", "mine")
    expect(result).to_contain_text("You won the challenge.")
    expect(result.locator("tr", has_text="Cards home")).to_have_text(re.compile(r"17\s*30"))

    page.reload()
    side = page.locator("section[data-friend-result]")
    expect(side).to_have_count(1)
    expect(side).to_have_attribute("data-verdict", "theirs")
    page.goto(f"{live_server.url}/stats/")
    expect(page.locator("[data-challenges] tr[data-friend-result]")).to_have_count(1)
    friend_context.close()
    page.context.close()


def test_the_daily_page_says_where_a_finished_game_ranks(
    browser: Browser, live_server: LiveServer
) -> None:
    number = deals.todays_deal_number()
    begun = deals.now_utc() - dt.timedelta(minutes=30)
    for n, home in enumerate((10, 20, 40)):
        created(
            session_key=f"other{n}", deal_number=number, daily=True, daily_entry=True,
            network=f"other{n}", status=Game.Status.LOST, started_at=begun, cards_home=home,
        )  # fmt: skip
    context = browser.new_context()
    page = context.new_page()
    open_dealt(page, f"{live_server.url}/daily/")
    end_game(session_of(context), cards_home=30)

    page.goto(f"{live_server.url}/daily/")

    box = page.locator("#daily-result [data-percentile]")
    expect(box).to_have_attribute("data-percentile", "66")
    expect(box).to_have_text("You are 2nd of 4 players today.")
    expect(box).to_have_attribute("data-rank-place", "2")
    expect(box).to_have_attribute("data-rank-of", "4")
    expect(page.locator(".end [data-percentile]")).to_have_attribute("data-percentile", "66")
    share = page.get_by_label("Your result to share")
    expect(share).to_have_value(re.compile("2nd of 4 players"))
    expect(share).to_have_value(re.compile(r"Beat me on this deal: http://\S+/challenge/"))
    context.close()


def test_the_challenger_sees_both_results_side_by_side_on_a_320_px_phone(
    browser: Browser, live_server: LiveServer, artifact_dir: Path
) -> None:
    """The challenger's own game page after a friend finished: their result beside the
    friend's, every column in view and nothing cut, and "Challenge a friend" drawn as a
    button."""
    page, game, href = challenger_link(browser, live_server)
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    friend.goto(href)
    friend.get_by_role("button", name="Take up the challenge").click()
    expect(friend).to_have_url(re.compile(r"/game/\d+/$"))
    end_game(session_of(friend_context), cards_home=30, elapsed_ms=300_000, wall_ms=310_000)
    friend_context.close()

    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"{live_server.url}/game/{game.pk}/")
    side = page.locator("section[data-friend-result]")
    expect(side).to_have_count(1)
    side.scroll_into_view_if_needed()
    expect(side).to_have_attribute("data-verdict", "theirs")
    expect(side.locator("tr", has_text="Cards home")).to_have_text(re.compile(r"30\s*17"))
    for cell in side.locator("th, td").all():
        box = cell.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 320 + 0.5, cell.inner_text()
        # Nothing clipped: every cell's text fits the cell.
        assert cell.evaluate("c => c.scrollWidth <= c.clientWidth + 1"), cell.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    side.screenshot(path=artifact_dir / "challenge-side-by-side-320.png")
    button = page.locator("a[data-challenge]")
    look = button.evaluate(
        "a => { const s = getComputedStyle(a); return [s.borderTopStyle, s.textDecorationLine,"
        " s.backgroundColor]; }"
    )
    assert look[0] != "none"
    assert look[1] == "none"
    assert look[2] not in ("rgba(0, 0, 0, 0)", "transparent")
    page.context.close()
