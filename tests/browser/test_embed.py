"""The embed in real Chromium, framed cross-site: an outer page served by a tiny HTTP server on
127.0.0.2 holds an iframe of the live server on localhost (different sites, so the frame gets no
first-party cookies; Chromium's headless shell gives it partitioned storage, the full Chromium's
default profile none).

Moves are worked out with the engine from the deal the frame shows and made through the UI only.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserType,
    Page,
    expect,
)
from pytest_django.live_server_helper import LiveServer

from game import engine
from tests.helpers.browser import screenshot, watch_errors
from tests.helpers.framed import (
    FRAME_HEIGHT,
    OuterSite,
    a_card_move,
    board,
    denying_frames,
    embed_frame,
    frame,
    game_cookies,
    moves_shown,
    open_frame,
    storing_frames,
    tap,
)

pytestmark = pytest.mark.django_db(transaction=True)


# ---------------------------------------------------------------- the other site


@pytest.fixture
def outer(live_server: LiveServer) -> Iterator[OuterSite]:
    # live_server answers on localhost: another site than 127.0.0.2, as a real embedder is.
    with OuterSite(f"{live_server.url}/embed/") as site:
        yield site


# ---------------------------------------------------------------- tests


def test_play_in_a_frame_on_another_site(
    page: Page, outer: OuterSite, live_server: LiveServer, artifact_dir: Path, errors: list[str]
) -> None:
    mirror = open_frame(page, outer)
    assert board(page).get_attribute("data-token") == ""
    assert embed_frame(page).url == f"{live_server.url}/embed/"

    # The first move creates the game; the frame's address now names it by its token.
    move = a_card_move(mirror)
    tap(page, move, 1)
    mirror.play(move)
    token = board(page).get_attribute("data-token") or ""
    assert len(token) >= 32
    embed_frame(page).wait_for_url(f"{live_server.url}/embed/g/{token}/")

    move = a_card_move(mirror)
    tap(page, move, 2)
    mirror.play(move)
    screenshot(page, artifact_dir / "framed-two-moves.png")

    # Undo, then the keyboard inside the frame: R redoes, U undoes.
    frame(page).get_by_role("button", name="Undo").click()
    moves_shown(page, 1)
    frame(page).locator(".info").click()  # focus the frame's document, not a control
    page.keyboard.press("r")
    moves_shown(page, 2)
    page.keyboard.press("u")
    moves_shown(page, 1)
    page.keyboard.press("r")
    moves_shown(page, 2)

    # Redeal: the count goes down and the fans are dealt afresh.
    expect(board(page)).to_have_attribute("data-redeals-left", "2")
    tap(page, engine.REDEAL, 3)
    mirror.play(engine.REDEAL)
    expect(board(page)).to_have_attribute("data-redeals-left", "1")
    shown = [[c.code for c in fan] for fan in mirror.position.fans]
    found = (
        frame(page)
        .locator("#board .fan")
        .evaluate_all(
            "fans => fans.map(f => Array.from(f.querySelectorAll('[data-card]'),"
            " c => c.dataset.card))"
        )
    )
    assert found == shown

    # Reloading the frame keeps the game: the token is in its address.
    embed_frame(page).evaluate("document.body.dataset.before = 'reload'; location.reload()")
    expect(frame(page).locator("body")).not_to_have_attribute("data-before", "reload")
    moves_shown(page, 3)
    expect(board(page)).to_have_attribute("data-token", token)

    # No cookie for the game's host, ever.
    assert game_cookies(page.context) == []

    assert errors == []


def test_outer_reload_starts_afresh_where_the_browser_denies_frames_storage(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], outer: OuterSite
) -> None:
    """Reloading the outer page starts the frame again from its src. A browser that denies
    storage to cross-site frames (the full Chromium, third-party cookies blocked) lets nothing be
    remembered, so today's deal starts afresh, as docs/playing.md "Embedding" says."""
    with denying_frames(browser_type, browser_type_launch_args) as context:
        page = context.new_page()
        errors = watch_errors(page)
        mirror = open_frame(page, outer)
        tap(page, a_card_move(mirror), 1)
        token = board(page).get_attribute("data-token")
        assert token
        page.reload()
        expect(board(page)).to_have_attribute("data-moves", "0")
        expect(board(page)).to_have_attribute("data-token", "")
        assert embed_frame(page).url == outer.src
        assert game_cookies(context) == []
        assert errors == []


