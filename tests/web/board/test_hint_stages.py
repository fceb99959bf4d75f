"""The two-stage hint: a first press of Hint marks the card to play, a second press on the same
board marks where it goes as well. Each stage is counted by the POST that shows it (Game.hints,
Game.hint_places), with htmx and without JavaScript, on the site and in the embed; a press
from a board that is out of date, or that names no stage, is refused and counts nothing."""

from __future__ import annotations

import importlib
import re
from html import unescape
from typing import TYPE_CHECKING

import pytest
from django.apps import apps
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game import engine
from game.board import hints
from game.models import Game
from tests.helpers import embed
from tests.helpers.play import a_card_move, post, start

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def press(
    client: Client, game: Game, shown: int = 0, *, htmx: bool = True, **data: object
) -> Response:
    """Hint pressed on the board that shows stage `shown` of the hint, as its form posts."""
    return post(client, game, "hint", htmx=htmx, shown=shown, **data)


def marks(html: str) -> dict[str, list[str]]:
    """What the board marks for the hint: the cards (`card`), and where one goes (`target`:
    a card, a foundation or a fan)."""
    found: dict[str, list[str]] = {"card": [], "target": []}
    for tag in re.findall(r"<[^>]*data-hint=\"\w+\"[^>]*>", html):
        kind = re.search(r'data-hint="(\w+)"', tag)
        name = re.search(r'data-(?:card|foundation|fan|action)="([^"]+)"', tag)
        assert kind is not None, tag
        assert name is not None, tag
        found[kind[1]].append(name[1])
    return found


def shown_field(html: str) -> str:
    found = re.search(r'name="shown" value="(\d)"', html)
    assert found is not None
    return found[1]


def message(html: str) -> str:
    found = re.search(r'<p class="message">(.*?)</p>', html, re.S)
    assert found is not None
    return unescape(found[1])


def announced(html: str) -> str:
    found = re.search(r'id="announce"[^>]*>(.*?)</div>', html, re.S)
    assert found is not None
    return unescape(found[1])


def counts(game: Game) -> tuple[int, int]:
    game.refresh_from_db()
    return game.hints, game.hint_places


def the_hint(game: Game) -> engine.Move:
    """The hint the server shows for the game as it stands (kept per position)."""
    game.refresh_from_db()
    kept = cache.get(hints.cache_key(game.record))
    assert isinstance(kept, str)
    return engine.Move.parse(kept)


def target_name(move: engine.Move) -> str:
    if move.onto is not None:
        return move.onto.code
    if move.empty_fan is not None:
        return str(move.empty_fan)
    assert move.card is not None
    return move.card.suit


def test_a_first_press_marks_the_card_alone_and_counts_a_hint(client: Client) -> None:
    game = start(client)

    response = press(client, game)

    assert response.status_code == 200
    html = response.content.decode()
    move = the_hint(game)
    assert move.card is not None
    assert marks(html) == {"card": [move.card.code], "target": []}
    assert shown_field(html) == "1"
    assert message(html).startswith("Hint: play the ")
    assert "Press Hint again to see where it goes." in announced(html)
    assert 'class="why"' not in html  # its reason could tell where the card goes
    assert counts(game) == (1, 0)


def test_a_second_press_on_the_same_board_marks_where_it_goes_and_counts_it(
    client: Client,
) -> None:
    game = start(client)
    press(client, game)

    response = press(client, game, shown=1)

    html = response.content.decode()
    move = the_hint(game)
    assert move.card is not None
    assert marks(html) == {"card": [move.card.code], "target": [target_name(move)]}
    assert shown_field(html) == "2"
    assert message(html).startswith(f"Hint: {move.card.name} ")
    assert announced(html).startswith(f"Hint: {move.card.name} ")
    assert 'class="why"' in html
    assert counts(game) == (1, 1)


def test_a_press_on_a_board_showing_the_whole_hint_shows_it_again_and_counts_nothing(
    client: Client,
) -> None:
    game = start(client)
    press(client, game)
    press(client, game, shown=1)

    again = press(client, game, shown=2).content.decode()

    assert len(marks(again)["target"]) == 1
    assert shown_field(again) == "2"
    assert counts(game) == (1, 1)


