"""Playwright against the Debian Chromium; `playwright install` cannot download here."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, BrowserType, Page

from tests.conftest import moved_clock
from tests.helpers.browser import FULL_CHROMIUM, SHELL, require, watch_errors

# Playwright's sync API runs an event loop in the test thread, and Django then
# refuses ORM calls (database teardown included) unless told this is safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# Chromium's headless shell, the build Playwright itself runs for headless Chromium: the same
# engine (Blink, V8, the same compositor and fonts) as /usr/bin/chromium without the desktop
# browser around it, at about half its CPU (test_table.py on two workers: 170 to 180 s of the
# machine's CPU against 354 to 370 s, docs/testing.md). Debian's package chromium-headless-shell;
# without it, the full browser. LUCIE_CHROMIUM names another.
def _chromium() -> Path:
    named = os.environ.get("LUCIE_CHROMIUM")
    if named:
        return Path(named)
    return SHELL if SHELL.exists() else FULL_CHROMIUM


CHROMIUM = _chromium()
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    require(CHROMIUM, "chromium-headless-shell")
    return {**browser_type_launch_args, "executable_path": str(CHROMIUM), "args": CHROMIUM_ARGS}


@pytest.fixture
def artifact_dir(output_path: str) -> Path:
    """This test's own folder under test-artifacts/, for screenshots worth keeping."""
    path = Path(output_path)
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def errors(page: Page) -> list[str]:
    """Console errors and uncaught script errors of the test's page; the tests that take it
    assert there were none."""
    return watch_errors(page)


@pytest.fixture(autouse=True)
def _browser_on_the_servers_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """When the run is moved to another moment (LUCIE_TEST_CLOCK), every page's clock starts at
    the server's moment and ticks from there, so the countdown and the timer agree with it."""
    if moved_clock() is None:
        yield
        return
    new_context = Browser.new_context

    def on_the_servers_clock(self: Browser, **options: Any) -> BrowserContext:
        context = new_context(self, **options)
        context.clock.install(time=dt.datetime.now(dt.UTC))
        return context

    monkeypatch.setattr(Browser, "new_context", on_the_servers_clock)
    yield


# Auto-move and one tap are on for a new player (static/js/prefs.js). The tests written before
# play recorded lines tap by tap, a card picked and then put down, with no card sent home unasked:
# their browsers start with both turned off, as a player who turned them off. A test module that
# plays as a new player says so with `NEW_PLAYER = True`.
EARLIER_DEFAULTS = """
(() => {
  const off = JSON.stringify({ "auto-move": false, "one-tap": false });
  try {
    if (window.localStorage.getItem("lucie.settings") === null) {
      window.localStorage.setItem("lucie.settings", off);
    }
  } catch (error) {
    // A cross-site frame denied storage: it reads the same choice, as if it had kept it.
    const kept = { "lucie.settings": off };
    const storage = {
      getItem: (key) => (key in kept ? kept[key] : null),
      setItem: (key, value) => { kept[key] = String(value); },
      removeItem: (key) => { delete kept[key]; },
    };
    Object.defineProperty(window, "localStorage", { value: storage, configurable: true });
  }
})();
"""


@pytest.fixture(autouse=True)
def _earlier_defaults(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if getattr(request.module, "NEW_PLAYER", False):
        return
    new_context = Browser.new_context
    new_page = Browser.new_page

    def context_as_before(self: Browser, **options: Any) -> BrowserContext:
        context = new_context(self, **options)
        context.add_init_script(EARLIER_DEFAULTS)
        return context

    def page_as_before(self: Browser, **options: Any) -> Page:
        page = new_page(self, **options)
        page.add_init_script(EARLIER_DEFAULTS)
        return page

    launch_persistent = BrowserType.launch_persistent_context

    def persistent_as_before(self: BrowserType, *args: Any, **options: Any) -> BrowserContext:
        context = launch_persistent(self, *args, **options)
        context.add_init_script(EARLIER_DEFAULTS)
        return context

    monkeypatch.setattr(Browser, "new_context", context_as_before)
    monkeypatch.setattr(Browser, "new_page", page_as_before)
    monkeypatch.setattr(BrowserType, "launch_persistent_context", persistent_as_before)
