"""The board in French and German, everywhere it is shown: the page and its dialogs, the htmx
fragments a move, a hint or a selection answer with, the stuck notice, a loss and a win. No
English sentence of the board's own strings may show, be spoken (aria-labels, titles, the live
region) or wait in board.js's words (`data-words`).

The English sentences are the catalogue's msgids of the board's strings (the files below),
split at their placeholders and markup; every piece of three words or more must be absent from a
translated page, and the English page must show enough of them that the check means something.
"""

from __future__ import annotations

import json
import re
from functools import cache
from html import unescape
from pathlib import Path

import pytest
from django.test import Client

from game import engine
from game.models import Game
from tests.helpers.board import a_move, heard, set_moves, stuck_game
from tests.helpers.play import greedy_record, legal, start

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[3]
BOARD_FILES = (
    "game/jinja2/board/board.jinja", "game/jinja2/board/table.jinja",
    "game/jinja2/board/fans.jinja", "game/jinja2/board/announce.jinja",
    "game/jinja2/board/show_a_win.jinja", "game/jinja2/board/why.jinja",
    "game/jinja2/board/verb.jinja", "game/jinja2/board/show_a_win_question.jinja",
    "templates/game/_keys.html",
    "templates/game/_settings_form.html", "templates/game/_new_form.html",
    "templates/game/play.html", "templates/game/new.html", "templates/game/deal_confirm.html",
    "templates/game/show_a_win_confirm.html", "templates/game/settings.html",
    "game/board/announce.py", "game/board/notices.py", "game/board/words.py",
    "game/board/words/names.py", "game/board/words/phrases.py", "game/board/words/rule_names.py",
    "game/board/words/advice.py", "game/board/words/notices.py",
    "game/board/words/announcements.py", "game/board/words/refusals.py",
    "game/board/drawn.py", "game/board/answers.py", "game/board/table.py",
    "game/board/messages.py",
    "game/stats/win.py",
    "game/board/show_a_win.py", "game/board/hints.py", "game/templatetags/card_tags.py",
    "game/templatetags/rulesets.py", "game/board/forms.py", "game/play/prefs.py",
    "game/play/finished.py",
)  # fmt: skip
PIECE = re.compile(r"%\(\w+\)s|\{\w+\}|<[^>]+>|%s")
# Said alike in English and in a translation (a name, a word French and German keep).
SAME = {"La Belle Lucie"}


def _unquote(lines: list[str]) -> str:
    return "".join(json.loads(line) for line in lines)


@cache
def english_pieces() -> frozenset[str]:
    """The board's msgids, cut at placeholders and markup into pieces of three words or more."""
    text = (ROOT / "locale/fr/LC_MESSAGES/django.po").read_text(encoding="utf-8")
    pieces: set[str] = set()
    for block in text.split("\n\n"):
        refs = " ".join(line[3:] for line in block.splitlines() if line.startswith("#: "))
        if not any(f"{name}:" in refs for name in BOARD_FILES):
            continue
        ids: list[str] = []
        current: list[str] | None = None
        for line in block.splitlines():
            if line.startswith(("msgid ", "msgid_plural ")):
                current = [line.split(" ", 1)[1]]
                ids.append("")
            elif line.startswith('"') and current is not None:
                current.append(line)
            else:
                if current is not None and ids:
                    ids[-1] = _unquote(current)
                current = None
                continue
            ids[-1] = _unquote(current)
        for msgid in ids:
            for piece in PIECE.split(msgid):
                piece = piece.strip(" .,:;()“”")
                if len(piece.split()) >= 3 and piece not in SAME:
                    pieces.add(piece)
    return frozenset(pieces)


def english_left(html: str) -> list[str]:
    text = heard(html)
    return sorted(piece for piece in english_pieces() if piece in text)


def check(english: str, translated: str, *, least: int) -> None:
    shown = english_left(english)
    assert len(shown) >= least, shown  # the English page has sentences to compare
    assert english_left(translated) == []


def get(client: Client, url: str, code: str, **headers: str) -> str:
    prefix = "" if code == "en" else f"/{code}"
    response = client.get(prefix + url, headers=headers)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


LANGS = pytest.mark.parametrize("code", ["fr", "de"])


@LANGS
def test_the_board_page_and_its_dialogs_are_translated(client: Client, code: str) -> None:
    game = start(client)
    set_moves(game, (a_move(game, "build"),))

    check(get(client, f"/game/{game.pk}/", "en"), get(client, f"/game/{game.pk}/", code), least=25)


