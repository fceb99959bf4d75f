"""The app's game (`lucie-free-once`) in real Chromium: the free merci's card, once laid on a
fan, is drawn apart, says so, and tapping it lights only its foundation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from game import engine
from game.board import store
from game.models import Game
from tests.helpers.browser import TARGET, board, destination, fan_card, open_dealt, tap

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_apps_merci_card_may_then_only_go_home(
    page: Page, live_server: LiveServer, errors: list[str]
) -> None:
    rules = engine.APP_RULES
    played = engine.Play(3, rules)
    while moves := engine.card_moves(played.position) or (
        [engine.REDEAL] if played.position.can_redeal else []
    ):
        played.play(moves[0])
    line = list(played.moves)
    url = f"{live_server.url}/deal/3/?rules={rules.name}"
    open_dealt(page, url)
    game = Game.objects.latest("created_at")
    assert game.rules == rules.name
    store.save(game, engine.Play(3, rules, line[:-2]))
    page.goto(url)

    for count, move in enumerate(line[-2:], start=len(line) - 1):
        tap(page, move, count)
    tap(page, engine.Move.parse("*3S>8H"), len(line) + 1)

    three = fan_card(page, engine.Card.parse("3S"))
    expect(three).to_have_class(re.compile(r"\bonly-home\b"))
    expect(three).to_have_attribute("aria-label", re.compile("may only go home"))
    three.click()
    expect(destination(page, engine.Move.parse("3S>F"))).to_have_class(TARGET)
    expect(fan_card(page, engine.Card.parse("4S"))).not_to_have_class(TARGET)
    expect(board(page).locator(".is-target")).to_have_count(1)
    assert errors == []
