"""A walk through the main pages under /fr/ and /de/, as a player meets them: home, a deal, a
move against the rules, a malformed one, a hint, "nothing to hint", the rules page, the daily
page, statistics, a finished game's record, replay and review, and the embed. Each fails if it
says one of the English sentences known to have shown through (`PROBES`) or a piece of the
msgids of game/board/messages.py and the game's status labels."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from game import engine
from game.models import Game
from tests.helpers.board import heard
from tests.helpers.embed import DEAL, first_move
from tests.helpers.play import legal, start

pytestmark = pytest.mark.django_db

CODES = ["fr", "de"]
HTMX = {"HX-Request": "true"}

# English that showed through on translated pages before this pass (refusals, the hint, the
# record's status); each must be absent from every French and German page below.
PROBES = (
    "is not on top",
    "cannot go home yet",
    "cannot go onto",
    "is already on its foundation",
    "There is no move to",
    "No card can go to its foundation",
    "is not a move",
    "That was not a move",
    "That board was out of date",
    "There is nothing to hint",
    "Hint:",
    "Redeal now",
    "take the merci",
    "to its foundation",
    "buried in fan",
    "No redeals are left",
    "The merci has been used",
    "Show a win",
    "Undo",
    "cards home",
    ", won.",
    ", lost.",
    "Abandoned",
)
# The files whose msgids (pieces of three words or more) a translated page must not show.
FILES = ("game/board/messages.py", "game/models.py")
PIECE = re.compile(r"%\(\w+\)s")


@cache
def english_pieces() -> tuple[str, ...]:
    po = (Path(settings.BASE_DIR) / "locale/fr/LC_MESSAGES/django.po").read_text("utf-8")
    pieces = set(PROBES)
    for block in po.split("\n\n"):
        refs = " ".join(line for line in block.splitlines() if line.startswith("#:"))
        if not any(f" {name}:" in refs for name in FILES):
            continue
        found = re.search(r'^msgid ((?:".*"\n)+)', block + "\n", re.M)
        assert found is not None, block
        text = "".join(line[1:-1] for line in found[1].splitlines())
        for piece in PIECE.split(text):
            piece = piece.strip(" .,:;")
            if len(piece.split()) >= 3:
                pieces.add(piece)
    return tuple(sorted(pieces))


def english_left(html: str) -> list[str]:
    text = heard(html)
    return [piece for piece in english_pieces() if piece in text]


def page(client: Client, url: str, *, status: int = 200, post: dict[str, object] | None = None,
         **headers: str) -> str:  # fmt: skip
    if post is None:
        response = client.get(url, headers=headers)
    else:
        response = client.post(url, post, headers=headers)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def illegal(game: Game) -> engine.Move:
    """A move the rules refuse in `game`'s position: a buried card sent home."""
    position = game.resume().position
    fan = next(fan for fan in position.fans if len(fan) > 1)
    return engine.Move.home(fan[0])


def said(pages: dict[str, str]) -> dict[str, list[str]]:
    return {name: found for name, html in pages.items() if (found := english_left(html))}


@pytest.mark.parametrize("code", CODES)
def test_the_pages_of_a_game_in_progress_say_no_english(client: Client, code: str) -> None:
    pre = f"/{code}"
    pages = {
        "home": page(client, f"{pre}/"),
        "deal": page(client, f"{pre}/deal/7/"),
        "rules": page(client, f"{pre}/rules/"),
        "daily": page(client, f"{pre}/daily/"),
        "stats": page(client, f"{pre}/stats/"),
        "embed": page(client, f"{pre}/embed/"),
    }
    game = start(client)
    url = f"{pre}/game/{game.pk}"
    pages["game"] = page(client, f"{url}/")
    pages["hint"] = page(client, f"{url}/hint/", **HTMX)
    card_move = next(m for m in legal(game) if m.card is not None and not m.merci)
    pages["after a move"] = page(
        client, f"{url}/move/", post={"n": 0, "move": card_move.text}, **HTMX
    )

    assert said(pages) == {}


