"""The two front ends are data (game.board.fronts.Front): every URL a board's controls name is
the URL Django's resolver gives for that control, on the site and in the embed, for a stored game
and for a deal's first board, in each language."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from game import deals, engine
from game.board import fronts
from game.board.fronts import CHANGES, EMBED, SITE, board_urls, first_board
from game.models import Game

pytestmark = pytest.mark.django_db

NOMERCI = engine.PRESETS["nomerci"]


@pytest.mark.parametrize("language", ["en", "fr", "de"])
def test_a_stored_games_urls_are_the_resolvers(language: str) -> None:
    with translation.override(language):
        site = board_urls(SITE, Game(pk=42, deal_number=7, token="abc"))
        assert site["page"] == reverse("game", args=[42])
        assert site["new"] == reverse("new")
        for field, name in (
            ("hint", "hint"),
            ("show_a_win", "show_a_win"),
            ("clock", "game_clock"),
        ):
            assert site[field] == reverse(name, args=[42])
        assert site["record"] == reverse("record", args=[42])
        for change in CHANGES:
            assert site[change] == reverse(change, args=[42])
        embed = board_urls(EMBED, Game(pk=42, deal_number=7, token="abc", rules="nomerci"))
        assert embed["page"] == reverse("embed:game", args=["abc"])
        assert embed["hint"] == reverse("embed:game_hint", args=["abc"])
        assert embed["clock"] == reverse("embed:game_clock", args=["abc"])
        assert embed["another"] == reverse("embed:another") + "?rules=nomerci"
        assert embed["site"] == reverse("home")
        assert embed["rules"] == ""
        for change in CHANGES:
            assert embed[change] == reverse(f"embed:game_{change}", args=["abc"])


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("rules", [engine.DEFAULT_RULES, NOMERCI])
def test_a_first_boards_urls_are_the_resolvers(language: str, rules: engine.Rules) -> None:
    with translation.override(language):
        site = board_urls(SITE, first_board(7, rules))
        query = f"?rules={rules.name}"
        assert site["page"] == reverse("deal", args=[7])
        assert site["hint"] == reverse("deal_hint", args=[7]) + query
        assert site["show_a_win"] == reverse("deal_show_a_win", args=[7]) + query
        assert (site["rules"], site["daily"]) == (rules.name, "")
        for change in CHANGES:
            assert site[change] == reverse(f"deal_{change}", args=[7]) + query
        embed = board_urls(EMBED, Game(deal_number=7, rules=rules.name, token=""))
        query = "" if rules == engine.DEFAULT_RULES else query
        assert embed["page"] == reverse("embed:deal", args=[7])
        assert embed["hint"] == reverse("embed:deal_hint", args=[7]) + query
        assert embed["rules"] == ("" if not query else rules.name)
        for change in CHANGES:
            assert embed[change] == reverse(f"embed:deal_{change}", args=[7]) + query


def test_a_daily_first_boards_page_is_the_daily_page() -> None:
    number = deals.todays_deal_number()
    daily = first_board(number, engine.Rules.parse(deals.DAILY_RULES), daily=True)
    urls = board_urls(SITE, daily)
    assert urls["page"] == reverse("daily")
    assert urls["daily"] == "1"
    assert urls["move"] == reverse("deal_move", args=[number]) + f"?rules={daily.rules}&daily=1"


def test_a_front_end_is_data() -> None:
    # No method of its own: what a front end does differently is in its fields.
    methods = {name for name in vars(fronts.Front) if callable(getattr(fronts.Front, name))}
    assert not {name for name in methods if not name.startswith("__")}