def test_outer_reload_resumes_the_game_where_the_frame_may_keep_storage(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    outer: OuterSite,
    tmp_path: Path,
) -> None:
    """A browser that lets cross-site frames keep (partitioned) storage: the frame remembers its
    game."""
    with storing_frames(browser_type, browser_type_launch_args, tmp_path / "profile") as context:
        page = context.new_page()
        mirror = open_frame(page, outer)
        today = board(page).get_attribute("data-deal")
        move = a_card_move(mirror)
        tap(page, move, 1)
        token = board(page).get_attribute("data-token")
        assert token

        page.reload()
        expect(board(page)).to_have_attribute("data-token", token)
        moves_shown(page, 1)
        assert embed_frame(page).url.endswith(f"/embed/g/{token}/")

        # "Another deal" asks first while a game is under way, then deals a fresh start.
        another = frame(page).locator('.bar [data-action="another"]')
        another.click()
        expect(another).to_have_text("Leave this game?")
        another.click()
        expect(board(page)).to_have_attribute("data-token", "")
        assert board(page).get_attribute("data-deal") != today

        # A remembered game the server does not know is forgotten, and the start comes back.
        embed_frame(page).evaluate(
            "deal => localStorage.setItem(`lucie.embed.lucie.${deal}`, 'no-such-game')", today
        )
        page.reload()
        expect(frame(page).get_by_role("heading", name="Not found")).to_be_visible()
        page.reload()
        expect(board(page)).to_have_attribute("data-deal", today or "")
        expect(board(page)).to_have_attribute("data-token", "")
        assert game_cookies(context) == []


def test_the_frame_plays_without_javascript(
    browser: Browser, outer: OuterSite, live_server: LiveServer
) -> None:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        mirror = open_frame(page, outer)
        move = a_card_move(mirror)
        assert move.card is not None
        # Tapping a card reloads the frame with it selected; its places become buttons.
        frame(page).locator(f'.fan [data-card="{move.card.code}"]').click()
        expect(frame(page).locator(".is-target").first).to_be_visible()
        frame(page).locator(f'button.is-target[value="{move.text}"]').click()
        moves_shown(page, 1)
        token = board(page).get_attribute("data-token")
        assert token
        assert embed_frame(page).url == f"{live_server.url}/embed/g/{token}/?did=move&from=0"

        frame(page).get_by_role("button", name="Undo").click()
        moves_shown(page, 0)
        frame(page).get_by_role("button", name="Redeal").click()
        moves_shown(page, 1)
        expect(board(page)).to_have_attribute("data-redeals-left", "1")
        assert game_cookies(context) == []
    finally:
        context.close()


@pytest.mark.parametrize("width", [320, 400, 800])
def test_the_compact_board_fits_a_620px_frame(
    page: Page, live_server: LiveServer, artifact_dir: Path, errors: list[str], width: int
) -> None:
    page.set_viewport_size({"width": width, "height": FRAME_HEIGHT})
    page.goto(f"{live_server.url}/embed/deal/5/")
    expect(page.locator("[data-fan]")).to_have_count(18)
    screenshot(page, artifact_dir / f"embed-{width}x{FRAME_HEIGHT}.png")

    size = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert size[0] <= width
    assert size[1] <= FRAME_HEIGHT
    for region in (".bar", ".foundations", ".fans", ".open-site"):
        box = page.locator(region).bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= FRAME_HEIGHT, region
        assert box["x"] + box["width"] <= width, region
    assert errors == []


def test_the_snippet_page_copies_the_snippet_and_shows_the_embed(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="Put this game on your site").click()
    expect(page).to_have_url(f"{live_server.url}/embed-this/")

    page.get_by_role("button", name="Copy").click()
    expect(page.locator(".copy-status")).to_have_text("Copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == (
        f'<iframe src="{live_server.url}/embed/" width="100%" height="620" style="border:0" '
        'title="La Belle Lucie" loading="lazy"></iframe>'
    )
    live = page.frame_locator("iframe.snippet-live")
    expect(live.locator("[data-fan]")).to_have_count(18)
    assert errors == []