def refusals(client: Client, code: str) -> dict[str, str]:
    """The pages of refused requests: against the rules (htmx and a plain post), malformed,
    undo with nothing to undo, a stale board, and a move against the rules in the embed."""
    game = start(client)
    url = f"/{code}/game/{game.pk}"
    move = illegal(game).text
    pages = {
        "illegal": page(client, f"{url}/move/", status=400, post={"n": 0, "move": move}, **HTMX),
        "illegal, no htmx": page(client, f"{url}/move/", status=400, post={"n": 0, "move": move}),
        "malformed": page(client, f"{url}/move/", status=400, post={"n": 0, "move": "ZZ>F"}),
        "nothing to undo": page(client, f"{url}/undo/", status=400, post={"n": 0}),
        "stale": page(client, f"{url}/move/", status=409, post={"n": 5, "move": move}),
    }
    response = client.post(f"/{code}/embed/deal/{DEAL}/move/", {"n": 0, "move": first_move().text})
    assert response.status_code == 303
    embedded = Game.objects.latest("pk")
    embed = f"/{code}/embed/g/{embedded.token}"
    pages["embed"] = page(client, f"{embed}/")
    pages["embed hint"] = page(client, f"{embed}/hint/", **HTMX)
    pages["embed illegal"] = page(
        client,
        f"{embed}/move/",
        status=400,
        post={"n": embedded.move_count, "move": illegal(embedded).text},
        **HTMX,
    )
    return pages


@pytest.mark.parametrize("code", CODES)
def test_refusals_say_no_english(client: Client, code: str) -> None:
    pages = refusals(client, code)

    assert said(pages) == {}
    why = {"fr": "n\u2019est pas sur le dessus", "de": "liegt nicht obenauf"}[code]
    assert why in heard(pages["illegal"])
    assert why in heard(pages["embed illegal"])


def finished(client: Client) -> tuple[Game, Game]:
    from tests.helpers.review import LOST_BEFORE_A_REDEAL, lost_game, review_until_done, won_game

    won = won_game(client)
    lost = lost_game(client, LOST_BEFORE_A_REDEAL)
    review_until_done(client, lost)
    return won, lost


@pytest.mark.parametrize("code", CODES)
def test_a_finished_games_pages_say_no_english(client: Client, code: str) -> None:
    pre = f"/{code}"
    pages = {}
    for game in finished(client):
        pages[f"{game.status} game"] = page(client, f"{pre}/game/{game.pk}/")
        pages[f"{game.status} record"] = page(client, f"{pre}/game/{game.pk}/record/")
        pages[f"{game.status} replay"] = page(client, f"{pre}/replay/{game.replay_token}/?step=3")
        pages[f"{game.status} review"] = page(client, f"{pre}/game/{game.pk}/review/")
    pages["stats"] = page(client, f"{pre}/stats/")

    assert said(pages) == {}
    status = {"fr": ", gagnée.", "de": ", gewonnen."}[code]
    assert status in heard(pages["won record"])


@pytest.mark.parametrize("code", CODES)
def test_hint_on_a_finished_game_says_no_english(client: Client, code: str) -> None:
    pages = {
        f"{game.status} hint": page(client, f"/{code}/game/{game.pk}/hint/", **HTMX)
        for game in finished(client)
    }

    assert said(pages) == {}


def test_the_probes_are_english_the_site_says(client: Client) -> None:
    """The English pages show the probes, so their absence from a translated page means
    something."""
    game = start(client)
    shown = page(
        client,
        f"/game/{game.pk}/move/",
        status=400,
        post={"n": 0, "move": illegal(game).text},
        **HTMX,
    )
    shown += page(client, f"/game/{game.pk}/undo/", status=400, post={"n": 0})
    shown += page(client, f"/game/{game.pk}/hint/", **HTMX)

    assert len(english_left(shown)) >= 4, english_left(shown)
