"""The rules page teaches, in English, French and German: the rules in six lines, a worked example
drawn with the board's own cards, strategy tips, the questions players ask, and how the redeals
are shuffled here."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

# The keyboard list is the board's own partial (game/_keys.html), shared with the board's dialog,
# and is translated with the board's strings, not in this pass.
BOARD_PARTIAL = re.compile(r'<dl class="keys">.*?</dl>', re.S)


def rules_text(client: Client, url: str) -> str:
    page = client.get(url).content.decode()
    body = page.split('<div class="page rules">', 1)[1].split("</main>", 1)[0]
    body = BOARD_PARTIAL.sub(" ", body)
    body = re.sub(r'<span class="face".*?</span></span>', " ", body)  # a card's drawn corner
    body = re.sub(r"</t[dh]>", " | ", body)  # a table's cells are not one sentence
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", body)))


def sentences(text: str) -> list[str]:
    parts = re.split(r"(?<=[.!?:;])\s+|[“”()|]", text)
    return [part.strip() for part in parts if len(part.split()) >= 3]


def test_the_rules_page_teaches(client: Client) -> None:
    page = client.get("/rules/").content.decode()

    assert page.count("</li>", page.index('class="six-lines"'), page.index('id="example"')) == 6
    assert page.count('class="example"') == 3
    for tip in (
        "Bank everything as soon as it can go.",
        "Free the blocked low cards first.",
        "Play everything out before you redeal.",
        "Save the merci for the card that unlocks a suit.",
    ):
        assert f"<strong>{tip}</strong>" in page
    for question in (
        "How many redeals are there?",
        "What is the merci?",
        "Can an empty fan be filled?",
        "Can more than one card move at once?",
        "Is it safe to bank a card at once?",
    ):
        assert f"<dt>{question}</dt>" in page
    assert "undoing a redeal and taking it again deals the same fans" in page


def test_the_worked_example_is_drawn_with_the_boards_cards(client: Client) -> None:
    page = client.get("/rules/").content.decode()
    example = page[page.index('id="example"') : page.index('id="strategy"')]

    # The board's own card markup ({% card %}), so a new face design shows here too.
    assert re.search(
        r'<span class="card red is-top" role="img" data-card="7H" aria-label="Seven of Hearts">',
        example,
    )
    assert example.count('data-card="2H"') == 2  # stuck under its own suit, then freed by the merci
    assert '<span class="slot" aria-hidden="true"></span>' in example  # the fan the merci emptied


def test_the_english_page_has_sentences_to_compare() -> None:
    # Guards the test below: an empty extraction would let any translation pass.
    english = sentences(rules_text(Client(), "/rules/"))

    assert len(english) > 60
    assert "Only the top card of a fan moves, one card at a time:" in english


@pytest.mark.parametrize("code", ["fr", "de"])
def test_the_translated_rules_page_shows_no_english_sentence(client: Client, code: str) -> None:
    english = sentences(rules_text(client, "/rules/"))
    translated = rules_text(client, f"/{code}/rules/")

    # The game's name is its name in every language (a rule set's row in the win rates).
    left = [s for s in english if s in translated and s != "La Belle Lucie"]

    assert left == []
    assert f'<html lang="{code}"' in client.get(f"/{code}/rules/").content.decode()


@pytest.mark.parametrize(
    ("code", "words"),
    [
        ("fr", ["éventail", "redistribu", "merci", "fondation", "valet", "dame"]),
        ("de", ["Fächer", "Neuverteilung", "Merci", "Ablage", "Bube", "Dame"]),
    ],
)
def test_the_translation_uses_the_glossary_terms(
    client: Client, code: str, words: list[str]
) -> None:
    text = rules_text(client, f"/{code}/rules/")

    for word in words:
        assert word in text, word


@pytest.mark.parametrize("code", ["fr", "de"])
def test_the_offline_page_and_error_pages_are_translated(client: Client, code: str) -> None:
    english_offline = client.get("/offline/").content.decode()
    offline = client.get(f"/{code}/offline/").content.decode()
    missing = client.get(f"/{code}/no-such-page/").content.decode()
    bad_deal = client.get(f"/{code}/deal/?number=zero").content.decode()

    assert "Your game is kept" in english_offline
    assert "Your game is kept" not in offline
    assert "The rules in six lines" not in offline
    assert "There is nothing here" not in missing
    assert "That did not work" not in bad_deal
    assert "Play deal number" not in bad_deal


@pytest.mark.parametrize("code", ["en", "fr", "de"])
def test_every_page_describes_itself_in_its_language(client: Client, code: str) -> None:
    prefix = "" if code == "en" else f"/{code}"
    descriptions = set()
    for path in ("/", "/rules/", "/stats/", "/daily/", "/no-such-page/"):
        page = client.get(prefix + path).content.decode()
        found = re.search(r'<meta name="description" content="([^"]{50,})">', page)
        assert found is not None, path
        descriptions.add(found[1])
    english = client.get("/").content.decode()

    if code != "en":
        assert (
            re.search(r'<meta name="description" content="([^"]+)">', english)[1]
            not in descriptions
        )  # type: ignore[index]
    assert len(descriptions) >= 2  # the rules and the error pages have their own
