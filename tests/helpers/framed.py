"""How a browser test plays the embed framed by another site: a real outer site on 127.0.0.2,
the frame, a tap inside it."""

from __future__ import annotations

import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import (
    BrowserContext,
    BrowserType,
    Frame,
    FrameLocator,
    Locator,
    Page,
    expect,
)

from game import engine
from tests.helpers.browser import FULL_CHROMIUM, TARGET, require

FRAME_HEIGHT = 620


class OuterSite:
    """A real HTTP server on 127.0.0.2 whose page frames `src` the way the snippet does."""

    def __init__(self, src: str) -> None:
        page = (
            "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>A blog</title>"
            "</head><body><h1>My blog</h1><p>Play a hand:</p>"
            f'<iframe src="{src}" width="100%" height="{FRAME_HEIGHT}" style="border:0" '
            'title="La Belle Lucie" loading="lazy"></iframe></body></html>'
        ).encode()

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.2", 0), Handler)
        self.src = src
        self.url = f"http://127.0.0.2:{self.server.server_address[1]}/"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> OuterSite:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def frame(page: Page) -> FrameLocator:
    return page.frame_locator("iframe")


def embed_frame(page: Page) -> Frame:
    found = [f for f in page.frames if "/embed/" in f.url]
    assert len(found) == 1, [f.url for f in page.frames]
    return found[0]


def board(page: Page) -> Locator:
    return frame(page).locator("#board")


def moves_shown(page: Page, count: int) -> None:
    expect(board(page)).to_have_attribute("data-moves", str(count))


def tap(page: Page, move: engine.Move, count_after: int) -> None:
    """Tap the card, then the lit place (or press Redeal), inside the frame."""
    inside = frame(page)
    if move.is_redeal:
        inside.get_by_role("button", name="Redeal").click()
    else:
        assert move.card is not None
        inside.locator(f'.fan [data-card="{move.card.code}"]').click()
        if move.onto is not None:
            target = inside.locator(f'.fan [data-card="{move.onto.code}"]')
        elif move.empty_fan is not None:
            target = inside.locator(f'[data-fan="{move.empty_fan}"] .slot')
        else:
            target = inside.locator(f'[data-foundation="{move.card.suit}"]')
        expect(target).to_have_class(TARGET)
        target.click()
    moves_shown(page, count_after)


def a_card_move(played: engine.Play) -> engine.Move:
    moves = [m for m in engine.legal_moves(played.position) if not m.is_redeal and not m.merci]
    return sorted(moves, key=lambda m: m.onto is None)[0]


def open_frame(page: Page, outer: OuterSite) -> engine.Play:
    """Load the outer page; return an engine mirror of the deal its frame shows."""
    page.goto(outer.url)
    expect(board(page)).to_have_attribute("data-status", "playing")
    expect(frame(page).locator("[data-fan]")).to_have_count(18)
    return engine.Play(int(board(page).get_attribute("data-deal") or 0))


def game_cookies(context: BrowserContext) -> list[Any]:
    return [c for c in context.cookies() if c["domain"] in ("127.0.0.1", "localhost")]


@contextmanager
def storing_frames(
    browser_type: BrowserType, launch_args: dict[str, Any], profile: Path
) -> Iterator[BrowserContext]:
    """A browser that lets cross-site frames keep (partitioned) storage, as Firefox and Safari do
    and Chromium does when third-party cookies are allowed: a Chromium on its own `profile`."""
    (profile / "Default").mkdir(parents=True)
    preferences = {"profile": {"cookie_controls_mode": 0, "block_third_party_cookies": False}}
    (profile / "Default" / "Preferences").write_text(json.dumps(preferences))
    context = browser_type.launch_persistent_context(profile, **launch_args)
    try:
        yield context
    finally:
        context.close()


@contextmanager
def denying_frames(
    browser_type: BrowserType, launch_args: dict[str, Any]
) -> Iterator[BrowserContext]:
    """A browser that denies storage to cross-site frames: the full Chromium, as it comes. The
    headless shell the other browser tests drive lets such a frame keep partitioned storage
    whatever its profile says (checked: a localStorage write in a frame of another site succeeds
    in the shell with block_third_party_cookies set, and throws in the full browser's default
    profile)."""
    require(FULL_CHROMIUM, "chromium")
    browser = browser_type.launch(**{**launch_args, "executable_path": str(FULL_CHROMIUM)})
    try:
        context = browser.new_context()
        yield context
        context.close()
    finally:
        browser.close()
