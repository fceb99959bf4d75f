"""The embed in French and German in real Chromium, framed cross-site: the frame's language is its
URL's and survives what the frame does on its own (going back to a remembered game, asking before
another deal, forgetting a game the server no longer knows)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import BrowserType, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers.framed import (
    OuterSite,
    a_card_move,
    board,
    embed_frame,
    frame,
    game_cookies,
    moves_shown,
    open_frame,
    storing_frames,
    tap,
)

pytestmark = pytest.mark.django_db(transaction=True)


def said(code: str, msgid: str) -> str:
    with translation.override(code):
        return translation.gettext(msgid)


@pytest.fixture(params=["fr", "de"])
def code(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def outer(live_server: LiveServer, code: str) -> Iterator[OuterSite]:
    with OuterSite(f"{live_server.url}/{code}/embed/") as site:
        yield site


def test_a_framed_game_keeps_its_language_through_a_reload(
    browser_type: BrowserType,
    browser_type_launch_args: dict[str, Any],
    outer: OuterSite,
    tmp_path: Path,
    code: str,
) -> None:
    # Frames keep their storage, so that the frame goes back to its game when the outer page is
    # reloaded (see test_embed.py).
    with storing_frames(browser_type, browser_type_launch_args, tmp_path / "profile") as context:
        page = context.new_page()
        mirror = open_frame(page, outer)
        expect(frame(page).locator("html")).to_have_attribute("lang", code)
        today = board(page).get_attribute("data-deal")
        tap(page, a_card_move(mirror), 1)
        token = board(page).get_attribute("data-token")
        assert token
        embed_frame(page).wait_for_url(f"**/{code}/embed/g/{token}/")

        # The outer page reloads: the frame starts from its src and goes back to its game, in
        # its own language.
        page.reload()
        expect(board(page)).to_have_attribute("data-token", token)
        moves_shown(page, 1)
        assert embed_frame(page).url.endswith(f"/{code}/embed/g/{token}/")
        expect(frame(page).locator("html")).to_have_attribute("lang", code)

        # "Another deal" asks first, in the frame's language.
        another = frame(page).locator('.bar [data-action="another"]')
        another.click()
        expect(another).to_have_text(said(code, "Leave this game?"))
        expect(frame(page).locator(".message")).to_have_text(
            said(code, "Press again to leave this game for another deal.")
        )
        another.click()
        expect(board(page)).to_have_attribute("data-token", "")

        # A remembered game the server does not know: the frame's 404, in its language.
        embed_frame(page).evaluate(
            "deal => localStorage.setItem(`lucie.embed.lucie.${deal}`, 'no-such-game')", today
        )
        page.reload()
        expect(frame(page).get_by_role("heading", name=said(code, "Not found"))).to_be_visible()
        assert f"/{code}/embed/g/no-such-game/" in embed_frame(page).url
        page.reload()
        expect(board(page)).to_have_attribute("data-deal", today or "")
        expect(board(page)).to_have_attribute("data-token", "")
        assert game_cookies(context) == []
