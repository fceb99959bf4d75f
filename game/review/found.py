"""What a finished game's review has found, kept with the game (models.GameReview), and the
bounded piece of work each request adds to it.

A lost game's review has three parts, done in order:
1. where it slipped away: game.engine.review.Slip, a binary search along the record, one solve
   at a time (each through show_a_win.answer, so a position solved for "Show a win" or for
   another review is not solved again);
2. at that position, the fair hint's move, and whether it keeps the win (one more solve): the
   "fair or foresight" verdict;
3. the moments where the player and the fair hint disagreed (up to three, in the order they
   happened), one hint per position along the record.

The search runs as a job (game/review/review_job.py), on a worker and not in a request: the page
asks for it with a POST (`start` makes the row) and polls; a GET only reads (`kept`). A job's budget
is CPU seconds (settings.REVIEW_CPU_SECONDS, each solve REVIEW_SOLVE_CPU_SECONDS), read on the
worker's own CPU clock, so a loaded machine slows a review down but does not make it give up. What
it finds is saved after each step, so the page shows the review filling in, and a review whose
budget runs out says where it stands (`gave_up`): the stretch of moves in which the win was lost. A
won game's review needs no search."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from django.db import IntegrityError, transaction
from django.utils.translation import gettext

from game import engine
from game.board import hints, show_a_win
from game.engine.review import Slip, State, disagrees
from game.models import Game, GameReview
from game.ops import leases, searches

MAX_MOMENTS = 3

# The search's state, or "failed": its job failed on every try.
ReviewState = State | Literal["failed"]

SOLVE_NODES = show_a_win.JOB_NODES
"""A job's solve is bounded by its CPU seconds; this cap only keeps its memory in bounds."""


class ReviewError(ValueError):
    """A review that cannot be made, with the message to show."""


@dataclass(frozen=True)
class Moment:
    index: int  # moves played before it
    played: str
    hinted: str


@dataclass
class Progress:
    """The review's state as kept in GameReview.found."""

    slip: Slip
    hint: str | None = None  # the fair hint's move where the win slipped away
    hint_keeps: str = ""  # the solver's verdict after the hint's move: won, lost, undecided
    hint_checked: bool = False
    scanned: int = 0  # positions compared with the fair hint so far
    moments: tuple[Moment, ...] = ()
    # Kept for rows written before jobs held leases (game/ops/leases.py), which now say both.
    failed: bool = False
    asked: str = ""

    @classmethod
    def begin(cls, game: Game) -> Progress:
        if game.status == Game.Status.WON:
            return cls(Slip(moves=game.move_count, low=game.move_count - 1, high=game.move_count))
        return cls(Slip.begin(game.move_count))

    @classmethod
    def load(cls, found: dict[str, Any], game: Game) -> Progress:
        try:
            slip = Slip(**{**found["slip"], "line": tuple(found["slip"]["line"])})
            moments = tuple(Moment(**moment) for moment in found.get("moments", ()))
            return cls(
                slip,
                found.get("hint"),
                str(found.get("hint_keeps", "")),
                bool(found.get("hint_checked")),
                int(found.get("scanned", 0)),
                moments[:MAX_MOMENTS],
                bool(found.get("failed", False)),
                str(found.get("asked", "")),
            )
        except (KeyError, TypeError, ValueError):
            return cls.begin(game)

    def dump(self) -> dict[str, Any]:
        return {
            "slip": {**asdict(self.slip), "line": list(self.slip.line)},
            "hint": self.hint,
            "hint_keeps": self.hint_keeps,
            "hint_checked": self.hint_checked,
            "scanned": self.scanned,
            "moments": [asdict(moment) for moment in self.moments],
            "failed": self.failed,
            "asked": self.asked,
        }

    def gave_up(self) -> Progress:
        """The review as it stands when its budget ran out: a search along the record that is
        not over says where it stands (the stretch of moves in which the win was lost); the fair
        hint's verdict is undecided, and the moments found so far are all there are."""
        slip = self.slip
        index = slip.next_index()
        if index is not None:
            slip = replace(slip, stuck=index)
        hint_keeps = self.hint_keeps or ("undecided" if self.hint else "")
        return replace(self, slip=slip, hint_checked=True, hint_keeps=hint_keeps, scanned=10**6)

    def state(self, game: Game) -> ReviewState:
        if game.status == Game.Status.WON:
            return "done"
        if self.failed:
            return "failed"
        if self.slip.state != "done":
            return self.slip.state
        return "done" if self._hint_done and self._scan_done(game) else "working"

    @property
    def _hint_done(self) -> bool:
        return self.hint_checked or self.slip.last_winnable == -1

    def _scan_done(self, game: Game) -> bool:
        return len(self.moments) >= MAX_MOMENTS or self.scanned >= game.move_count


def check_reviewable(game: Game) -> None:
    """Refuse a game that has no review: in progress, left for another, or not played here."""
    if game.status == Game.Status.PLAYING:
        raise ReviewError(
            gettext("This game is still being played: its review opens once it is over.")
        )
    if game.status == Game.Status.ABANDONED:
        raise ReviewError(
            gettext(
                "This game was left for another before it ended, so there is nothing to review."
            )
        )
    if game.imported:
        raise ReviewError(gettext("An imported record is watched, not reviewed."))


