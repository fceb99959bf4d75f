"""The hint a player is shown, the same on every app server: kept in Django's cache per position.

The engine's hint stops at a deadline (`engine.hint`'s `time_limit`). Searched to its end, its
move is a pure function of the position; cut short, it is the best move found in the time this
machine had, which depends on the load. So that a player asking twice, or two players at the same
point of the same deal, get one answer whichever server they reach, the move is kept in Django's
cache under the game record's hash (as the solver's answers are, game/board/show_a_win.py): for a
day when the search finished. A cut-short move is what a loaded moment found, so it is kept only a
few seconds (long enough for a double press, or a crowd at one position, to share one search) and
never in the place of a finished search's move that another server kept meanwhile: `add`, not
`set`, so a quieter moment may search deeper and its answer is the one that stays.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from contextlib import nullcontext
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from game import engine
from game.board import words
from game.engine.hint import HINT_SECONDS, fair_hint, reason
from game.ops import limits, searches
from lucie import metrics

if TYPE_CHECKING:
    from game.engine.fair import FairMove

COMPLETE_SECONDS = 86_400
CUT_SECONDS = 5


def cache_key(record: engine.Record) -> str:
    return "hint:" + hashlib.sha256(record.text.encode()).hexdigest()


def hint_for(
    record: engine.Record,
    position: engine.Position,
    *,
    before_search: Callable[[], None] = lambda: None,
    slot_held: bool = False,
    wait: bool = True,
) -> engine.Hint | None:
    """The hint for `position` (reached by `record`), or None when no move is left.

    `before_search` is called only when the hint is not kept and must be searched: the caller's
    rate limit, which raises limits.Limited. A kept hint costs nothing, so it counts against no
    limit (a player following Hint on the daily deal finds most of them kept). `slot_held`: the
    caller already holds a compute slot (a review searching several). `wait`: whether the
    caller waits, for a hint slot and for a search slowed by the load (when false: limits.Busy at
    once when no slot is free, and after searches.BOARD_HINT_GRACE_SECONDS beyond the search's)."""
    key = cache_key(record)
    kept = cache.get(key)
    metrics.cache_lookup("hint", hit=isinstance(kept, str))
    if isinstance(kept, str):
        move = engine.Move.parse(kept)
        return engine.Hint(move, reason(position, move))
    before_search()
    # A search takes one of this process's few compute slots (limits.Busy when none is free); an
    # answer from the cache takes none, so a crowd on the daily deal's opening is never "busy".
    with (
        nullcontext() if slot_held else searches.computing(hint=True, wait=wait),
        metrics.timed(metrics.HINT_SECONDS),
    ):
        grace = searches.SEARCH_GRACE_SECONDS if wait else searches.BOARD_HINT_GRACE_SECONDS
        keep = functools.partial(_keep, key)  # also for an answer that comes after the wait
        found = searches.search(fair_hint, position, seconds=HINT_SECONDS + grace, keep=keep)
    keep(found)
    if found is None:
        return None
    return engine.Hint(found.move, reason(position, found.move))


def _keep(key: str, found: FairMove | None) -> None:
    """Keep a searched hint in the cache (nothing when no move is left)."""
    if found is None:
        return
    if found.cut:
        cache.add(key, found.move.text, CUT_SECONDS)
    else:
        cache.set(key, found.move.text, COMPLETE_SECONDS)


def ready(
    record: engine.Record,
    position: engine.Position,
    *,
    charge: Callable[[], None] = lambda: None,
) -> engine.Hint | None:
    """The hint of a board about to be shown, carried in its markup so that a press of Hint
    lights it in the frame of the press (static/js/board/press.js), whatever led to the board.

    Kept in the cache like any hint, so the press that follows (which counts it) finds it there.
    A board never waits for a hint slot, and a search is paid for by `charge`, the caller's
    budget (a page view's is the client's hint rate limit: game/board/drawn.py), so that a flood
    of boards cannot keep the searches busy; a kept hint costs nothing. When the budget is spent,
    every slot is taken or the search fails, the board goes without (None) and a press asks the
    server as before. None too when no move is left."""
    try:
        return hint_for(record, position, before_search=charge, wait=False)
    except limits.REFUSED:
        return None


# The engine's reasons (game/engine/hint.py's `reason`) are English; these are the same words
# in the page's language. The one that names a card ("it frees the Six of Clubs") is rebuilt from
# the position, so its card is named in the page's language too.
REASONS = {
    "nothing better is left in this deal": gettext_lazy("nothing better is left in this deal"),
    "the merci is best spent on it": gettext_lazy("the merci is best spent on it"),
    "it can go home": gettext_lazy("it can go home"),
    "it empties its fan": gettext_lazy("it empties its fan"),
}
FREES = "it frees the "


def reason_text(position: engine.Position, found: engine.Hint) -> str:
    """Why the hint chose its move, in the page's language (shown behind "Why?")."""
    if found.reason in REASONS:
        return str(REASONS[found.reason])
    card = found.move.card
    where = position.find(card) if card is not None else None
    if found.reason.startswith(FREES) and where is not None and where[1] > 0:
        freed = position.fans[where[0]][where[1] - 1]
        return _("it frees %(card)s") % {"card": words.the_card(freed)}
    return found.reason
