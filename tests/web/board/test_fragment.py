"""What a change sends back: only what changed.

After a change, the fans and foundations (and the menu, and the "Show a win" dialog) that are as
they were on the board the request came from are sent as empty `hx-preserve` placeholders, which
htmx fills with the elements already on the page. The server may only do so when the request
names exactly the board the browser holds (its key, `v`, as board.js sends it); otherwise the
whole board comes back.
"""

from __future__ import annotations

import random
import re
from html import unescape

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from game import engine
from game.models import Game
from tests.helpers.play import post, start

pytestmark = pytest.mark.django_db

_KEY = re.compile(r'data-position="([^"]+)"')
_FAN = re.compile(r'<div id="fan-(\d+)"[^>]*?(?:hx-preserve></div>|>.*?</div>)', re.S)


def key_of(html: str) -> str:
    found = _KEY.search(html)
    return unescape(found[1]) if found else ""


def fans_of(html: str) -> dict[str, str]:
    return {match[1]: match[0] for match in _FAN.finditer(html)}


def board(client: Client, game: Game) -> str:
    response = client.get(f"/game/{game.pk}/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.content.decode()


def test_a_move_sends_only_the_fans_it_changed(client: Client) -> None:
    game = start(client)
    before = board(client, game)
    move = next(m for m in engine.legal_moves(engine.Position.start(5)) if m.onto is not None)
    response = post(client, game, "move", htmx=True, move=move.text, v=key_of(before), auto="0")
    assert response.status_code == 200
    html = response.content.decode()
    fans = fans_of(html)
    assert len(fans) == len(fans_of(before))
    sent = [index for index, fan in fans.items() if "hx-preserve" not in fan]
    # The fan the card left and the fan it joined (others may change too: their top card's
    # listed moves).
    assert 2 <= len(sent) < len(fans)
    # The menu's Redo, Auto-finish and Show a win are as they were: the whole menu is kept.
    assert 'id="board-menu" hx-preserve' in html
    assert 'id="show-a-win-dialog" hx-preserve' in html


@pytest.mark.parametrize("key", ["", "00000000", "not-a-key"])
def test_without_the_key_of_the_board_on_show_the_whole_board_comes_back(
    client: Client, key: str
) -> None:
    game = start(client)
    move = next(m for m in engine.legal_moves(engine.Position.start(5)) if m.onto is not None)
    response = post(client, game, "move", htmx=True, move=move.text, v=key, auto="0")
    assert response.status_code == 200
    assert "hx-preserve" not in response.content.decode()


def test_a_board_showing_a_hint_has_a_key_of_its_own(client: Client) -> None:
    """The hint marks cards: its board's key names the plain board and the marked move, so the
    next change knows which fans the browser holds marked (and sends them again)."""
    game = start(client)
    plain = key_of(board(client, game))
    response = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"})
    assert response.status_code == 200
    key = key_of(response.content.decode())
    mark = key.removeprefix(plain + ".")
    assert key != plain
    assert engine.Move.parse(mark).text == mark


@pytest.mark.parametrize(
    "key", ["{plain}.", "{plain}.XX>YY", "{plain}.ZZ.1", "{plain}." + "x" * 40]
)
def test_a_marked_key_that_names_no_move_sends_the_whole_board(client: Client, key: str) -> None:
    game = start(client)
    plain = key_of(board(client, game))
    move = next(m for m in engine.legal_moves(engine.Position.start(5)) if m.onto is not None)
    response = post(
        client, game, "move", htmx=True, move=move.text, v=key.format(plain=plain), auto="0"
    )
    assert response.status_code == 200
    assert "hx-preserve" not in response.content.decode()


def test_a_move_after_a_hint_sends_again_the_fans_the_hint_marked(client: Client) -> None:
    """Put together as htmx does, the answer to a move made from a hinted board is the board
    drawn afresh: the marked fans are never left as they were."""
    game = start(client)
    hinted = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"}).content.decode()
    mark = engine.Move.parse(key_of(hinted).partition(".")[2])
    move = next(
        m for m in engine.legal_moves(engine.Position.start(5)) if m.onto is not None and m != mark
    )
    response = post(client, game, "move", htmx=True, move=move.text, v=key_of(hinted), auto="0")
    answer = response.content.decode()
    assert "hx-preserve" in answer
    assembled = {
        index: fans_of(hinted)[index] if "hx-preserve" in fan else fan
        for index, fan in fans_of(answer).items()
    }
    game.refresh_from_db()
    assert assembled == fans_of(board(client, game))


def test_show_a_win_asked_again_sends_no_fan(client: Client) -> None:
    """A repeated "Show a win" comes from the board with the line's mark, named by its key: the
    very board it draws again, so every fan comes as a placeholder, the marked ones too."""
    game = start(client)
    first = post(
        client, game, "show-a-win", htmx=True, v=key_of(board(client, game))
    ).content.decode()
    held = board(client, game)  # the first answer as the browser put it together
    assert key_of(held) == key_of(first)
    with CaptureQueriesContext(connection) as captured:
        again = post(client, game, "show-a-win", htmx=True, v=key_of(first))
    assert again.status_code == 200
    # Nothing changed, so nothing was locked or written.
    statements = [query["sql"] for query in captured.captured_queries]
    assert not [sql for sql in statements if sql.startswith(("UPDATE", "BEGIN"))], statements
    answer = again.content.decode()
    fans = fans_of(answer)
    assert fans
    assert [index for index, fan in fans.items() if "hx-preserve" not in fan] == []
    # The line's section, with its list of moves, is the one the browser holds.
    assert '<section id="show-a-win" hx-preserve></section>' in answer
    assert '<section id="show-a-win" class="show-a-win' in held
    assembled = {
        index: fans_of(held)[index] if "hx-preserve" in fan else fan for index, fan in fans.items()
    }
    assert assembled == fans_of(board(client, game))


def test_a_refused_change_sends_the_whole_board(client: Client) -> None:
    game = start(client)
    before = board(client, game)
    response = post(client, game, "move", htmx=True, move="KS>F", v=key_of(before))
    assert response.status_code == 400
    assert "hx-preserve" not in response.content.decode()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_kept_fans_are_exactly_the_unchanged_ones_through_random_play(
    client: Client, seed: int
) -> None:
    """Put each answer together as htmx does (a placeholder takes the fan already on the page)
    and compare it with the whole board drawn afresh: always the same fans."""
    rng = random.Random(seed)
    game = start(client, 2000 + seed, "lucie-ru-kings")
    shown = board(client, game)
    for _ in range(60):
        game.refresh_from_db()
        legal = engine.legal_moves(game.replay().position)
        roll = rng.random()
        if roll < 0.2 and game.move_count:
            response = post(client, game, "undo", htmx=True, v=key_of(shown), auto="1")
        elif roll < 0.3:
            response = post(client, game, "redo", htmx=True, v=key_of(shown), auto="0")
        elif legal:
            move = rng.choice(legal)
            action = "redeal" if move.is_redeal else "move"
            response = post(
                client, game, action, htmx=True, move=move.text, v=key_of(shown), auto="0"
            )
        else:
            break
        if response.status_code != 200:
            shown = board(client, game)
            continue
        answer = response.content.decode()
        assembled = {
            index: fans_of(shown)[index] if "hx-preserve" in fan else fan
            for index, fan in fans_of(answer).items()
        }
        game.refresh_from_db()
        fresh = board(client, game)
        assert assembled == fans_of(fresh)
        assert key_of(answer) == key_of(fresh)
        shown = fresh


def test_show_a_win_from_a_keyed_board_sends_only_the_fans_its_mark_changes(
    client: Client,
) -> None:
    """The line's next move is marked as a hint is: the fans it leaves unmarked are kept, the
    dialog (whose words follow the game's "assisted" mark) is sent again, and the board with the
    mark has a key of its own. Put together as htmx does, it is the whole board drawn afresh."""
    game = start(client)
    before = board(client, game)
    response = post(client, game, "show-a-win", htmx=True, v=key_of(before))
    assert response.status_code == 200
    answer = response.content.decode()
    assert "." in key_of(answer)
    fans = fans_of(answer)
    sent = [index for index, fan in fans.items() if "hx-preserve" not in fan]
    assert 1 <= len(sent) <= 2
    assert 'id="show-a-win-dialog" hx-preserve' not in answer
    assembled = {
        index: fans_of(before)[index] if "hx-preserve" in fan else fan
        for index, fan in fans.items()
    }
    assert assembled == fans_of(board(client, game))


@pytest.mark.parametrize("keyed", [True, False])
def test_a_hint_from_a_keyed_board_sends_only_the_fans_its_mark_changes(
    client: Client, keyed: bool
) -> None:
    """A hint changes nothing but its marks: asked from the board the browser holds (its key,
    which board.js adds to the hint's GET), the fans it leaves unmarked come as placeholders,
    and put together they are the hinted board drawn afresh. Without the key, all of it."""
    game = start(client)
    before = board(client, game)
    query = {"v": key_of(before)} if keyed else {}
    response = client.get(f"/game/{game.pk}/hint/", query, headers={"HX-Request": "true"})
    assert response.status_code == 200
    answer = response.content.decode()
    fans = fans_of(answer)
    sent = [index for index, fan in fans.items() if "hx-preserve" not in fan]
    if not keyed:
        assert sent == list(fans)
        return
    assert 1 <= len(sent) <= 2
    again = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"}).content.decode()
    assembled = {
        index: fans_of(before)[index] if "hx-preserve" in fan else fan
        for index, fan in fans.items()
    }
    assert assembled == fans_of(again)


def test_a_hint_asked_again_from_the_hinted_board_keeps_every_fan(client: Client) -> None:
    """Hint pressed twice: the browser holds the hinted board itself (its marked key), which the
    second answer draws again to the last mark, so every fan comes as a placeholder; the menu and
    the message are sent as usual."""
    game = start(client)
    headers = {"HX-Request": "true"}
    hinted = client.get(f"/game/{game.pk}/hint/", headers=headers).content.decode()
    assert "." in key_of(hinted)
    response = client.get(f"/game/{game.pk}/hint/", {"v": key_of(hinted)}, headers=headers)
    assert response.status_code == 200
    again = response.content.decode()
    assert key_of(again) == key_of(hinted)
    fans = fans_of(again)
    assert fans
    assert all("hx-preserve" in fan for fan in fans.values())
    assembled = {
        index: fans_of(hinted)[index] if "hx-preserve" in fan else fan
        for index, fan in fans.items()
    }
    drawn = client.get(f"/game/{game.pk}/hint/", headers=headers).content.decode()
    assert assembled == fans_of(drawn)
    assert "Hint:" in again