def test_after_a_move_the_next_hint_starts_again_at_its_card(client: Client) -> None:
    game = start(client)
    press(client, game)
    press(client, game, shown=1)
    moved = post(client, game, "move", htmx=True, move=a_card_move(game).text, auto="0")
    assert shown_field(moved.content.decode()) == "0"
    game.refresh_from_db()

    html = press(client, game).content.decode()

    assert marks(html)["target"] == []
    assert len(marks(html)["card"]) == 1
    assert counts(game) == (2, 1)


_KEY = re.compile(r'data-position="([^"]+)"')
_FAN = re.compile(r'<div id="fan-(\d+)"[^>]*?(?:hx-preserve></div>|>.*?</div>)', re.S)
_HOME = re.compile(r'<div id="home-(\w)"[^>]*?(?:hx-preserve></div>|>.*?</div>)', re.S)


def parts(html: str) -> dict[str, str]:
    """The fans and foundations of an answer, each as sent: drawn, or an hx-preserve stub."""
    found = {f"fan {m[1]}": m[0] for m in _FAN.finditer(html)}
    found.update({f"home {m[1]}": m[0] for m in _HOME.finditer(html)})
    return found


def test_each_stage_from_a_keyed_board_sends_only_what_its_marks_change(client: Client) -> None:
    """Pressed from the board the browser holds (its key `v`, which board.js adds), the first
    stage's answer sends the card's fan again, the second the card's fan and its place; put
    together with what the browser held, each is the board of that stage drawn afresh."""
    game = start(client)
    url = f"/game/{game.pk}/hint/"
    plain = client.get(f"/game/{game.pk}/", headers=HTMX).content.decode()
    held = _KEY.search(plain)
    assert held is not None

    first = press(client, game, v=held[1]).content.decode()
    second_key = _KEY.search(first)
    assert second_key is not None
    move = the_hint(game)
    assert move.card is not None
    assert second_key[1] == f"{held[1]}.{move.card.code}"
    second = press(client, game, shown=1, v=second_key[1]).content.decode()

    held_parts = parts(plain)  # what the browser holds, put together after each answer
    for answer, stage in ((first, 1), (second, 2)):
        sent = parts(answer)
        assert any("hx-preserve" in part for part in sent.values())
        assert sum("hx-preserve" not in part for part in sent.values()) <= stage + 1
        held_parts = {
            name: held_parts[name] if "hx-preserve" in part else part for name, part in sent.items()
        }
        drawn = client.get(url, {"stage": stage}, headers=HTMX).content.decode()
        assert held_parts == parts(drawn)
    assert counts(game) == (1, 1)


def test_without_javascript_each_press_posts_then_its_page_shows_the_stage(
    client: Client,
) -> None:
    game = start(client)

    first = press(client, game, htmx=False)
    assert first.status_code == 303
    assert first["Location"] == f"/game/{game.pk}/hint/?stage=1"
    with CaptureQueriesContext(connection) as captured:
        page = client.get(first["Location"]).content.decode()
    assert [q["sql"] for q in captured.captured_queries if q["sql"].startswith("UPDATE")] == []
    assert marks(page)["target"] == []
    assert len(marks(page)["card"]) == 1
    assert shown_field(page) == "1"
    # The live region of the page the post led to says the first stage too.
    assert "Press Hint again" in announced(page)
    assert counts(game) == (1, 0)

    second = press(client, game, shown=int(shown_field(page)), htmx=False)
    assert second.status_code == 303
    assert second["Location"] == f"/game/{game.pk}/hint/?stage=2"
    whole = client.get(second["Location"]).content.decode()
    assert len(marks(whole)["target"]) == 1
    assert shown_field(whole) == "2"
    assert counts(game) == (1, 1)

    # Reloading either page shows its stage again and counts nothing.
    client.get(first["Location"])
    client.get(second["Location"])
    assert counts(game) == (1, 1)


