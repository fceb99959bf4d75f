"""The hint a player is shown, the same on every app server: kept in Django's cache per position.

The engine's hint stops at a deadline (`engine.hint`'s `time_limit`). Searched to its end, its
move is a pure function of the position; cut short, it is the best move found in the time this
machine had, which depends on the load. So that a player asking twice, or two players at the same
point of the same deal, get one answer whichever server they reach, the move is kept in Django's
cache under the game record's hash (as the solver's answers are, game/board/winning_line.py): for a
day when
the search finished, for a few minutes when it was cut short, so that a quieter moment may search
deeper.
"""

from __future__ import annotations

import hashlib
from contextlib import nullcontext

from django.core.cache import cache

from game import engine, limits
from game.engine.hint import fair_hint, reason
from lucie import metrics

COMPLETE_SECONDS = 86_400
CUT_SECONDS = 300


def cache_key(record: engine.Record) -> str:
    return "hint:" + hashlib.sha256(record.text.encode()).hexdigest()


def hint_for(
    record: engine.Record, position: engine.Position, *, slot_held: bool = False
) -> engine.Hint | None:
    """The hint for `position` (reached by `record`), or None when no move is left.
    `slot_held`: the caller already holds a compute slot (a review searching several)."""
    key = cache_key(record)
    kept = cache.get(key)
    metrics.cache_lookup("hint", hit=isinstance(kept, str))
    if isinstance(kept, str):
        move = engine.Move.parse(kept)
        return engine.Hint(move, reason(position, move))
    # A search takes one of this process's few compute slots (limits.Busy when none is free); an
    # answer from the cache takes none, so a crowd on the daily deal's opening is never "busy".
    with nullcontext() if slot_held else limits.computing(), metrics.timed(metrics.HINT_SECONDS):
        found = limits.search(fair_hint, position)
    if found is None:
        return None
    cache.set(key, found.move.text, CUT_SECONDS if found.cut else COMPLETE_SECONDS)
    return engine.Hint(found.move, reason(position, found.move))