def kept(game: Game) -> Progress:
    """What the review of `game` has found so far: a read, nothing written (a fresh start when
    there is no row, or its row was for other moves)."""
    row = GameReview.objects.filter(game=game).first()
    if row is None or row.moves != game.moves:
        return Progress.begin(game)
    return Progress.load(row.found, game)


def start(game: Game) -> tuple[GameReview, Progress]:
    """The review row for `game`, made empty if there is none, or it was for other moves."""
    row = GameReview.objects.filter(game=game).first()
    if row is None:
        try:
            with transaction.atomic():
                row = GameReview.objects.create(
                    game=game, moves=game.moves, found=Progress.begin(game).dump()
                )
        except IntegrityError:  # another request made it meanwhile
            row = GameReview.objects.get(game=game)
    if row.moves != game.moves:  # undone out of its loss and played on: another game now
        row.moves, row.found, row.state = game.moves, Progress.begin(game).dump(), "working"
        row.save()
    return row, Progress.load(row.found, game)


def _record(game: Game, moves: list[engine.Move], count: int, *extra: engine.Move) -> engine.Record:
    return engine.Record(game.engine_rules, game.deal_number, (*moves[:count], *extra))


class Work:
    """A review's search, one step at a time (a solve, or a hint), as a job runs it."""

    def __init__(self, game: Game, progress: Progress, solve_seconds: float) -> None:
        self.game = game
        self.progress = progress
        self.solve_seconds = solve_seconds
        self.played = game.replay()
        self.moves = list(self.played.moves)
        self.texts = [move.text for move in self.moves]
        self.positions = self.played.positions()
        self.solves = 0

    def _solve(self, record: engine.Record, position: engine.Position) -> show_a_win.Answer:
        self.solves += 1
        return show_a_win.answer(
            record, position, time_limit=self.solve_seconds, max_nodes=SOLVE_NODES
        )

    def step(self) -> None:
        progress = self.progress
        slip = progress.slip
        index = slip.next_index()
        if index is not None:
            found = self._solve(_record(self.game, self.moves, index), self.positions[index])
            progress.slip = slip.learn(index, found.status, found.line, self.texts)
        elif not progress._hint_done:
            self._check_hint(slip.low)
        else:
            self._scan_one()

    def _check_hint(self, at: int) -> None:
        progress = self.progress
        record = _record(self.game, self.moves, at)
        found = hints.hint_for(record, self.positions[at], slot_held=True)
        progress.hint_checked = True
        if found is None:
            return
        progress.hint = found.move.text
        if found.move == self.moves[at]:
            progress.hint_keeps = "lost"
            return
        after = engine.apply(self.positions[at], found.move)
        progress.hint_keeps = self._solve(
            _record(self.game, self.moves, at, found.move), after
        ).status

    def _scan_one(self) -> None:
        progress = self.progress
        at = progress.scanned
        progress.scanned += 1
        if at == progress.slip.last_winnable:  # the slip itself is told apart
            return
        found = hints.hint_for(
            _record(self.game, self.moves, at), self.positions[at], slot_held=True
        )
        if found is None or not disagrees(self.moves[at], found.move, self.moves[at + 1 :]):
            return
        if progress.moments and progress.moments[-1].hinted == found.move.text:
            return  # the same advice, not taken again: one moment, not several
        progress.moments = (*progress.moments, Moment(at, self.texts[at], found.move.text))


def work_through(game_id: int, cpu_seconds: float, solve_seconds: float) -> None:
    """Review game `game_id` to its end, or until `cpu_seconds` of this process's CPU are
    spent, saving after each step (a job: game/schedule.py). Nothing for a game that is gone,
    not reviewable, or played on since."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return
    try:
        check_reviewable(game)
    except ReviewError:
        return
    row, progress = start(game)
    ends = time.process_time() + cpu_seconds
    work = Work(game, replace(progress, failed=False), solve_seconds)
    while work.progress.state(game) == "working":
        if time.process_time() >= ends:
            work.progress = work.progress.gave_up()
            break
        work.step()
        if not _keep(row, game, work.progress):
            return  # undone and played on: another game now
    _keep(row, game, work.progress)


def _keep(row: GameReview, game: Game, progress: Progress) -> bool:
    """Save what the review has found, only for the log it was found for."""
    state = progress.state(game)
    # Only while this worker holds the review's job (leases.saving): one frozen past its lease
    # and woken again never writes over the review another worker has finished meanwhile.
    with leases.saving():
        return bool(
            GameReview.objects.filter(pk=row.pk, moves=game.moves).update(
                state=state, found=progress.dump()
            )
        )


def try_move(game: Game, progress: Progress, text: str) -> tuple[engine.Move, str]:
    """The solver's verdict ("won", "lost", "undecided") on the player's try at the position
    where the win slipped away. Raises InvalidMoveError / IllegalMoveError for a bad try and
    ReviewError when there is nothing to try; changes nothing in the game."""
    at = progress.slip.last_winnable
    if game.status != Game.Status.LOST or at is None or at < 0:
        raise ReviewError(
            gettext("There is no position to find a move in: the review has no slip.")
        )
    move = engine.Move.parse(text)
    played = game.replay()
    position = played.positions()[at]
    after = engine.apply(position, move)  # IllegalMoveError for a move against the rules
    with searches.computing():
        found = show_a_win.answer(_record(game, list(played.moves), at, move), after)
    return move, found.status