def test_a_first_boards_press_without_javascript_keeps_its_rules_in_the_redirect(
    client: Client,
) -> None:
    start(client, 9)  # a session
    url = "/deal/3/hint/?rules=trefoil"

    posted = client.post(url, {"n": 0})

    assert posted.status_code == 303
    assert posted["Location"] == "/deal/3/hint/?rules=trefoil&stage=1"
    page = client.get(posted["Location"]).content.decode()
    assert 'data-rules="trefoil"' in page
    assert marks(page)["target"] == []


@pytest.mark.parametrize("shown", [0, 1])
@pytest.mark.parametrize("htmx", [True, False])
def test_a_press_from_a_board_that_is_out_of_date_is_refused_and_counts_nothing(
    client: Client, shown: int, htmx: bool
) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text, auto="0")
    game.refresh_from_db()
    assert game.move_count >= 1

    response = press(client, game, shown, htmx=htmx, n=0)

    assert response.status_code == 409
    html = response.content.decode()
    assert "That board was out of date" in html
    assert marks(html) == {"card": [], "target": []}
    assert counts(game) == (0, 0)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({}, "The request did not say which board it was made on."),
        ({"n": "x"}, "The request did not say which board it was made on."),
        ({"n": 0, "shown": "3"}, "A hint shows the card to play (stage 1), then where it goes"),
        ({"n": 0, "shown": "-1"}, "A hint shows the card to play (stage 1), then where it goes"),
    ],
)
def test_a_press_that_names_no_board_or_no_stage_is_refused(
    client: Client, data: dict[str, object], said: str
) -> None:
    game = start(client)

    response = client.post(f"/game/{game.pk}/hint/", data, headers=HTMX)

    assert response.status_code == 400
    assert said in unescape(response.content.decode())
    assert counts(game) == (0, 0)


@pytest.mark.parametrize("stage", ["0", "3", "card"])
def test_a_hint_page_asked_for_a_stage_no_hint_has_is_refused(client: Client, stage: str) -> None:
    game = start(client)

    response = client.get(f"/game/{game.pk}/hint/", {"stage": stage})

    assert response.status_code == 400
    assert "A hint shows the card to play (stage 1)" in unescape(response.content.decode())


def test_a_redeal_hint_is_whole_at_its_first_press(client: Client) -> None:
    """The best move is a redeal: the first press says so and marks Redeal; there is no second
    stage to count."""
    game = start(client)
    assert engine.REDEAL in engine.legal_moves(game.replay().position)
    cache.set(hints.cache_key(game.record), engine.REDEAL.text, hints.COMPLETE_SECONDS)

    first = press(client, game).content.decode()
    again = press(client, game, shown=int(shown_field(first))).content.decode()

    for html in (first, again):
        assert re.search(r'data-action="redeal"[^>]*data-hint="card"', html)
        assert message(html) == "Hint: Redeal now."
        assert shown_field(html) == "1"
    assert counts(game) == (1, 0)


@pytest.mark.parametrize(("presses", "counted"), [(1, (1, 0)), (2, (1, 1))])
def test_a_first_boards_stages_count_in_the_game_its_first_move_stores(
    client: Client, presses: int, counted: tuple[int, int]
) -> None:
    start(client, 9)  # a session, and another game
    for shown in range(presses):
        assert (
            client.post("/deal/3/hint/", {"n": 0, "shown": shown}, headers=HTMX).status_code == 200
        )

    move = embed.first_move(3).text
    response = client.post("/deal/3/move/", {"n": 0, "move": move, "auto": "0"}, headers=HTMX)

    assert response.status_code == 200
    game = Game.objects.get(deal_number=3)
    assert (game.hints, game.hint_places) == counted
    assert "first_hint" not in client.session
    assert "first_hint_place" not in client.session


