"""The pages around the board in French and German: the daily page and its calendar, the
statistics, moving them to another device, records, replays and the review. Each page is read in
English and in the translated language, and fails if a sentence of the strings marked in these
pages' files (the English msgids of the catalogue) shows in the translated page: visible text,
aria-labels, titles and placeholders."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from functools import cache
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from pytest_django.fixtures import Settings

from game.models import Game
from tests.helpers.daily import site_at

pytestmark = pytest.mark.django_db

NOON = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
CATALOGUE = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"
# The files of this part: their msgids are the sentences a translated page must not show.
OWN = re.compile(
    r"^(templates/daily/|templates/game/(stats|stats_reset|_chart|transfer|record|_record_box"
    r"|import|replay)\.html|templates/review/|game/daily/|game/stats/|game/records/views\.py"
    r"|game/review/)"
)
MIN_WORDS = 3


def _unquote(line: str) -> str:
    return line[line.index('"') + 1 : line.rindex('"')].encode().decode("unicode_escape")


@cache
def english_sentences() -> tuple[str, ...]:
    """Every run of at least MIN_WORDS words in the English msgids of this part's strings,
    cut at placeholders and markup."""
    found: set[str] = set()
    text = CATALOGUE.read_text()
    for entry in text.split("\n\n"):
        places = [
            path
            for line in entry.splitlines()
            if line.startswith("#:")
            for path in line[2:].split()
        ]
        if not any(OWN.match(place) for place in places):
            continue
        msgid, reading = [], False
        for line in entry.splitlines():
            if line.startswith("msgid "):
                reading = True
            elif not line.startswith('"'):
                reading = False
            if reading:
                msgid.append(_unquote(line))
        english = "".join(msgid).encode("latin-1").decode("utf-8")
        english = re.sub(r"<code>.*?</code>", " ", english)  # notation, the same in every language
        for part in re.split(r"%\([a-z_]+\)[sd]|<[^>]+>", english):
            part = " ".join(part.split()).strip(" ,.:;·")
            if len(part.split()) >= MIN_WORDS:
                found.add(part)
    return tuple(sorted(found))


ATTRIBUTES = re.compile(r'\s(?:aria-label|title|placeholder|alt|data-short)="([^"]*)"')


def visible(html: str) -> str:
    """What a reader sees or hears: the text, and the words of the attributes read aloud."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    spoken = " ".join(ATTRIBUTES.findall(html))
    text = re.sub(r"<[^>]+>", " ", html)
    return " ".join(unescape(f"{text} {spoken}").split())


# A daily deal's page holds the board, whose words are translated with the board's strings: only
# its title, the daily header and the result box are this part's.
DAILY_PLAY = re.compile(r"^/daily/(\d{4}/\d\d/\d\d/)?$")
OWN_REGIONS = re.compile(
    r"<title>.*?</title>"
    r'|<section (?:id="daily-result" )?class="daily-(?:head|result)".*?</section>',
    re.S,
)


# The live region of a replay speaks with the board's announcements (game/board/announce.py).
BOARD_REGIONS = re.compile(r'<div id="announce"[^>]*>.*?</div>', re.S)


def own_part(path: str, html: str) -> str:
    if DAILY_PLAY.match(path):
        return " ".join(OWN_REGIONS.findall(html))
    return BOARD_REGIONS.sub(" ", html)


def untranslated(client: Client, path: str, code: str, **headers: str) -> list[str]:
    """The sentences of this part that the English page shows and the translated one still does."""
    english = visible(own_part(path, client.get(path, headers=headers).content.decode()))
    response = client.get(f"/{code}{path}", headers=headers)
    assert response.status_code in (200, 404), (path, response.status_code)
    translated = visible(own_part(path, response.content.decode()))
    shown = [s for s in english_sentences() if s in english]
    assert shown, f"no sentence of this part found on {path}: is it the right page?"
    return [s for s in shown if s in translated]


