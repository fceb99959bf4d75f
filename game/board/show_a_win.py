"""'Show a win': the solver's answer for a game's position, cached, and the line the player steps
through on the board.

The search is bounded (`TIME_LIMIT`, `NODE_CAP`) so that a request answers within about two
seconds, and its answer is cached per position (the game's rules, deal and moves): asking again,
or another player reaching the same record, gets it at once. The cache keeps only the verdict and
the line as move texts, which any server can replay through the engine. When a request's search
cannot decide, a job searches on from the same position far longer (game/board/show_a_win_job.py)
and keeps its verdict in the same entry, and the answer on show says how that search on stands
(`search_on`).

The line being shown lives in the session: the moves the game had when the player asked (its
`base`), the verdict and the line. The game is on the line while its moves are the base followed by
the first few moves of the line; once it leaves (the player plays something else, or undoes past
the base) the line is dropped, and "Show a win" may be asked again.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import cache
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from game import engine
from game.board import words
from game.engine import solver
from game.models import Game
from game.ops import searches
from lucie import metrics

Verdict = solver.Verdict

TIME_LIMIT = 2.0
"""Seconds the solver may search in a request before it says it could not decide in time."""

NODE_CAP = 3_000_000
"""Search nodes, as a second bound that does not depend on the machine's speed."""

CACHE_SECONDS = {"won": 30 * 86400, "lost": 30 * 86400, "undecided": 5}
"""A proof holds forever (the engine's rules are versioned with the deal shuffle). "Undecided"
says only that this search ran out of time, which the load of the moment decides: it is kept a
few seconds (a double press, a crowd asking at once, share one search) so that a later, quieter
moment may settle it, and it never replaces a proof (`add`: another server may have stored one
while this search ran). It is kept with the time its search had (`searched`): a search with a
larger budget (a job's) is not answered by it, and replaces it with its own."""

JOB_NODES = 50_000_000
"""A job's search (a review's solve, Show a win's search on) is bounded by its CPU seconds; this
cap only keeps its memory in bounds."""

# The names Show a win's state is stored under, kept from before it had one name: the cache's
# entries (a proof is kept 30 days) and the sessions' line on show would be dropped at a deploy if
# they changed, and a player would see a line vanish.
CACHE_PREFIX = "peek:"
SESSION_KEY = "winning_line"
_SESSION_SEARCH_ON = "further"


@dataclass(frozen=True)
class Answer:
    """The solver's verdict for a position and, when won, the line from it as move texts. An
    undecided one says how the search on from it stands (`search_on`,
    game/board/show_a_win_job.py): "" (none was asked), "working", "refused" (the queue could not
    take it), "failed" (it failed on every try) or "exhausted" (it spent its whole budget and
    could not decide either)."""

    status: Verdict
    line: tuple[str, ...] = ()
    search_on: str = ""


@dataclass(frozen=True)
class Kept:
    """A position's cache entry: its answer, and the seconds the search that found it had."""

    answer: Answer
    searched: float


@dataclass(frozen=True)
class OnShow:
    """Show a win as it stands beside a game's board: the verdict, its line, how far along the
    line the game is (`step` moves), and how the search on stands."""

    status: Verdict
    line: tuple[str, ...]
    step: int
    search_on: str = ""

    @property
    def waiting(self) -> bool:
        """Undecided so far, while the search on goes on: the panel follows it by itself."""
        return self.status == "undecided" and self.search_on == "working"

    @property
    def next_move(self) -> engine.Move | None:
        return engine.Move.parse(self.line[self.step]) if self.step < len(self.line) else None

    @property
    def left(self) -> int:
        return len(self.line) - self.step

    @property
    def steps_html(self) -> SafeString:
        """The line's moves as the list's items (`<li class="done">…</li>` for those played, the
        next one marked as the current step): built here rather than by a template loop, which
        cost a cached "Show a win" more than the rest of its answer for a line of a hundred
        moves, and each item remembered per process (a line is drawn again on every step along
        it, and the daily deal's lines are shared by everyone who reaches them)."""
        marks = ["done"] * self.step + ["next"] + [""] * len(self.line)
        language = get_language()
        return SafeString(
            "".join(
                _step_item(text, mark, language)
                for text, mark in zip(self.line, marks, strict=False)
            )
        )


@functools.lru_cache(maxsize=4096)
def _step_text(text: str, language: str) -> str:
    """A line's move as its list says it, in `language` (the page's): worked out once per
    process, as the list of a line of a hundred moves is drawn again on every step along it."""
    return words.capfirst(words.describe(engine.Move.parse(text)))


_ITEMS = {
    "next": '<li class="next" aria-current="step">{}</li>',
    "done": '<li class="done">{}</li>',
    "": "<li>{}</li>",
}


@functools.lru_cache(maxsize=8192)
def _step_item(text: str, mark: str, language: str) -> str:
    """One item of the line's list: the move `text` said in `language`, marked `mark`."""
    return str(format_html(_ITEMS[mark], _step_text(text, language)))


