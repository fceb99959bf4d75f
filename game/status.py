"""A stored game's status and what counts as a win: the one definition of each, which the
model (game.models.Game.Status), the queries (game.querysets) and every figure read.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import pgettext_lazy


class Status(models.TextChoices):
    """A stored game's status (Game.Status)."""

    # Translators: a game's status, as a record ("93 moves, won") and the admin show it.
    PLAYING = "playing", pgettext_lazy("a game's status", "Playing")
    WON = "won", pgettext_lazy("a game's status", "Won")
    LOST = "lost", pgettext_lazy("a game's status", "Lost")
    # Left in progress for another game: counts as a loss.
    ABANDONED = "abandoned", pgettext_lazy("a game's status", "Abandoned")


WIN = models.Q(status=Status.WON, assisted=False)
"""A win that counts as won: all 52 home with no "Show a win" (nor a record played on). What Won,
the win rate, the streaks and everyone's daily winners count; CLEAN_WIN is stricter."""

CLEAN_WIN = WIN & models.Q(undos=0, hints=0)
"""A clean win: won with no undo (even one taken back by redo), no hint and no "Show a win".
Game.is_clean_win says the same of one game."""


def is_clean_win(status: str, assisted: bool, undos: int, hints: int) -> bool:
    """CLEAN_WIN, of one game's columns (Game.is_clean_win, and a row read as values)."""
    return status == Status.WON and not (assisted or undos or hints)


BEST_TIME_FLOOR_MS_PER_MOVE = 250
"""The fastest a person plays, a move after another: a game whose server-clock time
(Game.wall_ms) is under this many milliseconds a move came from a script."""

PAUSE_MS = 1000
"""A pause: a turn (a change that takes the log further: a move, a redeal, a merci, a redo,
Auto-finish) that comes this long or longer after the change before it, by the server's clock
(Game.turns, Game.pauses). A person stops to look at the fans: at a redeal, before a build, when
choosing where a card goes."""

PAUSE_EVERY = 10
STEADY_FROM_TURNS = 10
"""A person's pace is uneven: from STEADY_FROM_TURNS timed turns on, a game with fewer than one
pause in every PAUSE_EVERY turns was played at a machine's steady pace (a script posting the
solver's line every 255 ms has none), whatever its mean."""


def too_fast(wall_ms: int | None, move_count: int, turns: int = 0, pauses: int = 0) -> bool:
    """Played faster than a person plays, or at a machine's steady pace: a script's game. Such a
    game is not ranked, not one of the day's winners and no best time (TOO_FAST: the one rule).

    Faster than BEST_TIME_FLOOR_MS_PER_MOVE a move on average:

    >>> too_fast(17_000, 68), too_fast(16_999, 68), too_fast(None, 68)
    (False, True, False)

    Or steady, with no pause in ten turns however slow its mean (68 turns at 255 ms):

    >>> too_fast(17_340, 68, turns=67, pauses=0), too_fast(90_000, 68, turns=67, pauses=7)
    (True, False)
    """
    if wall_ms is not None and wall_ms < move_count * BEST_TIME_FLOOR_MS_PER_MOVE:
        return True
    return turns >= STEADY_FROM_TURNS and pauses * PAUSE_EVERY < turns


TOO_FAST = models.Q(wall_ms__lt=models.F("move_count") * BEST_TIME_FLOOR_MS_PER_MOVE) | models.Q(
    turns__gte=STEADY_FROM_TURNS, turns__gt=models.F("pauses") * PAUSE_EVERY
)
"""`too_fast` as a filter of games (and of first ends: DailyRank has the same columns)."""


# How two finished results of one deal compare (the daily rank, a challenge), as one integer,
# higher better, so that a database index orders them. An honest game (no "Show a win", not
# faster than a person plays) has a key of 0 or more: a win beats a loss; wins by the server's
# clock (Game.wall_ms, which no pause shortens), then by fewer moves; losses by cards home. A
# game helped by "Show a win" has a negative key, below every honest game whatever it brought
# home, and a script's game (too_fast) lower still: neither is ranked (RANKED).
RANK_MOVES = 10_000
RANK_WALL_CAP_MS = 10**10
RANK_WIN = 1_000
RANKED = 0
"""The lowest key of a ranked game: the day's place and percentile count keys from here up."""
RANK_HELPED = -53
RANK_TOO_FAST = -100


def rank_key(
    status: str,
    assisted: bool,
    wall_ms: int | None,
    move_count: int,
    cards_home: int,
    turns: int = 0,
    pauses: int = 0,
) -> int | None:
    """A finished result's place as one integer, higher better; None for a game under way.

    >>> rank_key("won", False, 60_000, 90, 52) > rank_key("won", False, 61_000, 80, 52)
    True
    >>> rank_key("won", True, 60_000, 90, 52) < rank_key("lost", False, 60_000, 90, 0)
    True
    >>> rank_key("won", False, 1_000, 68, 52) < RANKED
    True
    """
    if status == Status.PLAYING:
        return None
    if too_fast(wall_ms, move_count, turns, pauses):
        return RANK_TOO_FAST
    home = min(cards_home, 52)
    if assisted:
        return RANK_HELPED + home
    if status == Status.WON:
        wall = min(RANK_WALL_CAP_MS if wall_ms is None else wall_ms, RANK_WALL_CAP_MS)
        moves = min(move_count, RANK_MOVES - 1)
        return RANK_WIN + (RANK_WALL_CAP_MS - wall) * RANK_MOVES + (RANK_MOVES - 1 - moves)
    return home


FIELDS = (
    "status", "assisted", "elapsed_ms", "wall_ms", "move_count", "cards_home", "redeals_used",
    "mercis_used", "undos", "hints", "strict", "turns", "pauses",
)  # fmt: skip
"""The columns a result is built from, in game.result's `Result.build` order: a Game's, and a
DailyRank's (a counted daily game's first end) under the same names. Here, beside the statuses,
so that the tally (game/tally.py), which the change that ends a game calls, needs nothing above
the models."""

RANK_FIELDS = ("status", "assisted", "wall_ms", "move_count", "cards_home", "turns", "pauses")
"""The columns `rank_key` reads, in its order."""