@pytest.fixture(autouse=True)
def _setup(settings: Settings) -> Iterator[None]:
    with site_at(settings, NOON):
        yield


def finished_daily(client: Client, day: dt.date, status: str, **fields: object) -> Game:
    key = client.session.session_key
    assert key is not None
    started = dt.datetime.combine(day, dt.time(9), tzinfo=dt.UTC)
    values: dict[str, object] = {
        "elapsed_ms": 252_000, "move_count": 93, "redeals_used": 2, "mercis_used": 1,
        "cards_home": 52 if status == Game.Status.WON else 31, "daily": True, "wall_ms": 300_000,
    }  # fmt: skip
    values.update(fields)
    return Game.objects.create(
        session_key=key, deal_number=int(f"{day:%Y%m%d}"), rules="lucie", status=status,
        started_at=started, finished_at=started + dt.timedelta(minutes=5), **values,
    )  # fmt: skip


@pytest.fixture
def played(client: Client) -> Client:
    """A browser with a month of daily games: today's won, others lost, late, under way."""
    client.get("/daily/")
    client.post("/daily/")
    Game.objects.filter(session_key=client.session.session_key).delete()
    finished_daily(client, dt.date(2026, 12, 1), Game.Status.WON, undos=0, hints=0)
    return client


@pytest.fixture
def november(client: Client) -> Client:
    client.get("/daily/")
    client.post("/daily/")
    finished_daily(client, dt.date(2026, 11, 3), Game.Status.LOST)
    finished_daily(client, dt.date(2026, 11, 4), Game.Status.ABANDONED)
    late = finished_daily(client, dt.date(2026, 11, 5), Game.Status.WON, assisted=True)
    Game.objects.filter(pk=late.pk).update(started_at=NOON - dt.timedelta(hours=1))
    return client


CODES = ["fr", "de"]


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize(
    "path", ["/daily/", "/daily/2026/12/", "/daily/2026/11/", "/daily/2026/11/20/"]
)
def test_the_daily_pages_show_no_english_sentence(client: Client, code: str, path: str) -> None:
    assert untranslated(client, path, code) == []


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("path", ["/daily/", "/daily/2026/12/"])
def test_a_won_daily_and_its_share_text_are_translated(
    played: Client, code: str, path: str
) -> None:
    assert untranslated(played, path, code) == []


@pytest.mark.parametrize("code", CODES)
def test_a_month_of_results_is_translated(november: Client, code: str) -> None:
    assert untranslated(november, "/daily/2026/11/", code) == []


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize("path", ["/daily/2027/01/", "/daily/2025/01/", "/daily/2026/13/"])
def test_a_daily_date_not_offered_is_refused_in_the_language(
    client: Client, code: str, path: str
) -> None:
    assert untranslated(client, path, code) == []


def test_the_calendar_names_its_month_and_weekdays_in_the_language(client: Client) -> None:
    french = client.get("/fr/daily/2026/12/").content.decode()
    german = client.get("/de/daily/2026/12/").content.decode()

    assert "décembre 2026" in french
    assert "Dezember 2026" in german
    assert '<abbr title="mardi">mar</abbr>' in french
    assert '<abbr title="Dienstag">Di</abbr>' in german
    assert "Semaine du 1 décembre" in french
    assert "Woche vom 1. Dezember" in german
    assert "00:00 UTC, le mer. 2 déc." in french
    assert "00:00 UTC am Mi., 2. Dez." in german


def test_the_share_text_is_in_the_pages_language(played: Client) -> None:
    french = unescape(played.get("/fr/daily/").content.decode())
    german = unescape(played.get("/de/daily/").content.decode())
    english = unescape(played.get("/daily/").content.decode())

    assert "— won in 4:12, 93 moves, clean, 2 redeals, merci used" in english
    assert "— gagnée en 4:12, 93 coups, victoire nette, 2 redistributions, merci joué" in french
    assert "— gewonnen in 4:12, 93 Züge, sauber, 2 Neuverteilungen, Merci genutzt" in german


