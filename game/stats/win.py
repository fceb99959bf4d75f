"""The win's screen: the time and moves, "new best" when it is, this browser's streak and win
rate under these rules, and a text to share for any deal (random, chosen or daily).

Read once, when the board of a won game is rendered: a win is rare and its figures are a few
aggregates (game.stats.player_stats).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Min
from django.utils.translation import ngettext

from game import engine, streaks
from game.board import words
from game.board.clock import format_ms
from game.models import Game
from game.stats import player_stats


@dataclass(frozen=True)
class WinScreen:
    time: str
    moves: int
    share: str
    new_best: bool = False
    played: int = 0
    won: int = 0
    streak: int = 0
    win_rate: str = ""
    daily: bool = False  # a daily game: `streak` is the daily streak (game.daily.player.streaks)

    @property
    def has_figures(self) -> bool:
        return self.played > 0


def share_text(game: Game, url: str) -> str:
    """One line to paste anywhere, for any deal:

    La Belle Lucie, deal #20261201: won in 4:12 and 87 moves. Play it: https://…/deal/20261201/
    """
    rules = engine.Rules.parse(game.rules)
    values = {
        "deal": game.deal_number,
        "time": format_ms(game.elapsed_ms),
        "count": game.move_count,
        "url": url,
        "rules": words.rules_label(rules),
    }
    if rules == engine.DEFAULT_RULES:
        return (
            ngettext(
                "La Belle Lucie, deal #%(deal)s: won in %(time)s and %(count)s move. "
                "Play it: %(url)s",
                "La Belle Lucie, deal #%(deal)s: won in %(time)s and %(count)s moves. "
                "Play it: %(url)s",
                game.move_count,
            )
            % values
        )
    return (
        ngettext(
            "La Belle Lucie, deal #%(deal)s (%(rules)s): won in %(time)s and %(count)s move. "
            "Play it: %(url)s",
            "La Belle Lucie, deal #%(deal)s (%(rules)s): won in %(time)s and %(count)s moves. "
            "Play it: %(url)s",
            game.move_count,
        )
        % values
    )


def for_game(game: Game, url: str) -> WinScreen:
    """The screen for a won game; with no session (the embed) it has no figures. A daily
    game's share text is the day's (game/daily/share.py, in the daily page's result box) and
    its streak the daily streak, the one number every daily page shows."""
    time = format_ms(game.elapsed_ms)
    share = "" if game.daily else share_text(game, url)
    if not game.session_key or game.assisted:
        return WinScreen(time=time, moves=game.move_count, share=share)
    stats = player_stats.for_session(game.session_key, game.rules)
    earlier = (
        player_stats.counted_games(game.session_key, game.rules)
        .filter(status=Game.Status.WON, assisted=False)
        .exclude(pk=game.pk)
        .aggregate(best=Min("elapsed_ms"))["best"]
    )
    return WinScreen(
        time=time,
        moves=game.move_count,
        share=share,
        new_best=earlier is None or game.elapsed_ms < earlier,
        played=stats.played,
        won=stats.won,
        streak=streaks.streaks(game.session_key).current if game.daily else stats.current_streak,
        win_rate=stats.win_rate,
        daily=game.daily,
    )
