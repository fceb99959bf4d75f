"""The play views through the test client: every control, and every kind of bad request.

Each bad request must answer with a clear 4xx and leave the stored game exactly as it was.
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from game import engine
from game.models import Game
from tests.helpers.play import (
    DEAL,
    a_card_move,
    greedy_game,
    greedy_record,
    legal,
    play_through,
    post,
    snapshot,
    start,
)

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- pages


def test_home_deals_a_game_for_this_browser_and_resumes_it(client: Client) -> None:
    first = client.get("/")
    assert first.status_code == 200
    assert Game.objects.count() == 0  # nothing is stored until the first move
    number = int(re.search(rb'data-deal="(\d+)"', first.content)[1])  # type: ignore[index]
    assert 1 <= number <= 10**9
    move = engine.card_moves(engine.Play(number).position)[0]
    client.post(f"/deal/{number}/move/?rules=lucie", {"n": 0, "move": move.text})

    again = client.get("/")

    assert again.status_code == 200
    game = Game.objects.get()
    assert game.session_key == client.session.session_key
    assert (game.deal_number, game.move_count) == (number, 1)
    assert f'data-game="{game.pk}"'.encode() in again.content


def test_board_carries_the_test_hooks(client: Client) -> None:
    game = start(client)
    html = client.get(f"/game/{game.pk}/").content.decode()
    position = game.replay().position

    assert f'data-deal="{DEAL}"' in html
    assert 'data-rules="lucie"' in html
    assert 'data-status="playing"' in html
    assert 'data-moves="0"' in html
    assert 'data-redeals-left="2"' in html
    assert 'data-mercis-left="1"' in html
    for suit in "CDHS":
        assert f'data-foundation="{suit}"' in html
    assert 'aria-label="Six of Clubs"' in html
    fans = re.findall(r'data-fan="(\d+)"(.*?)</div>', html, re.S)
    assert len(fans) == 18
    for (index, body), fan in zip(fans, position.fans, strict=True):
        assert int(index) == position.fans.index(fan)
        assert re.findall(r'data-card="(\w+)"', body) == [card.code for card in fan]
    for name in ("New game", "Hint", "Undo", "Redeal", "Redo", "Auto-finish"):
        assert f">{name}" in html


def test_top_cards_carry_the_moves_the_engine_allows(client: Client) -> None:
    game = start(client)
    html = unescape(client.get("/").content.decode())
    moves = engine.card_moves(game.replay().position)

    for move in moves:
        assert move.card is not None
        listed = re.search(rf'data-card="{move.card.code}" data-moves="([^"]*)"', html)
        assert listed is not None
        assert move.text in listed[1].split()


def test_deal_page_resumes_the_same_deal(client: Client) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)

    again = start(client)

    assert again.pk == game.pk
    assert again.move_count == 1


def test_deal_page_takes_a_rule_set(client: Client) -> None:
    game = start(client, 7, rules="trefoil-r1")

    assert game.rules == "trefoil-r1"
    assert game.replay().position.cards_home == 4


def test_deal_lookup_field_redirects_to_the_deal(client: Client) -> None:
    response = client.get("/deal/", {"number": " #42 "})

    assert response.status_code == 302
    assert response["Location"] == "/deal/42/"


@pytest.mark.parametrize(
    "number", ["0", "abc", "-3", "1.5", "99999999999999999999", "9223372036854775808"]
)
def test_a_deal_number_out_of_range_or_not_a_number_is_a_clear_400(
    client: Client, number: str
) -> None:
    response = client.get(f"/deal/{number}/")
    lookup = client.get("/deal/", {"number": number})

    assert response.status_code == lookup.status_code == 400
    assert b"deal number" in response.content
    assert Game.objects.count() == 0


def test_an_unknown_rule_set_is_a_clear_400(client: Client) -> None:
    response = client.get("/deal/5/?rules=poker")

    assert response.status_code == 400
    assert b"Unknown rule set" in response.content


def test_largest_deal_number_plays(client: Client) -> None:
    game = start(client, engine.MAX_DEAL)

    assert game.deal_number == engine.MAX_DEAL


def test_another_deal_while_one_is_under_way_asks_first(client: Client) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)

    asked = client.get("/deal/9/")
    assert asked.status_code == 200
    assert b"counts as a loss" in asked.content
    assert Game.objects.count() == 1

    response = client.post("/deal/9/", {"rules": "lucie"})
    assert response.status_code == 303
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert Game.objects.latest("created_at").deal_number == 9


def test_rules_and_stats_pages(client: Client) -> None:
    rules = client.get("/rules/")
    stats = client.get("/stats/")
    stats_fragment = client.get("/stats/", headers={"HX-Request": "true"})

    assert rules.status_code == stats.status_code == 200
    assert b"worked example" in rules.content
    assert b'data-card="7H"' in rules.content
    assert b'id="keyboard"' in rules.content
    assert b'data-stat="played"' in stats.content
    assert b"<html" not in stats_fragment.content
    assert b'data-stat="win-rate"' in stats_fragment.content


# ---------------------------------------------------------------- moves


def test_a_plain_move_post_redirects_to_the_game_page(client: Client) -> None:
    game = start(client)
    move = a_card_move(game)

    response = post(client, game, "move", move=move.text)

    assert response.status_code == 303
    assert response["Location"] == f"/game/{game.pk}/?did=move&from=0"
    assert snapshot(game)[:3] == (move.text, "", 1)
    assert game.started_at is not None
    assert client.get(response["Location"]).status_code == 200


def test_an_htmx_move_gets_the_board_fragment(client: Client) -> None:
    game = start(client)

    response = post(client, game, "move", htmx=True, move=a_card_move(game).text)

    assert response.status_code == 200
    assert response.content.lstrip().startswith(b'<div id="board"')
    assert b'data-moves="1"' in response.content
    assert "HX-Request" in response["Vary"]


def test_an_illegal_move_is_a_calm_400_and_saves_nothing(client: Client) -> None:
    game = start(client)
    before = snapshot(game)
    position = game.replay().position
    buried = position.fans[0][0]

    response = post(client, game, "move", htmx=True, move=f"{buried.code}>F")

    assert response.status_code == 400
    assert b"not on top of its fan" in response.content
    assert b'id="board"' in response.content
    assert snapshot(game) == before


@pytest.mark.parametrize("text", ["", "6C", "6C>XX", "ZZ>F", "6C>7C>8C", "x" * 500])
def test_a_malformed_move_is_a_400(client: Client, text: str) -> None:
    game = start(client)
    before = snapshot(game)

    response = post(client, game, "move", move=text)

    assert response.status_code == 400
    assert b"not a move" in response.content or b"not a card" in response.content
    assert snapshot(game) == before


@pytest.mark.parametrize("front", ["site", "embed"])
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
@pytest.mark.parametrize(
    "text", ["Q" * 2_000_000, "6C>" + "Z" * 2_000_000, "KS>@" + "9" * 100_000 + "Q"]
)
def test_a_huge_malformed_move_is_quoted_once_and_cut_short(
    client: Client, text: str, htmx: bool, front: str
) -> None:
    """A 2 MB post came back as an 8 MB page quoting it four times (issue 19)."""
    headers = {"HX-Request": "true"} if htmx else {}
    if front == "site":
        game = start(client)
        response = post(client, game, "move", htmx=htmx, move=text)
    else:
        response = Client().post("/embed/deal/5/move/", {"n": "0", "move": text}, headers=headers)

    assert response.status_code == 400
    assert len(response.content) < 60_000
    page = unescape(response.content.decode())
    assert page.count(text[:20]) == 1
    assert "is not a move" in page
    assert text[:21] not in page


def test_a_move_without_its_move_count_is_a_400(client: Client) -> None:
    game = start(client)
    before = snapshot(game)
    text = a_card_move(game).text

    missing = client.post(f"/game/{game.pk}/move/", {"move": text})
    garbage = client.post(f"/game/{game.pk}/move/", {"move": text, "n": "one"})

    assert missing.status_code == garbage.status_code == 400
    assert snapshot(game) == before


def test_a_stale_move_is_refused_with_the_current_board(client: Client) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)
    before = snapshot(game)

    response = post(client, game, "move", htmx=True, move=a_card_move(game).text, n=0)

    assert response.status_code == 409
    assert b"out of date" in response.content
    assert b'data-moves="1"' in response.content
    assert snapshot(game) == before


def test_a_double_submit_is_applied_once(client: Client) -> None:
    game = start(client)
    move = a_card_move(game).text

    first = post(client, game, "move", move=move, n=0)
    second = post(client, game, "move", move=move, n=0)

    assert first.status_code == 303
    assert second.status_code == 409
    assert snapshot(game)[:3] == (move, "", 1)


def test_a_move_in_another_browsers_game_is_a_404_and_changes_nothing(client: Client) -> None:
    game = start(client)
    before = snapshot(game)
    stranger = Client()
    stranger.get("/")

    for action in ("move", "undo", "redo", "redeal", "auto"):
        response = post(stranger, game, action, move=a_card_move(game).text)
        assert response.status_code == 404
    assert stranger.get(f"/game/{game.pk}/").status_code == 404
    assert stranger.get(f"/game/{game.pk}/hint/").status_code == 404
    assert snapshot(game) == before


def test_an_unknown_game_is_a_404(client: Client) -> None:
    client.get("/")

    assert client.post("/game/99999/move/", {"move": "AS>F", "n": 0}).status_code == 404
    assert client.get("/game/99999/").status_code == 404
    assert client.get("/game/99999/hint/").status_code == 404


def test_a_game_without_a_session_is_a_404() -> None:
    anonymous = Client()
    Game.objects.create(session_key="", deal_number=5)
    game = Game.objects.get()

    assert anonymous.post(f"/game/{game.pk}/move/", {"move": "AS>F", "n": 0}).status_code == 404
    assert anonymous.get(f"/game/{game.pk}/").status_code == 404


@pytest.mark.parametrize("action", ["move", "undo", "redo", "redeal", "auto"])
def test_changes_refuse_get(client: Client, action: str) -> None:
    game = start(client)

    assert client.get(f"/game/{game.pk}/{action}/").status_code == 405


@pytest.mark.parametrize("url", ["/", "/stats/", "/rules/", "/deal/", "/healthz"])
def test_pages_refuse_post(client: Client, url: str) -> None:
    assert client.post(url).status_code == 405


def test_game_page_refuses_post_and_hint_refuses_put(client: Client) -> None:
    game = start(client)

    assert client.put(f"/game/{game.pk}/hint/").status_code == 405
    assert client.post(f"/game/{game.pk}/").status_code == 405
    assert client.put("/new/").status_code == 405


# ---------------------------------------------------------------- undo, redo, redeal, merci


def test_undo_and_redo(client: Client) -> None:
    game = start(client)
    move = a_card_move(game).text
    post(client, game, "move", move=move)

    game.refresh_from_db()
    assert post(client, game, "undo").status_code == 303
    assert snapshot(game)[:3] == ("", move, 0)

    assert post(client, game, "redo", htmx=True).status_code == 200
    assert snapshot(game)[:3] == (move, "", 1)


def test_undo_with_nothing_to_undo_is_a_400(client: Client) -> None:
    game = start(client)
    before = snapshot(game)

    undo = post(client, game, "undo")
    redo = post(client, game, "redo")

    assert undo.status_code == redo.status_code == 400
    assert b"no move to undo" in undo.content
    assert snapshot(game) == before


def fans_of(client: Client, game: Game) -> list[list[str]]:
    html = client.get(f"/game/{game.pk}/").content.decode()
    return [
        re.findall(r'data-card="(\w+)"', body)
        for body in re.findall(r'data-fan="\d+".*?>(.*?)</div>', html, re.S)
    ]


def test_undoing_a_redeal_and_taking_it_again_deals_the_same_fans(client: Client) -> None:
    game = start(client)

    post(client, game, "redeal")
    game.refresh_from_db()
    after_redeal = fans_of(client, game)
    assert game.redeals_used == 1
    post(client, game, "undo")
    game.refresh_from_db()
    post(client, game, "redeal")
    game.refresh_from_db()

    assert fans_of(client, game) == after_redeal
    assert b'data-redeals-left="1"' in client.get("/").content


def test_the_merci_draws_a_buried_card(client: Client) -> None:
    game = start(client, rules="lucie-r0")
    html = unescape(client.get("/").content.decode())
    merci = next(m for m in legal(game) if m.merci)
    assert merci.card is not None
    assert f'data-card="{merci.card.code}"' in html
    assert "*" + merci.text.lstrip("*") in html

    response = post(client, game, "move", move=merci.text)

    assert response.status_code == 303
    game.refresh_from_db()
    assert game.mercis_used == 1
    assert b'data-mercis-left="0"' in client.get("/").content


def test_auto_finish_sends_home_what_can_go(client: Client) -> None:
    game = start(client, 1)
    expected = engine.auto_finish(game.replay().position)
    assert expected

    response = post(client, game, "auto", htmx=True)

    assert response.status_code == 200
    assert snapshot(game)[0] == " ".join(m.text for m in expected)


def test_auto_finish_with_nothing_to_send_is_a_400(client: Client) -> None:
    number = next(n for n in range(1, 100) if not engine.auto_finish(engine.Position.start(n)))
    game = start(client, number)
    before = snapshot(game)

    assert post(client, game, "auto").status_code == 400
    assert snapshot(game) == before


def test_hint_marks_the_card_and_where_it_goes(client: Client) -> None:
    game = start(client)
    found = engine.hint(game.replay().position)
    assert found is not None
    assert found.move.card is not None

    page = client.get(f"/game/{game.pk}/hint/")
    fragment = client.get(f"/game/{game.pk}/hint/", headers={"HX-Request": "true"})

    assert page.status_code == fragment.status_code == 200
    html = fragment.content.decode()
    assert re.search(rf'data-card="{found.move.card.code}"[^>]*data-hint="card"', html)
    assert html.count("data-hint=") == 2
    assert "Hint:" in html
    assert snapshot(game)[2] == 0


# ---------------------------------------------------------------- tapping without JavaScript


def test_selecting_a_card_without_javascript_offers_its_moves_as_buttons(client: Client) -> None:
    game = start(client)
    move = a_card_move(game)
    assert move.card is not None

    html = unescape(client.get(f"/game/{game.pk}/", {"sel": move.card.code}).content.decode())

    assert 'aria-pressed="true"' in html
    assert f'form="move-form" name="move" value="{move.text}"' in html


def test_selecting_a_card_with_no_move_says_so(client: Client) -> None:
    game = start(client)
    position = game.replay().position
    movable = {m.card for m in legal(game) if m.card}
    still = next(card for card in position.tops if card and card not in movable)

    html = client.get(f"/game/{game.pk}/", {"sel": still.code}).content.decode()

    assert f"The {still.name} has no move just now." in html
    assert 'form="move-form" name="move"' not in html


# ---------------------------------------------------------------- the end of a game


def test_a_won_game_shows_the_win_and_refuses_more_moves(client: Client) -> None:
    game = greedy_game(client, "won")

    assert game.status == Game.Status.WON
    assert game.cards_home == 52
    assert game.finished_at is not None
    html = client.get(f"/game/{game.pk}/").content.decode()
    assert "You won!" in html
    assert 'data-status="won"' in html
    before = snapshot(game)
    assert post(client, game, "undo").status_code == 400
    assert snapshot(game) == before
    # The won game is over, so the home page deals a new one: a first board, stored by its
    # first move, not by the GET.
    home = client.get("/").content.decode()
    assert 'data-status="playing"' in home
    assert re.search(r'hx-post="/deal/\d+/move/', home) or re.search(r'"/deal/\d+/move/', home)
    assert Game.objects.count() == 1


def test_a_lost_game_offers_undo_and_undo_revives_it(client: Client) -> None:
    game = greedy_game(client, "lost")

    assert game.status == Game.Status.LOST
    html = client.get(f"/game/{game.pk}/").content.decode()
    assert "No moves left" in html
    assert 'data-status="lost"' in html

    assert post(client, game, "undo").status_code == 303
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert game.finished_at is None


def test_a_lost_game_cannot_be_revived_once_a_newer_game_is_dealt(client: Client) -> None:
    number, moves = greedy_record("lost")
    game = start(client, number)
    play_through(client, game, moves)
    newer = start(client)
    game.refresh_from_db()
    before = snapshot(game)

    response = post(client, game, "undo")

    assert response.status_code == 400
    assert b"newer one has been dealt" in response.content
    assert snapshot(game) == before
    assert Game.objects.filter(status=Game.Status.PLAYING).get() == newer


# ---------------------------------------------------------------- new game


def test_new_game_page_warns_when_a_game_is_under_way(client: Client) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)

    response = client.get("/new/", {"confirm": ""})

    assert response.status_code == 200
    assert b"counts as a loss" in response.content
    assert b'name="rule_set"' in response.content


def test_new_game_abandons_the_game_in_progress_and_remembers_the_rules(client: Client) -> None:
    game = start(client)
    post(client, game, "move", move=a_card_move(game).text)

    response = client.post(
        "/new/", {"rule_set": "trefoil", "redeals": "1", "mercis": "2", "kings": "on", "deal": "77"}
    )

    assert response.status_code == 303
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    new = Game.objects.latest("created_at")
    assert (new.deal_number, new.rules) == (77, "trefoil-r1-m2-kings")
    assert response["Location"] == f"/game/{new.pk}/"
    # Remembered: the chooser offers it again and a random deal uses it.
    chooser = client.get("/new/").content.decode()
    assert re.search(r'<input[^>]*value="trefoil"[^>]*checked', chooser)
    client.post("/new/", {"rule_set": "trefoil", "redeals": "1", "mercis": "2", "kings": "on"})
    client.get("/")
    assert Game.objects.latest("created_at").rules == "trefoil-r1-m2-kings"


def test_unlimited_redeals_drop_the_merci_unless_asked(client: Client) -> None:
    client.get("/")

    response = client.post("/new/", {"rule_set": "lucie", "redeals": "u", "mercis": ""})

    assert response.status_code == 303
    assert Game.objects.latest("created_at").rules == "lucie-ru"


def test_impossible_options_are_a_clear_400(client: Client) -> None:
    client.get("/")
    before = Game.objects.count()

    clash = client.post("/new/", {"rule_set": "lucie", "redeals": "u", "mercis": "1"})
    free = client.post("/new/", {"rule_set": "nomerci", "free_merci": "on"})
    bad_deal = client.post("/new/", {"rule_set": "lucie", "deal": "zero"})
    bad_rules = client.post("/new/", {"rule_set": "poker"})

    assert (
        clash.status_code
        == free.status_code
        == bad_deal.status_code
        == bad_rules.status_code
        == 400
    )
    assert b"unlimited redeals allow no merci" in clash.content
    assert b"free merci needs" in free.content
    assert b"is not a deal number" in bad_deal.content
    assert Game.objects.count() == before