# ---------------------------------------------------------------- statistics, records, review


@pytest.fixture
def finished(client: Client) -> dict[str, Game]:
    """A browser with a clean win and two losses (one in the last deal, one before a redeal)."""
    from tests.helpers.review import (
        LOST_BEFORE_A_REDEAL,
        LOST_IN_THE_LAST_DEAL,
        lost_game,
        review_until_done,
        won_game,
    )

    games = {
        "won": won_game(client),
        "last_deal": lost_game(client, LOST_IN_THE_LAST_DEAL),
        "before_redeal": lost_game(client, LOST_BEFORE_A_REDEAL),
    }
    for game in games.values():
        review_until_done(client, game)
    return games


@pytest.mark.parametrize("code", CODES)
@pytest.mark.parametrize(
    "path", ["/stats/", "/stats/?rules=all", "/stats/reset/", "/stats/transfer/", "/import/"]
)
def test_the_pages_of_a_new_browser_show_no_english_sentence(
    client: Client, code: str, path: str
) -> None:
    assert untranslated(client, path, code) == []


@pytest.mark.parametrize("code", CODES)
def test_statistics_replays_records_and_reviews_show_no_english_sentence(
    client: Client, finished: dict[str, Game], code: str
) -> None:
    paths = ["/stats/", "/stats/?rules=all", "/stats/transfer/"]
    for game in finished.values():
        paths += [
            f"/replay/{game.replay_token}/",
            f"/replay/{game.replay_token}/?step=3",
            f"/game/{game.pk}/record/",
            f"/game/{game.pk}/review/",
        ]
    lost = finished["before_redeal"]
    paths += [f"/game/{lost.pk}/review/?show=1", f"/game/{lost.pk}/review/?show=1&step=1"]

    left = {path: found for path in paths if (found := untranslated(client, path, code))}

    assert left == {}


@pytest.mark.parametrize("code", CODES)
def test_the_transfer_and_import_refusals_are_in_the_language(client: Client, code: str) -> None:
    client.get("/")
    english = client.post("/stats/transfer/use/", {"code": "nonsense"}).content.decode()
    translated = client.post(f"/{code}/stats/transfer/use/", {"code": "nonsense"})
    refused = client.post(f"/{code}/import/", {"record": "", "then": "replay"}).content.decode()

    assert "A transfer code is" in english
    assert "A transfer code is" not in translated.content.decode()
    assert "There is no record" not in refused
    assert {"fr": "pas de relevé", "de": "Kein Protokoll"}[code] in refused


@pytest.mark.parametrize("code", CODES)
def test_a_shown_transfer_code_is_explained_in_the_language(client: Client, code: str) -> None:
    client.get("/")
    client.post("/deal/5/")
    shown = client.post(f"/{code}/stats/transfer/code/").content.decode()

    assert 'data-transfer="code"' in shown
    assert "On the other device" not in shown
    assert "Valid until" not in shown


HTMX = {"HX-Request": "true"}


@pytest.mark.parametrize("code", CODES)
def test_the_htmx_fragments_are_in_the_language(
    client: Client, finished: dict[str, Game], code: str
) -> None:
    lost = finished["before_redeal"]
    fragments = [
        f"/game/{lost.pk}/review/",
        f"/game/{lost.pk}/review/?show=1&step=2",
        "/stats/?rules=all",
    ]
    client.get("/daily/")
    client.post("/daily/")
    key = client.session.session_key
    Game.objects.filter(session_key=key, deal_number=20261201).delete()
    finished_daily(client, dt.date(2026, 12, 1), Game.Status.LOST)
    fragments.append("/daily/2026/12/01/result/")

    left = {
        path: found for path in fragments if (found := untranslated(client, path, code, **HTMX))
    }

    assert left == {}
