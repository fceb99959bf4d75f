"""The board in French and German, in Chromium: a card picked by typing its name with the
language's letters (French V D R for Valet, Dame, Roi and T K C P for the suits; German B D K
for Bube, Dame, König and K D H P), a move played from the keyboard, and the live region heard
in the page's language; axe clean in both."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from game import engine
from tests.helpers.browser import LISTEN, no_violations

pytestmark = pytest.mark.django_db(transaction=True)

# Deal 3 has the Ace of Clubs on top of a fan (tests/browser/test_screen_reader.py plays it too).
DEAL = 3
WORDS = {
    "fr": {
        "ace_keys": ["a", "t"],
        "ace": "as de trèfle",
        "picked": re.compile(
            r"^Carte prise\s:\sas de trèfle, de l.éventail \d+\. Elle peut aller sur sa fondation"
            r"( ou sur le deux de trèfle de l.éventail \d+)?\.$"
        ),
        "foundation": re.compile(r"^Fondation trèfle\s:\s"),
        "played": re.compile(r"^As de trèfle sur sa fondation\. L.éventail \d+ "),
        "queen_keys": ["d", "p"],
        "queen": "dame de pique",
        "moves": "Coups",
    },
    "de": {
        "ace_keys": ["a", "k"],
        "ace": "Kreuz-Ass",
        "picked": re.compile(
            r"^Kreuz-Ass aus Fächer \d+ aufgenommen, möglich: auf die Ablage"
            r"( oder auf Kreuz-Zwei in Fächer \d+)?\.$"
        ),
        "foundation": re.compile(r"^Ablage Kreuz: "),
        "played": re.compile(r"^Kreuz-Ass auf die Ablage\. Fächer \d+ "),
        "queen_keys": ["d", "p"],
        "queen": "Pik-Dame",
        "moves": "Züge",
    },
}  # fmt: skip


def heard(page: Page) -> list[str]:
    said: list[str] = page.evaluate("window.heard.splice(0)")
    return said


@pytest.mark.parametrize("code", ["fr", "de"])
def test_type_a_card_in_french_and_german_play_it_and_hear_it(
    page: Page, live_server: LiveServer, errors: list[str], code: str
) -> None:
    words = WORDS[code]
    page.goto(f"{live_server.url}/{code}/deal/{DEAL}/")
    assert page.locator("html").get_attribute("lang") == code
    region = page.get_by_role("status").first
    region.evaluate(LISTEN)
    ace = page.get_by_role("button", name=words["ace"], exact=True)

    for key in words["ace_keys"]:
        page.keyboard.press(key)
    expect(ace).to_be_focused()
    page.keyboard.press("Enter")
    expect(region).to_have_text(words["picked"])

    foundation = page.get_by_role("button", name=words["foundation"])
    for _ in range(60):
        if foundation.evaluate("element => element === document.activeElement"):
            break
        page.keyboard.press("ArrowLeft")
    expect(foundation).to_be_focused()
    page.keyboard.press("Enter")
    expect(region).to_have_text(words["played"])
    status = page.get_by_role("group", name=re.compile(r"^(État de la partie|Spielstand)$"))
    expect(status).to_contain_text(re.compile(rf"{words['moves']}\s*1\b"))
    expect(page.get_by_role("button", name=re.compile(rf"{words['ace']}$"))).to_have_count(1)

    # The Queen typed with the language's letter: focused when it is on top, else said where
    # it lies (under which cards), in the page's language.
    heard(page)
    for key in words["queen_keys"]:
        page.keyboard.press(key)
    queen = page.get_by_role("button", name=words["queen"], exact=True)
    page.wait_for_timeout(300)
    if not queen.count() or not queen.evaluate("element => element === document.activeElement"):
        expect(region).to_contain_text(words["queen"])
        said = " ".join(heard(page))
        assert words["queen"] in said.lower() or words["queen"] in said, said
        assert not re.search(r"\b(is in fan|under the|of Spades)\b", said), said

    assert no_violations(page) == []
    assert errors == []


@pytest.mark.parametrize("code", ["fr", "de"])
def test_the_english_letters_still_work_in_french_and_german(
    page: Page, live_server: LiveServer, code: str
) -> None:
    page.goto(f"{live_server.url}/{code}/deal/{DEAL}/")
    region = page.get_by_role("status").first
    queen = WORDS[code]["queen"]

    # Q for Queen and S for Spades are free in both languages, so they still name a card.
    page.keyboard.press("q")
    page.keyboard.press("s")

    button = page.get_by_role("button", name=queen, exact=True)
    page.wait_for_timeout(300)
    focused = button.count() and button.evaluate("element => element === document.activeElement")
    if not focused:
        expect(region).to_contain_text(queen)
    assert engine.Card.parse("QS").name == "Queen of Spades"  # the engine's own words stay
