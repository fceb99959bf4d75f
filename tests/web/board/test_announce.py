"""The live region: one sentence after every change, through htmx (an out-of-band swap of the
page's one `#announce`) and without JavaScript (the page the post redirects to says the same).

Moves are worked out with the engine here and posted as a player's board would post them.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.core.cache import cache
from django.test import Client

from game import engine
from game.board import hints, words
from game.models import Game
from game.ops import limits, searches
from tests.helpers.board import a_move, greedy_game, set_moves
from tests.helpers.play import DEAL, legal, post, start
from tests.helpers.slots import every_slot_held

pytestmark = pytest.mark.django_db

REGION = re.compile(rb'<div id="announce"([^>]*)>(.*?)</div>', re.S)


def said(content: bytes, *, oob: bool) -> str:
    """The one live region's text in a response; `oob` says it must come as an htmx out-of-band
    swap of its contents (a board fragment) or as the page's own (a full page)."""
    regions = REGION.findall(content)
    assert len(regions) == 1, regions
    attributes, text = regions[0]
    assert b'role="status"' in attributes
    assert b'aria-live="polite"' in attributes
    assert (b'hx-swap-oob="innerHTML"' in attributes) is oob
    return unescape(text.decode()).strip()


def act(client: Client, game: Game, action: str, **data: object) -> str:
    response = post(client, game, action, htmx=True, **data)
    assert response.status_code == 200, response.content[-500:]
    game.refresh_from_db()
    return said(response.content, oob=True)


def fan_of(game: Game, card: engine.Card) -> int:
    where = game.replay().position.find(card)
    assert where is not None
    return where[0] + 1


# ---------------------------------------------------------------- each kind of change


def test_a_build_names_the_card_its_place_and_both_fans(client: Client) -> None:
    game = start(client)
    move = a_move(game, "build")
    assert move.card is not None
    assert move.onto is not None
    source, target = fan_of(game, move.card), fan_of(game, move.onto)
    after = game.replay().position
    after = engine.apply(after, move)
    rest = after.fans[source - 1]
    source_end = f"fan {source} with the {rest[-1].name}" if rest else f"fan {source} is empty"

    text = act(client, game, "move", move=move.text)

    assert text == (
        f"{move.card.name} onto the {move.onto.name}. "
        f"Fan {target} now ends with the {move.card.name}; {source_end}."
    )


def test_a_card_sent_home_and_what_its_fan_shows_now(client: Client) -> None:
    game = start(client)
    move = a_move(game, "home")
    assert move.card is not None
    source = fan_of(game, move.card)

    text = act(client, game, "move", move=move.text)

    assert text.startswith(f"{move.card.name} to its foundation. Fan {source} ")
    assert re.search(rf"Fan {source} (now ends with the [A-Z]\w+ of \w+|is empty)\.$", text)


def test_a_redeal_counts_the_deals_cards_and_fans(client: Client) -> None:
    game = start(client)

    text = act(client, game, "redeal")

    position = game.replay().position
    cards = sum(len(fan) for fan in position.fans)
    fans = sum(1 for fan in position.fans if fan)
    assert text == f"Redeal 1 of 2: {cards} cards in {fans} fans."
    text = act(client, game, "redeal")
    assert text.startswith("Redeal 2 of 2: ")
    assert text.endswith("This is the last deal: the merci is open.")


def test_undo_and_redo_say_what_they_took_back_and_played_again(client: Client) -> None:
    game = start(client)
    move = a_move(game, "build")
    assert move.card is not None
    assert move.onto is not None
    source = fan_of(game, move.card)
    played = act(client, game, "move", move=move.text)

    undone = act(client, game, "undo")
    assert undone == (
        f"Undone: {move.card.name} onto the {move.onto.name}. "
        f"The {move.card.name} is back on fan {source}."
    )
    assert act(client, game, "redo") == f"Redo: {played}"

    act(client, game, "undo")
    act(client, game, "redeal")
    assert act(client, game, "undo").startswith("Undone: the redeal. Back in deal 1 of 3: ")


