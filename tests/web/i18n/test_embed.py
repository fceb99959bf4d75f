"""The embed, its snippet page and the site's refusals in French and German (issue 23).

The embed has no cookie to remember a language, so its language is its URL's: `/fr/embed/` is
French and stays French through a game, an error and a refusal. The checks compare each
translated page with the English catalogue's strings of the files translated in this pass (the
embed's templates and views, the refusals of game/ops/limits.py and game/ops/refusal_pages.py, the
site's own error page): none of them may show through in English.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from game.board import answers
from game.embed import views as embed_views
from game.models import Game
from game.ops import limits
from tests.helpers.disk import full_disk
from tests.helpers.embed import a_card_move, assert_cookie_free, first_move

pytestmark = pytest.mark.django_db

CODES = ["fr", "de"]
HTMX = {"HX-Request": "true"}
# The files whose strings this pass marked: their msgids must never show in a translated page.
FILES = (
    "templates/embed/",
    "game/embed/",
    "game/ops/limits.py",
    "game/ops/refusal_pages.py",
)
# Attributes whose values a person reads or hears (and embed.js's words, shown when it asks).
SPOKEN_ATTRIBUTES = (
    "alt",
    "title",
    "aria-label",
    "placeholder",
    "data-leave-label",
    "data-leave-text",
)


# ---------------------------------------------------------------- helpers


@cache
def english_msgids() -> tuple[str, ...]:
    """The msgids of FILES, as a page shows them (markup stripped, placeholders cut out)."""
    po = (Path(settings.BASE_DIR) / "locale/fr/LC_MESSAGES/django.po").read_text("utf-8")
    found = []
    for block in po.split("\n\n"):
        refs = " ".join(line for line in block.splitlines() if line.startswith("#:"))
        if not any(f" {name}" in refs for name in FILES):
            continue
        quoted = re.search(r'^msgid ((?:".*"\n)+)', block + "\n", re.M)
        if quoted is None:
            continue
        text = "".join(ast.literal_eval(line) for line in quoted[1].splitlines())
        for piece in re.split(r"%\(\w+\)s", text):
            piece = unescape(re.sub(r"<[^>]+>", " ", piece))
            found.append(re.sub(r"\s+", " ", piece).strip())
    return tuple(piece for piece in found if len(piece.split()) >= 2)


def spoken_text(html: str) -> str:
    """What a person reads or hears on a page: its text, its title and the attributes above."""
    attributes = [
        unescape(value)
        for name in SPOKEN_ATTRIBUTES
        for value in re.findall(rf'\s{name}="([^"]*)"', html)
    ]
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = unescape(re.sub(r"<[^>]+>", " ", body))
    return re.sub(r"\s+", " ", " ".join([text, *attributes]))


# The board, its live region and its settings form are the board's own templates
# (game/jinja2/board/, _settings_form.html), translated in their own pass: the frame's comparison
# leaves them out (they share words with the frame, "Open La Belle Lucie"). What the frame puts
# on the board (a refusal's message) is checked on its own below.
BOARD_REGIONS = re.compile(
    r'<div id="announce".*?(?=<dialog id="settings-dialog")|(?<=</h2>).*?(?=</dialog>)', re.S
)


def english_left(english_html: str, translated_html: str) -> list[str]:
    """The English strings of this pass that the English page shows and the translated one
    still shows. Fails if the English page shows none (nothing would be compared)."""
    english = spoken_text(BOARD_REGIONS.sub(" ", english_html))
    translated = spoken_text(BOARD_REGIONS.sub(" ", translated_html))
    shown = [msgid for msgid in english_msgids() if msgid in english]
    assert shown, "the English page shows none of the strings compared"
    return [msgid for msgid in shown if msgid in translated]


def assert_no_english(client: Client, path: str, code: str, **kwargs: object) -> str:
    """Fetch `path` in English and under /code/; fail if an English string shows through."""
    english = client.get(path, **kwargs).content.decode()  # type: ignore[arg-type]
    translated = client.get(f"/{code}{path}", **kwargs).content.decode()  # type: ignore[arg-type]
    assert english_left(english, translated) == []
    return translated


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found is not None
    return found[1]


def said(code: str, msgid: str) -> str:
    with translation.override(code):
        text = translation.gettext(msgid)
    assert text != msgid, f"{msgid!r} has no {code} translation"
    return text


def shows(html: str, text: str) -> bool:
    return text in unescape(html)


def start(client: Client, code: str, number: int = 5) -> Game:
    """The first move on the deal's start board under /code/embed/; the new game."""
    response = client.post(
        f"/{code}/embed/deal/{number}/move/", {"n": 0, "move": first_move(number).text}
    )
    assert response.status_code == 303, response.content
    game = Game.objects.latest("pk")
    assert response["Location"].startswith(f"/{code}/embed/g/{game.token}/")
    return game


