"""The panels beside a finished game's board, on the site and in the embed: the win's figures and
the text to share it (game/stats/win.py), the challenge (game/challenge/panel.py) and, for a
daily entry on the site, where it ranks among the day's players (game/rank.py).

The board's answer asks for them (game.board.drawn: `Front.end_panels` names this function)
only when the game is over, so a move of a game under way never comes here, and hands them to
the template (`end`). They live outside game/board/ because
game/stats/ and game/challenge/ import the board's package.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from game import engine, rank
from game.challenge import panel as challenge_panel
from game.models import Game
from game.stats import win


def finished(request: HttpRequest, game: Game, embed: bool) -> dict[str, Any]:
    """`win`, `challenge` and `rank` for `game`'s finished board (each None when not shown)."""
    panels: dict[str, Any] = {"win": None, "challenge": None, "rank": None}
    if game.pk is None or not game.is_finished:
        return panels
    deal_url = reverse("deal", args=[game.deal_number])
    if game.status == Game.Status.WON:
        # The share names the site's own page of the deal, where anyone may play it (from the
        # site, under the game's rules).
        if not embed and engine.Rules.parse(game.rules) != engine.DEFAULT_RULES:
            deal_url += f"?rules={game.rules}"
        panels["win"] = win.for_game(game, request.build_absolute_uri(deal_url))
    if embed:
        # The link opens the site's challenge page, where the friend plays in their own
        # session; the embed itself keeps no session.
        panels["challenge"] = challenge_panel.context(request, game, sessions=False)
    else:
        panels["challenge"] = challenge_panel.context(request, game)
        if game.daily:
            panels["rank"] = rank.of_game(game)
    return panels