def test_auto_moves_after_a_move_are_told_after_it(client: Client) -> None:
    """After a move, the auto-move setting's cards home are named in the same sentence, and undo
    takes them back with it."""
    game = start(client)
    position = game.replay().position
    move = next(
        m
        for m in engine.card_moves(position)
        if engine.auto_finish(engine.apply(position, m)) and not m.to_foundation
    )
    assert move.card is not None
    home = engine.auto_finish(engine.apply(position, move))

    text = act(client, game, "move", move=move.text, auto="1")

    assert text.startswith(f"{move.card.name} onto the ")
    count = f"{len(home)} card{'s' if len(home) > 1 else ''} home"
    assert f" Then automatically {count}: " in text
    assert game.move_count == 1 + len(home)
    assert act(client, game, "undo").startswith(f"Undone: {move.card.name} onto the ")


def test_auto_finish_says_how_many_cards_went_home(client: Client) -> None:
    game = start(client)
    home = engine.auto_finish(game.replay().position)
    assert home

    text = act(client, game, "auto")

    assert text.startswith(f"Auto-finish: {len(home)} card")
    if len(home) <= words.NAMED_AT_MOST:
        for move in home:
            assert move.card is not None
            assert move.card.name in text


def test_a_hint_names_the_card_where_it_goes_and_its_fan(client: Client) -> None:
    game = start(client)
    found = engine.hint(game.replay().position)
    assert found is not None
    assert found.move.card is not None

    response = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"})

    text = said(response.content, oob=True)
    assert text.startswith(f"Hint: {found.move.card.name} ")
    assert text.endswith(f", from fan {fan_of(game, found.move.card)}.")


def test_the_merci_says_where_the_card_came_from(client: Client) -> None:
    game = start(client, 5, "lucie-r0")
    merci = next(m for m in legal(game) if m.merci)
    assert merci.card is not None
    fan = fan_of(game, merci.card)

    text = act(client, game, "move", move=merci.text)

    assert text.startswith(f"Merci: the {merci.card.name}, drawn from under fan {fan}, ")


def test_the_winning_move_says_the_game_is_won(client: Client) -> None:
    number, moves, _ = greedy_game("lucie")
    game = start(client, number)
    set_moves(game, moves[:-1])

    text = act(client, game, "move", move=moves[-1].text)

    assert text.endswith("All 52 cards are home: you won!")


def test_the_last_possible_move_says_the_game_is_lost(client: Client) -> None:
    number, moves, _ = greedy_game("nomerci-r0")
    game = start(client, number, "nomerci-r0")
    set_moves(game, moves[:-1])

    text = act(client, game, "move", move=moves[-1].text)

    home = engine.Play(number, engine.Rules.parse("nomerci-r0"), moves).position.cards_home
    assert text.endswith(
        f"No move, redeal or merci is left: the game is over with {home} of 52 cards home. "
        "Undo to try another way."
    )


# ---------------------------------------------------------------- refusals


def test_a_stale_board_is_announced(client: Client) -> None:
    game = start(client)
    act(client, game, "redeal")

    response = post(client, game, "undo", htmx=True, n=0)

    assert response.status_code == 409
    assert said(response.content, oob=True).startswith("That board was out of date")


@pytest.mark.parametrize("htmx", [False, True])
def test_an_illegal_move_is_announced(client: Client, htmx: bool) -> None:
    game = start(client)
    buried = game.replay().position.fans[0][0]

    response = post(client, game, "move", htmx=htmx, move=f"{buried.code}>F")

    assert response.status_code == 400
    assert "only top cards move" in said(response.content, oob=htmx)


def test_show_a_win_announces_its_verdict_and_next_move(client: Client) -> None:
    game = start(client)

    text = act(client, game, "show-a-win")

    found = re.fullmatch(r"This game can still be won from here, in \d+ moves\. Next: (.+)\.", text)
    assert found is not None, text
    step = act(client, game, "show-a-win/next")
    if found[1] == "redeal":
        assert step.startswith("Redeal 1 of 2: ")
    else:
        card = found[1].removeprefix("the ").split(" onto ")[0].split(" to its ")[0]
        assert step.startswith(f"{card} "), (text, step)