@pytest.fixture
def client() -> Client:
    # As a browser in a cross-site frame: no CSRF cookie, so the checks are on.
    return Client(enforce_csrf_checks=True)


# ---------------------------------------------------------------- the frame in its URL's language


def test_the_english_msgids_are_gathered() -> None:
    # Guards every comparison below: an empty list would let any page pass.
    msgids = english_msgids()
    assert "There is no such game here. It may have been mistyped." in msgids
    assert limits.BUSY_MESSAGE in msgids
    assert "Put La Belle Lucie on your site" in msgids
    assert "To offer one deal instead of today's, use" in msgids


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("path", ["/embed/", "/embed/deal/5/", "/embed/deal/5/?rules=trefoil"])
def test_the_embed_speaks_its_urls_language_and_sets_no_cookie(
    client: Client, code: str, path: str
) -> None:
    response = client.get(f"/{code}{path}")
    html = response.content.decode()

    assert response.status_code == 200
    assert html_lang(html) == code
    assert response["Content-Language"] == code
    assert_cookie_free(response)
    assert not client.cookies
    assert_no_english(client, path, code)
    # embed.js's question before leaving a game, in the frame's language.
    assert shows(html, said(code, "Press again to leave this game for another deal."))


@pytest.mark.parametrize("code", CODES)
def test_the_embed_names_its_pages_in_each_language(client: Client, code: str) -> None:
    html = client.get(f"/{code}/embed/deal/5/").content.decode()

    links = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html))
    assert links == {
        "en": "http://testserver/embed/deal/5/",
        "fr": "http://testserver/fr/embed/deal/5/",
        "de": "http://testserver/de/embed/deal/5/",
        "x-default": "http://testserver/embed/deal/5/",
    }


@pytest.mark.parametrize("code", CODES)
def test_a_game_begun_in_french_or_german_stays_in_it(client: Client, code: str) -> None:
    game = start(client, code)
    response = client.get(f"/{code}/embed/g/{game.token}/")
    html = response.content.decode()

    assert html_lang(html) == code
    assert_cookie_free(response)
    assert f'action="/{code}/embed/g/{game.token}/move/"' in html
    assert_no_english(client, f"/embed/g/{game.token}/", code)
    # With htmx the move answers with the board, and the frame's URL keeps its language.
    response = client.post(
        f"/{code}/embed/deal/5/move/", {"n": 0, "move": first_move().text}, headers=HTMX
    )
    assert response["HX-Replace-Url"].startswith(f"/{code}/embed/g/")
    assert not client.cookies


@pytest.mark.parametrize("code", CODES)
def test_the_frames_error_pages_are_translated(client: Client, code: str) -> None:
    for path, status in (("/embed/g/no-such-game/", 404), ("/embed/deal/banana/", 400)):
        response = client.get(f"/{code}{path}")
        html = response.content.decode()
        assert response.status_code == status
        assert html_lang(html) == code
        assert_cookie_free(response)
        assert_no_english(client, path, code)
        assert f'href="/{code}/embed/"' in html  # "Play today's deal", in the same language
    missing = client.get(f"/{code}/embed/g/no-such-game/").content.decode()
    assert shows(missing, said(code, embed_views.NOT_FOUND))


# ---------------------------------------------------------------- refusals, in the URL's language


@pytest.mark.parametrize("code", CODES)
def test_a_stale_board_in_the_frame_is_a_409_in_its_language(client: Client, code: str) -> None:
    game = start(client, code)
    url = f"/{code}/embed/g/{game.token}/move/"

    for headers in ({}, HTMX):
        response = client.post(url, {"n": 0, "move": a_card_move(game).text}, headers=headers)
        html = response.content.decode()
        assert response.status_code == 409
        assert not shows(html, answers.STALE_MESSAGE)
        assert shows(html, said(code, answers.STALE_MESSAGE))
        assert_cookie_free(response)


