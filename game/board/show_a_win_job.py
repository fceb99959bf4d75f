"""Show a win's search on: past a request's budget, a job on the task queue's workers
(game/ops/queue.py).

A request searches a position for about two seconds (game/board/show_a_win.py). When that cannot
decide, the request asks for a job (`search_on`) that searches on from the same position with
settings.SHOW_A_WIN_CPU_SECONDS of CPU, and answers at once: the board says it is still looking, and
follows the job (`follow`: the panel polls, a page without JavaScript refreshes itself). The job
keeps its verdict in the position's own cache entry, the one every request reads, so whoever reaches
that position afterwards, on any server, gets it at once.

The job is held by a lease (game/ops/leases.py), one per position (`job_key`), so however many
players ask there is one job, a job whose worker died is taken up by another, and a kind's cap
(settings.QUEUE_CAPS) keeps a flood of Show a win from filling the queue (nor does a flood of
reviews refuse this one: each kind has its own). What the board shows while it waits comes from
the job's row: "working" while it is open, "failed" when it failed on every try, "refused" for a
while when the queue could not take it or was full. A job that finds a verdict already kept does
nothing more.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.core.cache import cache
from django.utils import timezone

from game import engine
from game.board import show_a_win
from game.board.show_a_win import Answer, OnShow
from game.models import Game
from game.ops import asking, queue
from game.ops.jobs import Job

REFUSED_SECONDS = 30
"""A queue that could not take a job is tried again for that position after this long."""

EXHAUSTED_SECONDS = 86400
"""A job that spent its whole budget without deciding is believed this long: meanwhile no request
searches that position again, and the board says plainly that no answer was found."""

ASK_SECONDS = 5 * 60
"""How long a job's "failed" is told before a player's ask may try again."""


def _name(record: engine.Record) -> str:
    """The position's name: the hash in its cache key."""
    return show_a_win.cache_key(record).removeprefix(show_a_win.CACHE_PREFIX)


def job_key(record: engine.Record) -> str:
    """The job for `record`'s position (its lease's key)."""
    return f"show_a_win:{_name(record)}"


def _refused_key(record: engine.Record) -> str:
    return f"show-a-win-refused:{_name(record)}"


@queue.handler(Job.Kind.SHOW_A_WIN)
def search_on_job(text: str) -> None:
    """The job: search on from the position record `text` reaches with the job's budget, and
    keep the verdict."""
    record = engine.Record.parse(text)
    if _decided(show_a_win.cached(record)):
        return  # another job, or a review, has kept one meanwhile
    played = engine.Play(record.deal_number, record.rules, record.moves)
    show_a_win.answer(
        record,
        played.position,
        time_limit=settings.SHOW_A_WIN_CPU_SECONDS,
        max_nodes=show_a_win.JOB_NODES,
        undecided_seconds=EXHAUSTED_SECONDS,
    )


def _decided(kept: show_a_win.Kept | None) -> bool:
    """A verdict no job of ours would change: a proof, or a search at least as long as ours."""
    if kept is None:
        return False
    return kept.answer.status != "undecided" or kept.searched >= settings.SHOW_A_WIN_CPU_SECONDS


def known(record: engine.Record, *, lapsed_working: bool = False) -> Answer | None:
    """What is known of `record`'s position past a request's search: a proof, or undecided with
    how the search on stands (`Answer.search_on`); None when nothing is (no job asked lately).
    Reads of the cache and the job's row only. A job whose lease lapsed is None (to be asked
    again), unless `lapsed_working`: a page that only reads leaves it to the keeper, which
    wakes a lapsed job within seconds (game/ops/keeper.py), and says it is still working."""
    kept = show_a_win.cached(record)
    if kept is not None and _decided(kept):
        if kept.answer.status != "undecided":
            return kept.answer
        return Answer("undecided", search_on="exhausted")
    job = Job.objects.filter(key=job_key(record)).first()
    if job is not None and job.is_open:
        # A job whose lease lapsed (its worker died, the queue lost it) is known no more: the
        # board's poll asks for it again.
        if lapsed_working or job.lease_until > timezone.now():
            return Answer("undecided", search_on="working")
        return None
    since = _since(job.finished_at) if job is not None and job.finished_at else None
    if job is not None and since is not None:
        if job.state == Job.State.FAILED and job.error == asking.QUEUE_REFUSED:
            return Answer("undecided", search_on="refused") if since < REFUSED_SECONDS else None
        if job.state == Job.State.FAILED and since < ASK_SECONDS:
            return Answer("undecided", search_on="failed")
        # Done, and its verdict not in this cache (evicted, or kept in another process's
        # memory on a site without a shared cache): believed like a search that found nothing.
        if job.state == Job.State.DONE and since < EXHAUSTED_SECONDS:
            return Answer("undecided", search_on="exhausted")
    if cache.get(_refused_key(record)):
        return Answer("undecided", search_on="refused")
    return None


def search_on(record: engine.Record, found: Answer) -> Answer:
    """The answer to show for `record`'s position after a request's search found `found`: that,
    when it decided; else what the search on has found or how it stands, the job asked for when
    none was asked lately. Never a search in the request."""
    if found.status != "undecided":
        return found
    now = known(record)
    if now is None:
        _ask(record)
        # Where the queue is immediate (the tests) the job has run already.
        now = known(record) or Answer("undecided", search_on="working")
    return now


def _since(moment: dt.datetime) -> float:
    return (timezone.now() - moment).total_seconds()


def _ask(record: engine.Record) -> None:
    asked = asking.ask(Job.Kind.SHOW_A_WIN, job_key(record), record.text, again=True)
    if asked.outcome in ("full", "refused"):
        cache.set(_refused_key(record), True, REFUSED_SECONDS)


def follow(session: SessionBase, game: Game) -> OnShow | None:
    """Show a win on show beside `game` (show_a_win.shown), brought up to date while the search
    on goes on: its answer once the job has kept one (remembered in the session from then on).
    Read by every page that draws the board, so it only reads: never a search, never a job
    asked (only the POST of Show a win asks one). A job nothing is known of any more (failed
    long ago, or its verdict lost from the cache) leaves the plain "could not decide in time",
    and the player may ask again."""
    on_show = show_a_win.shown(session, game)
    if on_show is None or not on_show.waiting:
        return on_show
    now = known(game.record, lapsed_working=True) or Answer("undecided")
    if now.status == "undecided" and now.search_on == "working":
        return on_show
    show_a_win.remember(session, game, now)
    return show_a_win.shown(session, game)