def cache_key(record: engine.Record) -> str:
    """The position's name in the cache: the record (rules, deal, moves) hashed."""
    return CACHE_PREFIX + hashlib.sha256(record.text.encode()).hexdigest()


def cached(record: engine.Record) -> Kept | None:
    """What the cache holds for the position `record` reaches, if anything."""
    return _read(cache.get(cache_key(record)))


def _read(value: Any) -> Kept | None:
    if not isinstance(value, dict) or value.get("status") not in CACHE_SECONDS:
        return None
    found = Answer(value["status"], tuple(value.get("line", ())))
    searched = value.get("searched", 0.0)
    return Kept(found, float(searched) if isinstance(searched, int | float) else 0.0)


def answer(
    record: engine.Record,
    position: engine.Position,
    *,
    time_limit: float | None = None,
    max_nodes: int | None = None,
    undecided_seconds: int = CACHE_SECONDS["undecided"],
) -> Answer:
    """The verdict for `position` (reached by `record`): from the cache, or searched and kept.
    A job (a review, the search on) passes a budget of its own, far larger than a request's, and
    how long an undecided answer of its search is kept (`undecided_seconds`)."""
    key = cache_key(record)
    budget = TIME_LIMIT if time_limit is None else time_limit
    known = _read(cache.get(key))
    # An undecided answer stands only for a search at most as long as the one that found it.
    hit = known is not None and (known.answer.status != "undecided" or known.searched >= budget)
    metrics.cache_lookup("solver", hit)
    if known is not None and hit:
        return known.answer
    with metrics.timed(metrics.SOLVER_SECONDS):
        # In a compute process (the caller holds a compute slot: searches.computing), or in a
        # job's worker itself.
        found = searches.search(
            solver.solve,
            position,
            max_nodes=NODE_CAP if max_nodes is None else max_nodes,
            time_limit=budget,
            seconds=budget + searches.SEARCH_GRACE_SECONDS,
        )
    result = Answer(found.status, tuple(move.text for move in found.moves))
    _keep(key, result, budget, undecided_seconds)
    return result


def _keep(key: str, found: Answer, searched: float, undecided_seconds: int) -> None:
    """Keep `found`: a proof for good; an undecided answer for `undecided_seconds`, never in
    place of a proof or of a longer search's undecided one kept meanwhile (by another server, or
    a job)."""
    value: dict[str, Any] = {"status": found.status, "line": list(found.line)}
    if found.status != "undecided":
        cache.set(key, value, CACHE_SECONDS[found.status])
        return
    value["searched"] = searched
    if cache.add(key, value, undecided_seconds):
        return
    there = _read(cache.get(key))
    if there is None or (there.answer.status == "undecided" and there.searched < searched):
        cache.set(key, value, undecided_seconds)


def remember(session: SessionBase, game: Game, found: Answer) -> None:
    """Show `found` for `game` from its moves as they are now (one game at a time)."""
    kept: dict[str, Any] = {
        "game": game.pk,
        "base": game.moves,
        "status": found.status,
        "line": list(found.line),
    }
    if found.search_on:
        kept[_SESSION_SEARCH_ON] = found.search_on
    # Asked again on the same position: the session holds it already, and is not written again.
    if session.get(SESSION_KEY) != kept:
        session[SESSION_KEY] = kept


def shown(session: SessionBase, game: Game) -> OnShow | None:
    """The verdict to show beside `game`'s board, or None; a line the game has left is dropped.
    Only an assisted game can have one (asking marks it)."""
    if not game.assisted:
        return None
    kept: Any = session.get(SESSION_KEY)
    if not isinstance(kept, dict) or kept.get("game") != game.pk:
        return None
    line = tuple(kept.get("line", ()))
    step = _step(game.moves, str(kept.get("base", "")), line)
    if step is None:
        del session[SESSION_KEY]
        return None
    return OnShow(kept["status"], line, step, str(kept.get(_SESSION_SEARCH_ON, "")))


def _step(moves: str, base: str, line: tuple[str, ...]) -> int | None:
    """How many moves of `line` follow `base` in `moves`, or None when `moves` is off the line."""
    played, before = moves.split(), base.split()
    if played[: len(before)] != before:
        return None
    after = played[len(before) :]
    if len(after) > len(line) or list(line[: len(after)]) != after:
        return None
    return len(after)


# ---------------------------------------------------------------- playing along the line


def moves_left(session: SessionBase, game: Game, *, to_the_end: bool = False) -> list[engine.Move]:
    """The next move of the line on show for `game` (or with `to_the_end`, every move left in
    it); IllegalMoveError when there is none."""
    now = shown(session, game)
    if now is None or now.status != "won":
        raise engine.IllegalMoveError(_("there is no winning line on show: ask “Show a win” again"))
    if now.next_move is None:
        raise engine.IllegalMoveError(_("the winning line is played out"))
    line = now.line[now.step :] if to_the_end else now.line[now.step : now.step + 1]
    return [engine.Move.parse(text) for text in line]
