"""The embed through the test client: no cookies ever, framing headers, token-only authorization,
lazy creation on the first move, and every bad request refused with nothing changed.

The client enforces CSRF checks, as a browser in a cross-site frame effectively does (it has no
CSRF cookie to send), so these tests also prove that nothing in the embed relies on one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

import pytest
import time_machine
from django.test import Client

from game import engine
from game.board import store
from game.models import Game
from tests.helpers.embed import DEAL, a_card_move, assert_cookie_free, first_move, post, start
from tests.helpers.play import start as site_start
from tests.helpers.play import status_of

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

pytestmark = pytest.mark.django_db

STRICT = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "form-action": "'self'",
    "base-uri": "'none'",
    "object-src": "'none'",
}


@pytest.fixture
def client() -> Client:
    return Client(enforce_csrf_checks=True)


# ---------------------------------------------------------------- helpers


def directives(response: Response) -> dict[str, str]:
    header = response.headers.get("Content-Security-Policy", "")
    pairs = (part.strip().split(" ", 1) for part in header.split(";") if part.strip())
    return {name: value for name, value in pairs}


def assert_frameable(response: Response) -> None:
    assert "X-Frame-Options" not in response.headers
    found = directives(response)
    assert found.pop("frame-ancestors") == "*"
    assert found == STRICT


def snapshot(game: Game) -> tuple[str, str, int, str]:
    game.refresh_from_db()
    return game.moves, game.redo, game.move_count, game.status


def an_illegal_move(game: Game) -> str:
    game.refresh_from_db()
    position = game.replay().position
    legal = {m.text for m in engine.legal_moves(position)}
    tops = [card for card in position.tops if card is not None]
    return next(
        f"{c.code}>{d.code}" for c in tops for d in tops if f"{c.code}>{d.code}" not in legal
    )


@cache
def greedy_win() -> tuple[int, tuple[str, ...]]:
    for number in range(1, 500):
        played = engine.Play(number)
        while (found := engine.greedy_hint(played.position)) is not None:
            played.play(found.move)
        if status_of(played) == "won":
            return number, tuple(move.text for move in played.moves)
    raise AssertionError("no deal in the first 500 is won by the greedy hint")


# ---------------------------------------------------------------- no cookies, anywhere


def _requests() -> dict[str, Callable[[Client], Response]]:
    """Every kind of embed request, each run on a fresh client with a game already begun."""

    def on_game(action: Callable[[Client, Game], Response]) -> Callable[[Client], Response]:
        def run(client: Client) -> Response:
            return action(client, start(client))

        return run

    return {
        "today": lambda c: c.get("/embed/"),
        "today HEAD": lambda c: c.head("/embed/"),
        "deal": lambda c: c.get(f"/embed/deal/{DEAL}/"),
        "deal with rules": lambda c: c.get(f"/embed/deal/{DEAL}/?rules=trefoil"),
        "deal, card selected": lambda c: c.get(f"/embed/deal/{DEAL}/?sel=AS"),
        "deal hint": lambda c: c.get(f"/embed/deal/{DEAL}/hint/"),
        "bad deal (400)": lambda c: c.get("/embed/deal/banana/"),
        "bad rules (400)": lambda c: c.get("/embed/?rules=poker"),
        "another deal": lambda c: c.get("/embed/another/"),
        "unknown path (404)": lambda c: c.get("/embed/nothing/here/"),
        "no slash (301)": lambda c: c.get(f"/embed/deal/{DEAL}"),
        "POST to a page (405)": lambda c: c.post("/embed/"),
        "first move": lambda c: c.post(
            f"/embed/deal/{DEAL}/move/", {"n": 0, "move": first_move().text}
        ),
        "first move, htmx": lambda c: c.post(
            f"/embed/deal/{DEAL}/move/",
            {"n": 0, "move": first_move().text},
            headers={"HX-Request": "true"},
        ),
        "first move illegal": lambda c: c.post(
            f"/embed/deal/{DEAL}/move/", {"n": 0, "move": "KS>F"}
        ),
        "first move stale": lambda c: c.post(
            f"/embed/deal/{DEAL}/move/", {"n": 3, "move": first_move().text}
        ),
        "game page": on_game(lambda c, g: c.get(f"/embed/g/{g.token}/")),
        "game HEAD": on_game(lambda c, g: c.head(f"/embed/g/{g.token}/")),
        "game hint": on_game(lambda c, g: c.get(f"/embed/g/{g.token}/hint/")),
        "move": on_game(lambda c, g: post(c, g, "move", move=a_card_move(g).text)),
        "move, htmx": on_game(lambda c, g: post(c, g, "move", htmx=True, move=a_card_move(g).text)),
        "undo": on_game(lambda c, g: post(c, g, "undo")),
        "redo (nothing to redo: 400)": on_game(lambda c, g: post(c, g, "redo")),
        "redeal": on_game(lambda c, g: post(c, g, "redeal")),
        "illegal move (400)": on_game(lambda c, g: post(c, g, "move", move=an_illegal_move(g))),
        "malformed move (400)": on_game(lambda c, g: post(c, g, "move", move="pineapple")),
        "stale (409)": on_game(lambda c, g: post(c, g, "undo", n=g.move_count + 1)),
        "missing n (400)": on_game(lambda c, g: c.post(f"/embed/g/{g.token}/undo/")),
        "wrong token (404)": on_game(lambda c, g: c.post("/embed/g/not-a-token/undo/", {"n": 1})),
        "missing token (404)": on_game(lambda c, g: c.post("/embed/g//undo/", {"n": 1})),
        "malformed token (404)": on_game(lambda c, g: c.post("/embed/g/a%00b/undo/", {"n": 1})),
        "malformed token page (404)": lambda c: c.get("/embed/g/%00/"),
        "GET on a POST URL (405)": on_game(lambda c, g: c.get(f"/embed/g/{g.token}/undo/")),
    }


@pytest.mark.parametrize("name", list(_requests()))
def test_no_embed_response_sets_or_needs_a_cookie(client: Client, name: str) -> None:
    response = _requests()[name](client)

    assert response.status_code < 500
    assert_cookie_free(response)
    assert not client.cookies


@pytest.mark.parametrize("name", list(_requests()))
def test_every_embed_response_may_be_framed_by_any_site(client: Client, name: str) -> None:
    response = _requests()[name](client)

    if response.status_code != 301:  # CommonMiddleware's slash redirect is not ours to dress
        assert_frameable(response)


def test_a_whole_session_of_play_leaves_the_client_without_cookies(client: Client) -> None:
    game = start(client)
    for _ in range(3):
        assert post(client, game, "move", move=a_card_move(game).text).status_code == 303
        game.refresh_from_db()
    assert post(client, game, "undo").status_code == 303
    game.refresh_from_db()
    assert post(client, game, "redeal").status_code == 303
    assert client.get(f"/embed/g/{game.token}/").status_code == 200

    assert not client.cookies


def test_embed_templates_carry_no_csrf_token_and_nothing_from_another_host(client: Client) -> None:
    game = start(client)
    for url in ("/embed/", f"/embed/g/{game.token}/", "/embed/nowhere/"):
        html = client.get(url).content.decode()
        assert "csrfmiddlewaretoken" not in html
        assert "X-CSRFToken" not in html
        assert "{#" not in html
        assert "#}" not in html
        # hreflang links name this page in other languages with absolute URLs (search engines
        # want them so): they load nothing, and they name this site only.
        alternates = re.findall(r'<link rel="alternate" hreflang="[^"]+" href="([^"]+)">', html)
        assert all(href.startswith("http://testserver/") for href in alternates), alternates
        html = re.sub(r'<link rel="alternate" [^>]*>', "", html)
        assert not re.search(r'(?:src|href|action)="(?:https?:)?//', html), url


@pytest.mark.parametrize("url", ["/", "/rules/", "/stats/", "/embed-this/", "/deal/5/", "/healthz"])
def test_every_other_page_refuses_framing(client: Client, url: str) -> None:
    response = client.get(url)

    assert response.status_code == 200
    assert response["X-Frame-Options"] == "DENY"
    if response["Content-Type"].startswith("text/html"):
        assert directives(response)["frame-ancestors"] == "'none'"


# ---------------------------------------------------------------- lazy creation


def test_the_start_board_stores_nothing(client: Client) -> None:
    for url in ("/embed/", f"/embed/deal/{DEAL}/", f"/embed/deal/{DEAL}/hint/", "/embed/another/"):
        assert client.get(url).status_code in (200, 302)

    assert Game.objects.count() == 0


def test_todays_deal_is_the_utc_date() -> None:
    with time_machine.travel("2026-12-03 23:59:00+00:00", tick=False):
        html = Client().get("/embed/").content.decode()

    assert 'data-deal="20261203"' in html
    assert 'data-token=""' in html
    assert 'action="/embed/deal/20261203/move/"' in html


def test_the_first_move_creates_an_embed_game_and_names_it_by_token(client: Client) -> None:
    game = start(client)

    assert game.session_key == ""
    assert game.deal_number == DEAL
    assert game.move_count == 1
    assert game.moves == first_move().text
    page = client.get(f"/embed/g/{game.token}/")
    assert page.status_code == 200
    assert f'data-token="{game.token}"'.encode() in page.content
    assert f'action="/embed/g/{game.token}/move/"'.encode() in page.content


def test_with_htmx_the_first_move_swaps_the_board_and_replaces_the_frames_url(
    client: Client,
) -> None:
    response = client.post(
        f"/embed/deal/{DEAL}/move/",
        {"n": 0, "move": first_move().text},
        headers={"HX-Request": "true"},
    )

    game = Game.objects.get()
    assert response.status_code == 200
    assert response["HX-Replace-Url"] == f"/embed/g/{game.token}/"
    assert response.content.lstrip().startswith(b'<div id="board"')
    assert f'data-token="{game.token}"'.encode() in response.content


def test_the_rule_set_travels_from_the_start_board_to_the_game(client: Client) -> None:
    html = client.get(f"/embed/deal/{DEAL}/?rules=trefoil").content.decode()
    assert f'action="/embed/deal/{DEAL}/move/?rules=trefoil"' in html
    assert '<input type="hidden" name="rules" value="trefoil">' in html

    game = start(client, query="?rules=trefoil")

    assert game.rules == "trefoil"
    another = client.get(f"/embed/g/{game.token}/").content.decode()
    assert 'href="/embed/another/?rules=trefoil"' in another


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"n": 0, "move": "KS>F"}, 400),
        ({"n": 0, "move": "garbage"}, 400),
        ({"move": "garbage"}, 400),
        ({"n": 2, "move": "AS>F"}, 409),
    ],
)
def test_a_refused_first_move_leaves_no_game_behind(
    client: Client, data: dict[str, object], status: int
) -> None:
    response = client.post(f"/embed/deal/{DEAL}/move/", data)

    assert response.status_code == status
    assert b'data-token=""' in response.content
    assert Game.objects.count() == 0


def test_another_deal_is_a_fresh_random_deal_under_the_same_rules(client: Client) -> None:
    response = client.get("/embed/another/?rules=nomerci")

    assert response.status_code == 302
    found = re.fullmatch(r"/embed/deal/(\d+)/\?rules=nomerci", response["Location"])
    assert found is not None
    assert 1 <= int(found[1]) <= store.RANDOM_DEALS
    assert Game.objects.count() == 0


def test_bad_rules_and_bad_deals_are_a_calm_400_in_the_frame(client: Client) -> None:
    for url in ("/embed/?rules=poker", "/embed/deal/0/", "/embed/deal/12x/"):
        response = client.get(url)
        assert response.status_code == 400
        assert b"That did not work" in response.content
        assert_frameable(response)


# ---------------------------------------------------------------- playing by token


def test_move_undo_redo_redeal_and_hint_by_token(client: Client) -> None:
    game = start(client)
    move = a_card_move(game)

    assert post(client, game, "move", move=move.text).status_code == 303
    assert snapshot(game)[2] == 2
    assert post(client, game, "undo").status_code == 303
    assert snapshot(game)[2] == 1
    assert post(client, game, "redo").status_code == 303
    assert snapshot(game)[2] == 2
    assert post(client, game, "redeal", htmx=True).status_code == 200
    game.refresh_from_db()
    assert game.redeals_used == 1
    hint = client.get(f"/embed/g/{game.token}/hint/")
    assert hint.status_code == 200
    assert b"Hint:" in hint.content


def test_a_wrong_or_missing_token_is_refused_and_changes_nothing(client: Client) -> None:
    game = start(client)
    before = snapshot(game)
    move = a_card_move(game).text

    for url, status in (
        (f"/embed/g/{game.token[:-1]}/move/", 404),
        (f"/embed/g/{game.token}x/move/", 404),
        (f"/embed/g/{game.token.upper()}/move/", 404),
        ("/embed/g//move/", 404),
        # Read as the page of a game whose token is "move", which takes no POST.
        ("/embed/g/move/", 405),
    ):
        response = client.post(url, {"n": game.move_count, "move": move})
        assert response.status_code == status, url
    assert snapshot(game) == before


def test_a_main_site_game_cannot_be_played_through_the_embed(client: Client) -> None:
    site = Client()
    game = site_start(site, DEAL)
    assert game.session_key
    before = snapshot(game)

    assert client.get(f"/embed/g/{game.token}/").status_code == 404
    assert client.get(f"/embed/g/{game.token}/hint/").status_code == 404
    moves: list[tuple[str, dict[str, object]]] = [
        ("move", {"move": a_card_move(game).text}),
        ("redeal", {}),
        ("undo", {}),
    ]
    for action, data in moves:
        url = f"/embed/g/{game.token}/{action}/"
        response = client.post(url, {"n": game.move_count, **data})
        assert response.status_code == 404
    assert snapshot(game) == before


def test_an_embed_game_cannot_be_reached_through_the_main_site(client: Client) -> None:
    game = start(client)
    before = snapshot(game)
    site = Client()
    site.get("/")  # a visitor with a session of their own

    for visitor in (site, Client()):
        assert visitor.get(f"/game/{game.pk}/").status_code == 404
        response = visitor.post(f"/game/{game.pk}/undo/", {"n": game.move_count})
        assert response.status_code in (403, 404)
    assert snapshot(game) == before


def test_stale_board_is_a_409_with_the_game_as_it_stands(client: Client) -> None:
    game = start(client)
    before = snapshot(game)

    response = post(client, game, "move", move=a_card_move(game).text, n=0)

    assert response.status_code == 409
    assert b"out of date" in response.content
    assert f'data-moves="{game.move_count}"'.encode() in response.content
    assert snapshot(game) == before


@pytest.mark.parametrize("htmx", [False, True])
def test_illegal_move_is_a_400_and_changes_nothing(client: Client, htmx: bool) -> None:
    game = start(client)
    before = snapshot(game)

    response = post(client, game, "move", htmx=htmx, move=an_illegal_move(game))

    assert response.status_code == 400
    assert re.search(rb'<div id="announce"[^>]*role="status"[^>]*>[^<]+</div>', response.content)
    assert snapshot(game) == before


def test_tokens_are_long_random_and_differ_per_game(client: Client) -> None:
    games = [start(client) for _ in range(5)]

    tokens = {game.token for game in games}
    assert len(tokens) == 5
    for token in tokens:
        # token_urlsafe(24): 24 random bytes, 192 bits, 32 characters.
        assert re.fullmatch(r"[A-Za-z0-9_-]{32,}", token)


def test_a_won_embed_game_shows_the_win_and_another_deal(client: Client) -> None:
    number, moves = greedy_win()
    game = start(client, number)
    head = [engine.Move.parse(m) for m in moves[:-2]]
    store.save(game, engine.Play(number, engine.DEFAULT_RULES, head))
    for text in moves[-2:]:
        game.refresh_from_db()
        assert post(client, game, "move", move=text).status_code == 303

    game.refresh_from_db()
    assert game.status == Game.Status.WON
    html = client.get(f"/embed/g/{game.token}/").content.decode()
    assert "You won!" in html
    assert 'data-action="another"' in html
    # A text to share, naming the site's page of the deal; no figures (the embed has no session).
    assert f"La Belle Lucie, deal #{number}: won in " in html
    assert f"Play it: http://testserver/deal/{number}/" in html
    assert "Win rate" not in html
    assert post(client, game, "undo").status_code == 400
    assert not client.cookies


def test_embed_games_count_like_any_other_but_show_no_statistics(client: Client) -> None:
    game = start(client)

    assert Game.objects.filter(pk=game.pk, started_at__isnull=False).exists()
    html = client.get(f"/embed/g/{game.token}/").content.decode()
    assert "Statistics" not in html
    assert "/stats/" not in html


# ---------------------------------------------------------------- the snippet page


def test_the_snippet_page_offers_the_iframe_and_shows_it_live() -> None:
    site = Client()
    response = site.get("/embed-this/")
    html = response.content.decode()

    assert response.status_code == 200
    snippet = (
        '&lt;iframe src="http://testserver/embed/" width="100%" height="620" '
        'style="border:0" title="La Belle Lucie" loading="lazy"&gt;&lt;/iframe&gt;'
    )
    assert snippet in html
    assert re.search(r"<textarea[^>]*readonly", html)
    assert "data-copy=" in html
    assert re.search(r'<iframe class="snippet-live" src="/embed/"', html)


def test_the_main_site_links_to_the_snippet_page() -> None:
    html = Client().get("/rules/").content.decode()

    assert 'href="/embed-this/"' in html
