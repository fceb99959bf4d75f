"""A lost game's review as a job on the task queue's workers (game/ops/queue.py), held by a lease
(game/ops/leases.py): one job per game and move log, so a game undone and played on is a new review,
and a review whose worker died is taken up by another.
"""

from __future__ import annotations

import hashlib

from django.conf import settings

from game.models import Game
from game.ops import asking, queue
from game.ops.asking import Asked
from game.ops.jobs import Job
from game.review import found as reviews


@queue.handler(Job.Kind.REVIEW)
def review(argument: str) -> None:
    reviews.work_through(
        int(argument),
        cpu_seconds=settings.REVIEW_CPU_SECONDS,
        solve_seconds=settings.REVIEW_SOLVE_CPU_SECONDS,
    )


def job_key(game: Game) -> str:
    """The review's job: the game and the log it reviews."""
    log = hashlib.sha256(game.moves.encode()).hexdigest()[:16]
    return f"review:{game.pk}:{log}"


def job_of(game: Game) -> Job | None:
    return Job.objects.filter(key=job_key(game)).first()


def ask_review(game: Game, *, asker: str = "", again: bool = False) -> Asked:
    """Ask for `game`'s review (its row made first, so the page has something to show)."""
    reviews.start(game)
    return asking.ask(Job.Kind.REVIEW, job_key(game), str(game.pk), asker=asker, again=again)
