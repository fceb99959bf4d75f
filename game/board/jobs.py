"""Show a win past a request's budget, as a job on the task queue's workers (game/queue.py).

A request searches a position for about two seconds (game/board/winning_line.py). When that
cannot decide, the request asks for a job (`further`) that searches the same position with
settings.SHOW_A_WIN_CPU_SECONDS of CPU, and answers at once: the board says it is still looking,
and follows the job (`follow`: the panel polls, a page without JavaScript refreshes itself).
The job keeps its verdict in the position's own cache entry, the one every request reads, so
whoever reaches that position afterwards, on any server, gets it at once.

Per position (the cache key of its record), in the cache beside its verdict, the job's state:
"working" from the ask on, written only if absent (`cache.add`), so that however many players
ask, the queue gets one job per ASK_SECONDS; "refused" when the queue could not take it;
"failed" when it failed on every try. The job holds a lock named after the position, so two
never search it at once; a job that finds a verdict already kept does nothing more.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import cache
from huey.exceptions import TaskLockedException
from huey.signals import SIGNAL_ERROR

from game import engine
from game.board import winning_line
from game.board.winning_line import Answer, WinningLine
from game.models import Game
from game.queue import PRIORITY_SHOW_A_WIN, RETRIES, RETRY_DELAY, alone, ask, huey

ASK_SECONDS = 5 * 60
"""A position's job is asked for at most once in this time, however many players ask; a job
asked longer ago and not done (a worker that died, a queue that lost it) is asked for again."""

REFUSED_SECONDS = 30
"""A queue that could not take a job is tried again for that position after this long."""

EXHAUSTED_SECONDS = 86400
"""A job that spent its whole budget without deciding is believed this long: meanwhile no request
searches that position again, and the board says plainly that no answer was found."""

STATES = ("working", "refused", "failed")


def _name(record: engine.Record) -> str:
    """The position's name: the hash in its cache key."""
    return winning_line.cache_key(record).removeprefix("peek:")


def job_key(record: engine.Record) -> str:
    """Where the state of the job for `record`'s position is kept."""
    return f"peek-job:{_name(record)}"


@huey.task(retries=RETRIES, retry_delay=RETRY_DELAY, priority=PRIORITY_SHOW_A_WIN)
def look_for_a_win(text: str) -> None:
    """Search the position record `text` reaches with the job's budget, and keep the verdict."""
    record = engine.Record.parse(text)
    if _decided(winning_line.cached(record)):
        return  # another job, or a review, has kept one meanwhile
    with alone(f"peek-{_name(record)}"):
        played = engine.Play(record.deal_number, record.rules, record.moves)
        winning_line.answer(
            record,
            played.position,
            time_limit=settings.SHOW_A_WIN_CPU_SECONDS,
            max_nodes=winning_line.JOB_NODES,
            undecided_seconds=EXHAUSTED_SECONDS,
        )


# The job's class, as the failure signal tells it apart (whatever stands in for the job itself).
_JOB = look_for_a_win.task_class


def _decided(kept: winning_line.Kept | None) -> bool:
    """A verdict no job of ours would change: a proof, or a search at least as long as ours."""
    if kept is None:
        return False
    return kept.answer.status != "undecided" or kept.searched >= settings.SHOW_A_WIN_CPU_SECONDS


def known(record: engine.Record) -> Answer | None:
    """What is known of `record`'s position past a request's search: a proof, or undecided with
    how the longer look stands (`Answer.further`); None when nothing is (no job asked lately).
    Reads of the cache only."""
    kept = winning_line.cached(record)
    if kept is not None and _decided(kept):
        if kept.answer.status != "undecided":
            return kept.answer
        return Answer("undecided", further="exhausted")
    state = cache.get(job_key(record))
    if state in STATES:
        return Answer("undecided", further=state)
    return None


def further(record: engine.Record, found: Answer) -> Answer:
    """The answer to show for `record`'s position after a request's search found `found`: that,
    when it decided; else what the longer look has found or how it stands, the job asked for
    when none was asked lately. Never a search in the request."""
    if found.status != "undecided":
        return found
    now = known(record)
    if now is None:
        _ask(record)
        # Where the queue is immediate (the tests) the job has run already.
        now = known(record) or Answer("undecided", further="working")
    return now


def _ask(record: engine.Record) -> None:
    key = job_key(record)
    room = settings.SHOW_A_WIN_QUEUE_CAP
    if cache.add(key, "working", ASK_SECONDS) and not ask(look_for_a_win, record.text, below=room):
        cache.set(key, "refused", REFUSED_SECONDS)


def follow(session: SessionBase, game: Game) -> WinningLine | None:
    """The verdict on show beside `game` (winning_line.shown), brought up to date while a longer
    look goes on: its answer once the job has kept one (remembered in the session from then on),
    the job asked for again when nothing is known of it. A read of the cache; never a search."""
    line = winning_line.shown(session, game)
    if line is None or not line.waiting:
        return line
    now = further(game.record, Answer("undecided"))
    if now.status == "undecided" and now.further == "working":
        return line
    winning_line.remember(session, game, now)
    return winning_line.shown(session, game)


@huey.signal(SIGNAL_ERROR)
def _failed(signal: str, task: object, exc: BaseException | None = None) -> None:
    """A job that failed on its last try: the board says so (game/review/jobs.py logs it)."""
    if isinstance(exc, TaskLockedException) or getattr(task, "retries", 0) > 0:
        return
    args = getattr(task, "args", ())
    if not isinstance(task, _JOB) or not args:
        return
    try:
        record = engine.Record.parse(str(args[0]))
    except engine.InvalidRecordError:
        return  # no position to tell a board about
    cache.set(job_key(record), "failed", ASK_SECONDS)
