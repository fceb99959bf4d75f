"""'Show a win' in real Chromium: the menu asks first in a dialog, the verdict appears, Next steps
through the line with its next move marked on the board, Play it out wins, and the statistics count
the game as played, not won. Also without JavaScript, the panel at phone and desktop sizes, and a
search on as a job on the task queue followed by the board itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers.browser import SCREENS, no_serious_violations, on_each_screen, screenshot
from tests.helpers.show_a_win import STILL_LOOKING, HeldJobs, request_gives_up

pytestmark = pytest.mark.django_db(transaction=True)

DEAL = 5
WON = "This game can still be won from here"


# Notes each move count the board shows, in order, across htmx's swaps of the whole board.
NOTE_COUNTS = """() => {
  window.countsSeen = [];
  const note = () => {
    const count = document.querySelector('#board')?.dataset.moves;
    if (count !== undefined && window.countsSeen.at(-1) !== count) window.countsSeen.push(count);
  };
  new MutationObserver(note).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['data-moves'],
  });
}"""


def board(page: Page) -> Locator:
    return page.locator("#board")


def moves_shown(page: Page, count: int) -> None:
    expect(board(page)).to_have_attribute("data-moves", str(count))


def marked_card(page: Page) -> str | None:
    card = page.locator('#board .fan [data-hint="card"]')
    return card.get_attribute("data-card") if card.count() else None


def ask_for_a_win(page: Page) -> None:
    page.get_by_label("Menu").click()
    page.get_by_role("button", name="Show a win").click()
    dialog = page.locator("#show-a-win-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("This game will count as played, not won.")
    dialog.get_by_role("button", name="Show a win").click()
    expect(page.locator(".show-a-win")).to_contain_text(WON)


def test_show_a_win_steps_through_the_line_and_counts_as_played(
    page: Page, live_server: LiveServer, artifact_dir: Path, errors: list[str]
) -> None:
    page.goto(f"{live_server.url}/deal/{DEAL}/")
    moves_shown(page, 0)

    # Cancelling the question changes nothing.
    page.get_by_label("Menu").click()
    page.get_by_role("button", name="Show a win").click()
    page.locator("#show-a-win-dialog").get_by_role("button", name="Keep playing").click()
    expect(page.locator("#show-a-win-dialog")).to_be_hidden()
    expect(page.locator(".show-a-win")).to_have_count(0)

    ask_for_a_win(page)
    expect(page.locator(".info .assisted")).to_be_visible()
    panel = page.locator(".show-a-win")
    total = int(panel.get_attribute("data-line-length") or 0)
    assert total > 10
    expect(panel).to_have_attribute("data-line-step", "0")
    expect(panel.get_by_role("button", name="Previous")).to_be_disabled()

    seen = [marked_card(page)]
    for step in range(1, 5):
        before = page.eval_on_selector_all("#board .fan", "fans => fans.map(f => f.textContent)")
        panel.get_by_role("button", name="Next").click()
        moves_shown(page, step)
        expect(panel).to_have_attribute("data-line-step", str(step))
        after = page.eval_on_selector_all("#board .fan", "fans => fans.map(f => f.textContent)")
        assert after != before
        seen.append(marked_card(page))
    assert None not in seen
    assert len(set(seen)) > 1  # the marked card moves along the line

    panel.get_by_role("button", name="Previous").click()
    moves_shown(page, 3)
    expect(panel).to_have_attribute("data-line-step", "3")
    assert marked_card(page) == seen[3]

    # Play it out steps through the line at a readable pace (static/js/motion.js), one move at a
    # time; any key of the player's stops it there. Every count the board shows is noted as it
    # comes (a loaded machine's polling could miss one: CI once saw 4, then 6).
    page.evaluate(NOTE_COUNTS)
    panel.get_by_role("button", name="Play it out").click()
    page.wait_for_function("() => Number(document.querySelector('#board').dataset.moves) >= 6")
    page.keyboard.press("Shift")
    counts = [int(count) for count in page.evaluate("window.countsSeen")]
    assert counts[0] <= 5, counts
    assert 6 in counts, counts
    assert counts == list(range(counts[0], counts[0] + len(counts))), counts  # one at a time
    stopped = int(board(page).get_attribute("data-moves") or 0)
    page.wait_for_timeout(1500)
    assert int(board(page).get_attribute("data-moves") or 0) <= stopped + 1  # one may be on its way
    expect(board(page)).to_have_attribute("data-status", "playing")
    # Under reduced motion it plays the rest at once.
    page.evaluate("document.documentElement.classList.add('reduced-motion')")
    page.locator(".show-a-win").get_by_role("button", name="Play it out").click()
    expect(board(page)).to_have_attribute("data-status", "won")
    moves_shown(page, total)
    expect(page.get_by_role("heading", name="All 52 cards are home")).to_be_visible()
    expect(page.locator(".end")).to_contain_text("counts as played, not won")
    screenshot(page, artifact_dir / "played-out.png")

    page.goto(f"{live_server.url}/stats/")
    expect(page.locator('[data-stat="played"]')).to_have_text("1")
    expect(page.locator('[data-stat="won"]')).to_have_text("0")
    expect(page.locator(".strip .result.assisted")).to_have_count(1)
    assert errors == []


def test_leaving_the_line_drops_it(page: Page, live_server: LiveServer, errors: list[str]) -> None:
    page.goto(f"{live_server.url}/deal/{DEAL}/")
    ask_for_a_win(page)
    line_card = marked_card(page)
    other = page.locator(
        f'#board .fan button.is-top[data-moves]:not([data-moves=""]):not([data-card="{line_card}"])'
    )
    card = other.first
    move = (card.get_attribute("data-moves") or "").split()[0]
    target_code = move.split(">")[1]
    card.click()
    if target_code == "F":
        page.locator(f'[data-foundation="{move.split(">")[0][-1]}"]').click()
    elif target_code.startswith("@"):
        page.locator(f'[data-fan="{target_code[1:]}"] .slot').click()
    else:
        page.locator(f'.fan [data-card="{target_code}"]').click()

    moves_shown(page, 1)
    expect(page.locator(".show-a-win")).to_have_count(0)
    expect(page.locator(".info .assisted")).to_be_visible()
    assert errors == []


def test_show_a_win_without_javascript(browser: Browser, live_server: LiveServer) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/{DEAL}/")
    page.locator("summary").click()
    page.get_by_role("button", name="Show a win").click()
    # Nothing is stored yet: the question is asked on the deal's own page for it.
    expect(page).to_have_url(re.compile(rf"/deal/{DEAL}/show-a-win/\?rules=lucie$"))
    expect(page.get_by_role("heading", name="Show a win?")).to_be_visible()

    page.get_by_role("button", name="Show a win").click()

    expect(page).to_have_url(re.compile(r"/game/\d+/\?did=show_a_win&from=0$"))
    expect(page.locator(".show-a-win")).to_contain_text(WON)
    page.get_by_role("button", name="Next").click()
    moves_shown(page, 1)
    page.get_by_role("button", name="Play it out").click()
    expect(board(page)).to_have_attribute("data-status", "won")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_panel_at_phone_and_desktop_sizes(
    browser: Browser, live_server: LiveServer, artifact_dir: Path, scheme: str
) -> None:
    for name, page in on_each_screen(browser, "dark" if scheme == "dark" else "light"):
        page.goto(f"{live_server.url}/deal/{DEAL}/")
        page.get_by_label("Menu").click()
        page.get_by_role("button", name="Show a win").click()
        screenshot(page, artifact_dir / f"ask-{name}-{scheme}.png")
        page.locator("#show-a-win-dialog").get_by_role("button", name="Show a win").click()
        expect(page.locator(".show-a-win")).to_contain_text(WON)
        page.get_by_role("button", name="Next").click()
        moves_shown(page, 1)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # The marked card and the panel's buttons are both on the first screen.
        for locator in (
            page.locator('#board [data-hint="card"]'),
            page.get_by_role("button", name="Play it out"),
        ):
            box = locator.bounding_box()
            assert box is not None
            assert box["y"] + box["height"] <= SCREENS[name][1]
        screenshot(page, artifact_dir / f"panel-{name}-{scheme}.png")
        page.locator(".line-list summary").click()
        assert no_serious_violations(page) == []


def test_a_deal_that_cannot_be_won_says_so(
    browser: Browser, live_server: LiveServer, artifact_dir: Path
) -> None:
    # Deal 1 under "no merci, no redeals" cannot be won (tests/web/play/test_show_a_win.py says
    # why).
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/1/?rules=nomerci-r0")
    ask = page.locator("#show-a-win-dialog")
    page.get_by_label("Menu").click()
    page.get_by_role("button", name="Show a win").click()
    ask.get_by_role("button", name="Show a win").click()

    expect(page.locator(".show-a-win")).to_contain_text("No win is possible from here")
    expect(page.locator(".show-a-win button")).to_have_count(0)
    screenshot(page, artifact_dir / "no-win-phone.png")
    context.close()


def test_a_longer_look_is_followed_by_the_board_itself(
    page: Page, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch, errors: list[str]
) -> None:
    """The request's search gives up and the job waits for a worker: the panel says it is still
    looking and polls; once the worker has kept its answer, the board shows the line."""
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)
    page.goto(f"{live_server.url}/deal/{DEAL}/")
    page.get_by_label("Menu").click()
    page.get_by_role("button", name="Show a win").click()
    page.locator("#show-a-win-dialog").get_by_role("button", name="Show a win").click()

    panel = page.locator(".show-a-win")
    expect(panel).to_contain_text(STILL_LOOKING)
    expect(panel).to_have_attribute("data-search-on", "working")
    page.wait_for_timeout(2500)  # a poll has come and gone: still looking
    expect(panel).to_have_attribute("data-search-on", "working")
    assert len(held.asked) == 1

    held.work()

    expect(page.locator(".show-a-win")).to_contain_text(WON, timeout=10_000)
    expect(page.locator('#board .fan [data-hint="card"]')).to_have_count(1)
    expect(page.locator("#announce")).to_contain_text("This game can still be won from here")
    assert errors == []


def test_a_longer_look_without_javascript_refreshes_the_page(
    browser: Browser, live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    request_gives_up(monkeypatch)
    held = HeldJobs(monkeypatch)
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}/deal/{DEAL}/show-a-win/?rules=lucie")
    page.get_by_role("button", name="Show a win").click()
    expect(page.locator(".show-a-win")).to_contain_text(STILL_LOOKING)
    expect(page.get_by_role("link", name="Look again")).to_be_visible()

    held.work()

    # The page reloads itself (a refresh every 5 s while it is still looking).
    expect(page.locator(".show-a-win")).to_contain_text(WON, timeout=12_000)
    expect(page.get_by_role("button", name="Next")).to_be_visible()
    context.close()