def test_the_embed_shows_each_stage_and_counts_it() -> None:
    client = Client()
    game = embed.start(client)

    first = embed.post(client, game, "hint", htmx=True, shown=0).content.decode()
    second = embed.post(client, game, "hint", htmx=True, shown=1).content.decode()
    stale = embed.post(client, game, "hint", htmx=True, shown=0, n=0)

    assert (len(marks(first)["card"]), marks(first)["target"]) == (1, [])
    assert len(marks(second)["target"]) == 1
    assert stale.status_code == 409
    assert counts(game) == (1, 1)
    embed.assert_cookie_free(stale)


def test_the_statistics_and_the_record_say_how_many_hints_of_each_stage(client: Client) -> None:
    """Two hints in one game, one of them taken to where its card goes."""
    game = start(client)
    press(client, game)
    press(client, game, shown=1)
    post(client, game, "move", move=a_card_move(game).text, auto="0")
    game.refresh_from_db()
    press(client, game)

    stats = client.get("/stats/").content.decode()
    record = client.get(f"/game/{game.pk}/record/").content.decode()

    assert 'data-stat="hints">2<' in stats
    assert 'data-stat="hint-places">1<' in stats
    assert 'data-figure="hints">2<' in record
    assert 'data-figure="hint-places">1<' in record

    # The game ends (left for another deal): the strip's line for it says its hints too.
    start(client, 4242)
    strip = client.get("/stats/").content.decode()
    assert "hints: 2, where it goes: 1" in strip


def test_the_statistics_say_the_stages_in_french_and_german(client: Client) -> None:
    game = start(client)
    press(client, game)

    french = client.get("/fr/stats/").content.decode()
    german = client.get("/de/stats/").content.decode()

    assert "Indices\u00a0: la carte" in french
    assert "Indices\u00a0: où la jouer" in french
    assert "Tipps: die Karte" in german
    assert "Tipps: wohin sie kommt" in german


@pytest.mark.parametrize(
    ("code", "first", "again"),
    [
        ("fr", "Indice\u00a0: jouez ", "Appuyez encore sur Indice pour voir où la jouer."),
        ("de", "Tipp: ", "Drücken Sie noch einmal auf Tipp, um zu sehen, wohin die Karte kommt."),
    ],
)
def test_the_first_stage_speaks_the_pages_language(
    client: Client, code: str, first: str, again: str
) -> None:
    game = start(client)

    html = client.post(f"/{code}/game/{game.pk}/hint/", {"n": 0}, headers=HTMX).content.decode()

    assert message(html).startswith(first)
    assert announced(html).endswith(again)
    assert "Hint" not in message(html)


def test_hints_shown_before_the_stages_count_as_taken_to_where_they_go() -> None:
    """Every hint before migration 0015 showed its card and its place at once."""
    migration = importlib.import_module("game.migrations.0015_hint_stages")
    game = Game.objects.create(deal_number=5, hints=3, hint_places=0)
    none = Game.objects.create(deal_number=6)

    migration.whole_hints_so_far(apps, None)

    assert counts(game) == (3, 3)
    assert counts(none) == (0, 0)


def test_a_look_up_ahead_of_a_press_carries_both_stages_words_and_counts_nothing(
    client: Client,
) -> None:
    """`?peek=1` (press.js, for a board that came without its hint): the move, and what each
    stage says, for the press to light in its own frame."""
    game = start(client)

    found = client.get(f"/game/{game.pk}/hint/", {"peek": "1"}).json()

    move = the_hint(game)
    assert move.card is not None
    assert found["move"] == move.text
    assert found["message"].startswith(f"Hint: play the {move.card.name}")
    assert found["message"].endswith("Press Hint again to see where it goes.")
    assert found["place"].startswith(f"Hint: {move.card.name} ")
    assert counts(game) == (0, 0)


def test_every_board_carries_both_stages_words_for_a_press(client: Client) -> None:
    game = start(client)
    html = client.get(f"/game/{game.pk}/").content.decode()

    said = re.search(r'data-ready-said="([^"]*)" data-ready-said-place="([^"]*)"', html)

    assert said is not None
    move = the_hint(game)
    assert move.card is not None
    assert unescape(said[1]).startswith(f"Hint: play the {move.card.name}")
    assert unescape(said[2]).startswith(f"Hint: {move.card.name} ")