def test_a_busy_site_is_announced(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    game = start(client)
    cache.delete(hints.cache_key(game.record))  # the page came with its hint (hints.ready)
    monkeypatch.setattr(searches, "HINT_WAIT_SECONDS", 0.05)
    with every_slot_held(searches._hint_slots):
        response = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"})

    assert response.status_code == 503
    assert said(response.content, oob=True) == limits.BUSY_MESSAGE


# ---------------------------------------------------------------- without JavaScript


def test_without_javascript_the_page_after_the_post_says_the_same(client: Client) -> None:
    with_htmx = start(client)
    move = a_move(with_htmx, "build")
    expected = act(client, with_htmx, "move", move=move.text)
    other = Client()
    game = start(other)

    response = post(other, game, "move", move=move.text)

    assert response.status_code == 303
    assert response["Location"] == f"/game/{game.pk}/?did=move&from=0"
    page = other.get(response["Location"])
    assert said(page.content, oob=False) == expected
    undone = post(other, game, "undo", n=1)
    assert undone["Location"] == f"/game/{game.pk}/?did=undo&from=1"
    assert said(other.get(undone["Location"]).content, oob=False).startswith("Undone: ")


@pytest.mark.parametrize("query", ["?did=move&from=99", "?did=nonsense&from=0", "?did=move&from=x"])
def test_odd_announcement_fields_say_nothing(client: Client, query: str) -> None:
    game = start(client)
    act(client, game, "move", move=a_move(game, "build").text)

    response = client.get(f"/game/{game.pk}/{query}")

    assert response.status_code == 200
    assert said(response.content, oob=False) == ""


def test_a_picked_card_without_javascript_says_where_it_may_go(client: Client) -> None:
    game = start(client)
    move = a_move(game, "home")
    assert move.card is not None
    places = [m for m in legal(game) if m.card == move.card]

    response = client.get(f"/game/{game.pk}/?sel={move.card.code}")

    text = said(response.content, oob=False)
    assert text.startswith(f"{move.card.name} from fan {fan_of(game, move.card)} picked up: ")
    assert "to its foundation" in text
    assert len(places) == 1 or " or " in text


def test_a_plain_page_view_announces_nothing(client: Client) -> None:
    response = client.get(f"/deal/{DEAL}/")

    assert said(response.content, oob=False) == ""


# ---------------------------------------------------------------- the embed


def test_the_embed_announces_through_the_same_region(client: Client) -> None:
    page = client.get(f"/embed/deal/{DEAL}/")
    assert said(page.content, oob=False) == ""
    position = engine.Play(DEAL).position
    move = next(m for m in engine.card_moves(position) if m.onto is not None)
    assert move.card is not None

    response = client.post(
        f"/embed/deal/{DEAL}/move/", {"n": 0, "move": move.text}, headers={"HX-Request": "true"}
    )

    assert response.status_code == 200
    assert said(response.content, oob=True).startswith(f"{move.card.name} onto the ")
    plain = Client().post(f"/embed/deal/{DEAL}/move/", {"n": 0, "move": move.text})
    assert plain.status_code == 303
    assert plain["Location"].endswith("/?did=move&from=0")
    assert said(Client().get(plain["Location"]).content, oob=False) == said(
        response.content, oob=True
    )


# ---------------------------------------------------------------- replays, the calendar, rules


def test_each_replay_step_is_announced(client: Client) -> None:
    number, moves, _ = greedy_game("nomerci-r0")
    game = start(client, number, "nomerci-r0")
    set_moves(game, moves)
    game.refresh_from_db()
    assert game.status == Game.Status.LOST
    url = f"/replay/{game.replay_token}/"

    first = said(client.get(url).content, oob=False)
    step = said(client.get(f"{url}?step=1", headers={"HX-Request": "true"}).content, oob=True)

    assert first == "The deal as it was dealt: 52 cards in 18 fans."
    card = moves[0].card
    assert card is not None
    assert step.startswith(f"Move 1 of {len(moves)}: {card.name} ")


def test_the_calendar_names_its_rows_and_columns(client: Client) -> None:
    page = client.get("/daily/2026/11/").content.decode()

    assert page.count('<th scope="col">') >= 7
    assert '<th scope="row" class="visually-hidden">Week of 1 November</th>' in page
    assert '<th scope="row" class="visually-hidden">Week of 2 November</th>' in page


def test_the_rules_page_explains_playing_with_a_screen_reader(client: Client) -> None:
    page = client.get("/rules/").content.decode()

    assert '<h2 id="screen-reader">Playing with a screen reader</h2>' in page


def test_a_lost_verdict_says_no_win_is_possible_before_the_last_deal_too() -> None:
    # The solver's "lost" is a proof in every deal (it also holds cards back from the
    # foundations to change the next shuffle), so the words do not hedge before the last deal.
    start = engine.Position.start(1)
    assert not start.is_last_deal
    assert words.show_a_win_verdict("lost", 0, None, start) == "No win is possible from here."
    assert words.show_a_win_verdict("undecided", 0, None, start).startswith("Could not decide")
