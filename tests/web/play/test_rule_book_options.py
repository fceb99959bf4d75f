"""The rule books' options on the site: the app's game chosen and played over HTTP, a card that
may only go home drawn and said, the merci that waits, and the rules page's win rates."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.test import Client

from game import engine
from game.board import store
from game.models import Game
from game.play import winrates
from tests.helpers.play import post, start

pytestmark = pytest.mark.django_db


def line_to_the_merci(number: int, rules: engine.Rules) -> list[engine.Move]:
    """The first card move listed, else the redeal, until nothing but the merci is left."""
    played = engine.Play(number, rules)
    while True:
        plays = engine.card_moves(played.position)
        if plays:
            played.play(plays[0])
        elif played.position.can_redeal:
            played.play(engine.REDEAL)
        else:
            return list(played.moves)


def card_tag(html: str, code: str) -> str:
    found = re.search(rf'<(?:button|span)[^>]*data-card="{code}"[^>]*>', html)
    assert found is not None, code
    return unescape(found[0])


def test_the_new_game_form_offers_the_apps_game_in_one_choice(client: Client) -> None:
    client.get("/")
    chooser = client.get("/new/").content.decode()
    assert 'value="lucie-free-once"' in chooser

    response = client.post("/new/", {"rule_set": "lucie-free-once", "deal": "3"})

    assert response.status_code == 303
    assert Game.objects.latest("created_at").rules == "lucie-free-once"


def test_the_two_options_are_ticked_on_any_rule_set(client: Client) -> None:
    client.get("/")

    client.post("/new/", {"rule_set": "trefoil", "once": "on", "stuck": "on", "deal": "4"})

    assert Game.objects.latest("created_at").rules == "trefoil-once-stuck"
    chooser = client.get("/new/").content.decode()
    assert re.search(r'<input[^>]*name="once"[^>]*checked', chooser)
    refused = client.post("/new/", {"rule_set": "nomerci", "stuck": "on"})
    assert refused.status_code == 400
    assert b"only when stuck needs" in refused.content


def test_the_apps_game_over_http_the_mercis_card_may_then_only_go_home(client: Client) -> None:
    rules = engine.APP_RULES
    game = start(client, 1, rules.name)
    assert game.rules == "lucie-free-once"
    head = line_to_the_merci(1, rules)

    store.save(game, engine.Play(1, rules, head[:-1]))
    game.refresh_from_db()
    assert post(client, game, "move", htmx=True, move=head[-1].text).status_code == 200
    game.refresh_from_db()

    board = post(client, game, "move", htmx=True, move="*9C>5C")

    assert board.status_code == 200
    html = board.content.decode()
    nine = card_tag(html, "9C")
    assert "only-home" in nine
    assert "moved once: it may only go home" in nine
    game.refresh_from_db()
    assert game.replay().position.moved >= {engine.Card.parse("9C")}
    refused = post(client, game, "move", move="9C>TC")
    assert refused.status_code == 400
    assert "now it may only go to its foundation" in unescape(refused.content.decode())


def test_the_same_merci_under_the_free_merci_alone_leaves_the_card_free(client: Client) -> None:
    rules = engine.Rules.parse("lucie-free")
    game = start(client, 1, rules.name)

    store.save(game, engine.Play(1, rules, line_to_the_merci(1, rules)))
    game.refresh_from_db()

    html = post(client, game, "move", htmx=True, move="*9C>5C").content.decode()

    assert "only-home" not in card_tag(html, "9C")
    assert "9C>TC" in card_tag(html, "9C")


def test_under_stuck_the_merci_says_why_it_waits(client: Client) -> None:
    html = client.get("/deal/1/?rules=lucie-r0-stuck").content.decode()

    merci = re.search(r'<span class="merci[^"]*"[^>]*>', html)
    assert merci is not None
    assert "data-waits" in merci[0]
    assert "only when no other move is left" in unescape(merci[0])
    assert "The merci waits" in html
    plain = client.get("/deal/1/?rules=lucie-r0").content.decode()
    assert "data-waits" not in plain
    assert "The merci waits" not in plain


@pytest.mark.parametrize(
    ("prefix", "words"),
    [
        ("", ("How often can you win?", "Following Hint", "confidence interval")),
        ("/fr", ("Combien de fois peut-on gagner", "En suivant", "intervalle de confiance")),
        ("/de", ("Wie oft kann man gewinnen?", "Mit dem Tipp", "Konfidenzintervall")),
    ],
)
def test_the_rules_page_shows_each_presets_win_rates(
    client: Client, prefix: str, words: tuple[str, ...]
) -> None:
    data = json.loads(winrates.DATA.read_text())["rule_sets"]

    html = unescape(client.get(f"{prefix}/rules/").content.decode())

    for word in words:
        assert word in html
    table = html[html.index('class="win-rates"') :]
    for name in engine.PRESETS:
        row = data[name]
        assert f"<td>{row['deals']}" in table
    rows = re.findall(r"<tr><th scope=\"row\">.*?</tr>", table)
    assert len(rows) == len(engine.PRESETS)


def test_the_win_rates_read_what_the_benchmark_wrote(tmp_path: object) -> None:
    data = json.loads(winrates.DATA.read_text())["rule_sets"]
    rates = {rate.rules: rate for rate in winrates.win_rates()}
    assert list(rates) == list(engine.PRESETS)
    for name, rate in rates.items():
        row = data[name]
        assert rate.deals == row["deals"] >= 1
        assert rate.hint_low <= rate.hint <= rate.hint_high
        assert rate.winnable_low <= rate.winnable <= rate.winnable_high
        assert rate.undecided == row["solver"]["undecided"]


def test_the_embed_plays_the_apps_game_by_its_name(client: Client) -> None:
    response = client.get("/embed/deal/1/?rules=lucie-free-once")

    assert response.status_code == 200
    assert 'rules=lucie-free-once"' in response.content.decode()


def test_the_statistics_have_a_tab_for_the_apps_game(client: Client) -> None:
    html = client.get("/stats/").content.decode()

    assert "rules=lucie-free-once" in html