@LANGS
def test_a_move_hint_and_selection_answer_in_the_pages_language(client: Client, code: str) -> None:
    game = start(client)
    move = a_move(game, "build")
    prefix = f"/{code}"
    english_move = Client()
    english_game = start(english_move)

    answers = {}
    for lang, who, played in (("en", english_move, english_game), (code, client, game)):
        pre = "" if lang == "en" else prefix
        response = who.post(
            f"{pre}/game/{played.pk}/move/",
            {"n": 0, "move": move.text},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200
        played.refresh_from_db()
        hint = get(who, f"/game/{played.pk}/hint/", lang, HX_Request="true")
        card = next(m.card for m in legal(played) if m.card is not None and not m.merci)
        assert card is not None
        selected = get(who, f"/game/{played.pk}/?sel={card.code}", lang)
        answers[lang] = response.content.decode() + hint + selected

    check(answers["en"], answers[code], least=8)


@LANGS
def test_the_live_region_says_a_move_in_the_pages_language(client: Client, code: str) -> None:
    game = start(client)
    move = a_move(game, "build")

    response = client.post(
        f"/{code}/game/{game.pk}/move/", {"n": 0, "move": move.text}, headers={"HX-Request": "true"}
    )

    region = re.search(r'<div id="announce"[^>]*>(.*?)</div>', response.content.decode(), re.S)
    assert region is not None
    spoken = unescape(region[1])
    fan = "éventail" if code == "fr" else "Fächer"
    onto = {"fr": " sur ", "de": " auf "}[code]
    assert fan in spoken, spoken
    assert onto in spoken, spoken
    assert move.onto is not None
    suit = {"fr": {"C": "trèfle", "D": "carreau", "H": "cœur", "S": "pique"},
            "de": {"C": "Kreuz", "D": "Karo", "H": "Herz", "S": "Pik"}}[code]  # fmt: skip
    assert suit[move.onto.suit] in spoken


def links_that_read_alike(page: str) -> dict[str, set[str]]:
    """The words of a page's links that lead to more than one place, with those places."""
    places: dict[str, set[str]] = {}
    for href, text in re.findall(r'<a [^>]*?href="([^"]*)"[^>]*>(.*?)</a>', page, re.S):
        words = " ".join(unescape(re.sub(r"<[^>]+>", " ", text)).split())
        places.setdefault(words, set()).add(href)
    return {words: hrefs for words, hrefs in places.items() if len(hrefs) > 1}


@LANGS
def test_a_stuck_board_a_loss_and_a_win_are_translated(client: Client, code: str) -> None:
    shown: dict[str, list[str]] = {"en": [], code: []}
    for lang in shown:
        who = Client()
        for rules, lost in (("lucie", False), ("nomerci-r0", True)):
            number, moves = stuck_game(rules, lost=lost)
            game = start(who, number, rules=rules)
            set_moves(game, moves)
            shown[lang].append(get(who, f"/game/{game.pk}/", lang))
        number, won = greedy_record("won")
        game = start(who, number)
        set_moves(game, tuple(engine.Move.parse(text) for text in won))
        game.refresh_from_db()
        assert game.status == Game.Status.WON
        shown[lang].append(get(who, f"/game/{game.pk}/", lang))
    pages = {lang: "".join(each) for lang, each in shown.items()}

    # Two links that lead to different places never read alike: the French end panel once
    # offered "Revoir la partie" twice, for the replay and for the review.
    alike = [links_that_read_alike(page) for each in shown.values() for page in each]
    assert alike == [{}] * 6

    assert "No moves left: Redeal (2 left)." in pages["en"]
    assert "What blocked:" in pages["en"]
    check(pages["en"], pages[code], least=15)


@LANGS
@pytest.mark.parametrize("url", ["/settings/", "/new/"])
def test_the_boards_own_pages_are_translated(client: Client, code: str, url: str) -> None:
    start(client)

    check(get(client, url, "en"), get(client, url, code), least=3)


@LANGS
def test_typing_a_card_uses_the_languages_letters(client: Client, code: str) -> None:
    page = get(client, "/deal/5/", code)
    words = json.loads(unescape(re.search(r'data-words="([^"]*)"', page)[1]))  # type: ignore[index]

    ranks = {"fr": ["V", "D", "R"], "de": ["B", "D", "K"]}[code]
    assert words["rank_keys"][10:] == ranks
    assert words["names"][11] == {"fr": "dame de %(suit)s", "de": "%(suit)s-Dame"}[code]
    # The card corners read the same letters (the French Queen is a D).
    assert re.search(rf'<span class="rank">{ranks[1]}</span>', page)


def test_english_card_names_and_letters_are_unchanged(client: Client) -> None:
    page = get(client, "/deal/5/", "en")

    assert 'aria-label="Fan 1: ' in page
    words = json.loads(unescape(re.search(r'data-words="([^"]*)"', page)[1]))  # type: ignore[index]
    assert words["rank_keys"] == ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    assert words["names"][5] == "Six of %(suit)s"


def spoken(content: bytes) -> str:
    region = re.search(r'<div id="announce"[^>]*>(.*?)</div>', content.decode(), re.S)
    assert region is not None
    return unescape(region[1]).strip()


@LANGS
def test_undo_redo_and_a_redeal_are_said_in_the_pages_language(client: Client, code: str) -> None:
    game = start(client)
    move = a_move(game, "build")
    words = {
        "fr": ("Annulé\u00a0: ", "Rétabli\u00a0: ", "Redistribution 1 sur 2\u00a0: "),
        "de": ("Rückgängig: ", "Wiederholt: ", "Neuverteilung 1 von 2: "),
    }[code]
    said = []
    for action, data in (
        ("move", {"move": move.text}),
        ("undo", {}),
        ("redo", {}),
        ("redeal", {}),
    ):
        game.refresh_from_db()
        response = client.post(
            f"/{code}/game/{game.pk}/{action}/",
            {"n": game.move_count, **data},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200, response.content[-300:]
        said.append(spoken(response.content))

    assert said[1].startswith(words[0]), said
    assert said[2].startswith(words[1]), said
    assert said[3].startswith(words[2]), said
    assert not any(re.search(r"\b(fan|onto|Undone|Redeal)\b", text) for text in said), said