@pytest.mark.usefixtures("rate_limits")
@pytest.mark.parametrize("code", CODES)
def test_a_rate_limited_embed_start_says_so_in_its_language(code: str) -> None:
    client = Client(enforce_csrf_checks=True)
    url = f"/{code}/embed/deal/5/redeal/"
    for _ in range(200):
        response = client.post(url, {"n": "0"}, headers=HTMX)
        if response.status_code == 429:
            break
    html = response.content.decode()

    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert not shows(html, limits.LIMITED_MESSAGE)
    assert shows(html, said(code, limits.LIMITED_MESSAGE))
    assert_cookie_free(response)


@pytest.mark.usefixtures("slots_taken")
@pytest.mark.parametrize("code", CODES)
def test_a_busy_embed_says_so_in_its_language(client: Client, code: str) -> None:
    response = client.get(f"/{code}/embed/deal/10/hint/")
    html = response.content.decode()

    assert response.status_code == 503
    assert html_lang(html) == code
    assert not shows(html, limits.BUSY_MESSAGE)
    assert shows(html, said(code, limits.BUSY_MESSAGE))
    assert_cookie_free(response)


@pytest.mark.parametrize("code", CODES)
def test_an_embed_move_that_could_not_be_saved_says_so_in_its_language(
    client: Client, code: str
) -> None:
    with full_disk():
        response = client.post(
            f"/{code}/embed/deal/5/move/", {"n": 0, "move": first_move().text}, headers=HTMX
        )

    assert response.status_code == 503
    assert shows(response.content.decode(), said(code, limits.UNSAVED_MESSAGE))
    assert not Game.objects.exists()


@pytest.mark.usefixtures("rate_limits")
@pytest.mark.parametrize("code", CODES)
def test_the_sites_refused_page_is_in_the_urls_language(code: str) -> None:
    client = Client()
    for _ in range(100):
        response = client.post(f"/{code}/stats/transfer/use/", {"code": "ABCD-EFGH"})
        if response.status_code == 429:
            break
    html = response.content.decode()

    assert response.status_code == 429
    assert html_lang(html) == code
    assert not shows(html, limits.LIMITED_MESSAGE)
    assert shows(html, said(code, limits.LIMITED_MESSAGE))


@pytest.mark.parametrize("code", ["en", *CODES])
def test_the_bare_500_page_is_in_the_urls_language(code: str) -> None:
    from django.test import RequestFactory

    from game.ops.refusal_pages import server_error

    request = RequestFactory().get("/" if code == "en" else f"/{code}/")
    with translation.override(code):
        response = server_error(request)
    html = response.content.decode()

    assert response.status_code == 500
    assert html_lang(html) == code
    if code == "en":
        assert "<h1>Server Error (500)</h1>" in html  # Django's own page, word for word
    else:
        assert "Server Error" not in html


# ---------------------------------------------------------------- the snippet page


@pytest.mark.parametrize("code", CODES)
def test_the_snippet_page_offers_the_embed_in_its_language(code: str) -> None:
    client = Client()
    html = assert_no_english(client, "/embed-this/", code)

    snippet = f'&lt;iframe src="http://testserver/{code}/embed/" width="100%" height="620"'
    assert snippet in html
    assert re.search(rf'<iframe class="snippet-live" src="/{code}/embed/"', html)
    # And the other languages' addresses, each named in its own language.
    for other, name in settings.LANGUAGES:
        prefix = "" if other == "en" else f"/{other}"
        assert (
            f'<span lang="{other}">{name}</span>: <code>http://testserver{prefix}/embed/</code>'
            in html
        )
    assert shows(html, said(code, "Copied."))  # the Copy button's answer, for copy.js


def test_the_english_snippet_page_keeps_its_words() -> None:
    html = Client().get("/embed-this/").content.decode()

    assert "<h1>Put La Belle Lucie on your site</h1>" in html
    assert '&lt;iframe src="http://testserver/embed/"' in html
    assert "<code>http://testserver/embed/deal/&lt;number&gt;/</code>" in html
