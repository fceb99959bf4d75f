"""The review of a finished game: `/game/<id>/review/` (this session's games only, site and
daily; the embed has none).

GET only reads: what is known, and where the review's job stands (game/review/review_job.py, held by
a lease: game/ops/leases.py). POST asks for the job (counted against the solver's rate limit; a full
queue says so, in the player's words); the page posts it by itself as it loads (a button without
JavaScript), then polls with htmx (a refresh without JavaScript) until the job is done, so a player
who leaves and comes back finds it finished. While no worker is running the page says that the
review waits for the site's workers. `?show=1` shows a move that kept the win and `&step=N` steps
along the winning line from there. POST `try/` checks the player's try at the position where the win
slipped away; it changes nothing in the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST, require_safe

from game import engine
from game.board import clock, find, still, words
from game.models import Game
from game.ops import asking, limits, watch
from game.ops.jobs import Job
from game.review import found as reviews
from game.review import review_job
from game.review.found import Progress, ReviewState


def _number(text: str, last: int) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        return 0
    return min(int(text), last)


def never_taken(job: Job | None) -> bool:
    """The job was never taken: the queue could not be reached when it was asked (a Redis down
    or frozen). That is the site's trouble, not the review's: the page asks again by itself, as
    for a review not asked yet."""
    return job is not None and job.state == Job.State.FAILED and job.error == asking.QUEUE_REFUSED


def state_of(game: Game, progress: Progress, job: Job | None) -> ReviewState:
    """The review's state: what it has found, or how its job stands ("failed" when the job
    failed on every try, or ended without finishing; a job the queue never took is still
    "working", to be asked again)."""
    state = progress.state(game)
    if state == "working" and job is not None and not job.is_open and not never_taken(job):
        return "failed"
    return state


def queue_words(game: Game, progress: Progress, job: Job | None) -> str:
    """Where a working review's job stands, in the player's words ("" when nothing need be said)."""
    if progress.state(game) != "working" or job is None or not job.is_open:
        return ""
    if watch.workers_away():
        return gettext(
            "This review is waiting for the site's workers, which are not running just now. "
            "It starts as soon as they are back, and this page keeps looking by itself."
        )
    return ""


def _context(
    request: HttpRequest, game: Game, progress: Progress, *, message: str = ""
) -> dict[str, Any]:
    """The review page: its summary; for a lost game, where the review stands while it is
    undecided, and once the slip is found, the move that lost the win and the winning line."""
    played = game.replay()
    moves = list(played.moves)
    positions = played.positions()
    at = progress.slip.last_winnable
    context = _review_summary(game, progress, message)
    if game.status == Game.Status.LOST and context["state"] == "undecided":
        context.update(_stretch_context(progress, moves, positions))
    if game.status == Game.Status.LOST and at is not None and at >= 0:
        context.update(_slip_context(progress, moves, positions[at], at))
        context.update(_winning_line_context(request, progress, positions[at]))
    return context


def _review_summary(game: Game, progress: Progress, message: str) -> dict[str, Any]:
    """What every review page shows: where the review and its job stand, its links, and the
    moments where the player left a hint's move aside."""
    job = review_job.job_of(game)
    return {
        "game": game,
        "state": state_of(game, progress, job),
        # Asked for, and not yet finished: the page polls. Not asked, or never taken by the
        # queue: the page asks (a POST), as it loads.
        "asked": job is not None and job.is_open,
        "queue_words": queue_words(game, progress, job),
        "progress": progress,
        "message": message,
        "url": reverse("review", args=[game.pk]),
        "ask_url": reverse("review_ask", args=[game.pk]),
        "try_url": reverse("review_try", args=[game.pk]),
        "replay_url": reverse("replay", args=[game.replay_token]),
        "time": clock.format_ms(game.elapsed_ms),
        "clean": game.is_clean_win,
        "at": progress.slip.last_winnable,
        "steps_total": _work_estimate(game, progress),
        "moments": _moments(game, progress),
    }


def _moments(game: Game, progress: Progress) -> list[dict[str, Any]]:
    """Each move played where a hint said otherwise, with the replay's link to it."""
    replay_url = reverse("replay", args=[game.replay_token])
    return [
        {
            "number": moment.index + 1,
            "played": words.describe(engine.Move.parse(moment.played)),
            "hinted": words.describe(engine.Move.parse(moment.hinted)),
            "replay": f"{replay_url}?at={moment.index}#m{moment.index}",
        }
        for moment in progress.moments
    ]


def _stretch_context(
    progress: Progress, moves: Sequence[engine.Move], positions: Sequence[engine.Position]
) -> dict[str, Any]:
    """Where an undecided review stands: a win existed after `start` moves, and was gone by
    `high`; the moves between, and the felt at `start`."""
    slip = progress.slip
    start = max(slip.low, 0)
    return {
        "stretch_from": start,
        "stretch_to": slip.high,
        "stretch": [
            (number, words.describe(moves[number - 1]))
            for number in range(start + 1, slip.high + 1)
        ],
        **still.still_table(positions[start]),
    }


def _slip_context(
    progress: Progress, moves: Sequence[engine.Move], position: engine.Position, at: int
) -> dict[str, Any]:
    """The move that lost the win, played at `position` (after `at` moves), and the moves the
    player may try there instead."""
    return {
        "position": position,
        "slip_move": words.describe(moves[at]),
        "slip_number": at + 1,
        # A card sent home before a redeal: safe within its deal, yet it changes the
        # cards the next shuffle deals; the page says so (a player expects home to be safe).
        "slip_home": moves[at].to_foundation and not moves[at].merci,
        "last_deal": position.is_last_deal,
        "deal_in_play": position.redeals_used + 1,
        "hint_move": words.describe(engine.Move.parse(progress.hint)) if progress.hint else "",
        "choices": [(m.text, words.describe(m)) for m in engine.legal_moves(position)],
    }


def _winning_line_context(
    request: HttpRequest, progress: Progress, position: engine.Position
) -> dict[str, Any]:
    """The solver's winning line from `position`, shown (`?show=1`, or after a try) up to the
    step asked (`&step=N`), with the felt at that step."""
    # A try (a POST with a move) shows the line; the review's ask (a POST without one) does not.
    tried = request.method == "POST" and bool(request.POST.get("move"))
    show = request.GET.get("show") == "1" or tried
    line = [engine.Move.parse(text) for text in progress.slip.line]
    step = _number(request.GET.get("step", ""), len(line)) if show else 0
    shown = position
    for move in line[:step]:
        shown = engine.apply(shown, move)
    return {
        "show": show,
        "line": [(n, words.describe(move)) for n, move in enumerate(line, start=1)],
        "keeper": words.describe(line[0]) if line else "",
        "step": step,
        "line_length": len(line),
        "shown": shown,
        **still.still_table(shown, line[step - 1].card if step else None),
    }


def _work_estimate(game: Game, progress: Progress) -> str:
    """Progress in words for the working state."""
    slip = progress.slip
    if slip.state == "working":
        return ngettext(
            # Each solve asks of one position along the moves whether a win still existed.
            "%(count)s position of this game checked for a win so far",
            "%(count)s positions of this game checked for a win so far",
            slip.solves,
        ) % {"count": slip.solves}
    return ngettext(
        "compared %(scanned)s of %(count)s position with the fair hint",
        "compared %(scanned)s of %(count)s positions with the fair hint",
        game.move_count,
    ) % {"scanned": progress.scanned, "count": game.move_count}


def _render(request: HttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    template = (
        "review/review.html#review" if getattr(request, "htmx", False) else "review/review.html"
    )
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    response["Cache-Control"] = "private, no-store"
    return response


def _error(request: HttpRequest, message: str, status: int = 400) -> HttpResponse:
    response = render(request, "game/error.html", {"message": message}, status=status)
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
def review(request: HttpRequest, game_id: int) -> HttpResponse:
    """The review as it stands; nothing is written or asked for."""
    game = find.get_game(game_id, request.session.session_key)
    try:
        reviews.check_reviewable(game)
    except reviews.ReviewError as error:
        return _error(request, str(error))
    return _render(request, _context(request, game, reviews.kept(game)))


@require_POST
def review_ask(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask for the review's job, unless it is found already or its job is under way; then the
    review as it stands (htmx), or a redirect to it. A refusal (the rate limit, a full queue,
    a queue that cannot be reached) is said on the page, which changes nothing else."""
    game = find.get_game(game_id, request.session.session_key)
    try:
        reviews.check_reviewable(game)
        game.replay()  # a record the engine cannot read is refused here, with no job asked
    except reviews.ReviewError as error:
        return _error(request, str(error))
    progress = reviews.kept(game)
    job = review_job.job_of(game)
    message, retry_after = "", 0
    if progress.state(game) == "working" and (job is None or not job.is_open):
        try:
            limits.check(request, limits.SOLVE)
        except limits.REFUSED as error:
            message, retry_after = error.message, error.retry_after
        else:
            asked = review_job.ask_review(game, asker=limits.network_tag(request), again=True)
            if asked.outcome == "full":
                message = gettext(
                    "Many reviews are waiting for the site's workers just now, so yours could "
                    "not join them. Try again in a minute or two."
                )
                retry_after = 60
            elif asked.outcome == "refused":
                message = gettext(
                    "The review could not be started just now. Try again in a minute."
                )
                retry_after = 60
            progress = reviews.kept(game)  # worked out already where the queue is immediate
    if not message and not getattr(request, "htmx", False):
        return HttpResponseRedirect(reverse("review", args=[game.pk]), status=303)
    context = _context(request, game, progress, message=message)
    if retry_after:
        context["poll_delay"] = f"{retry_after}s"
    response = _render(request, context)
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response


@require_POST
def review_try(request: HttpRequest, game_id: int) -> HttpResponse:
    """The player's try (`move`) at the position where the win slipped away, checked by the
    solver. A malformed or illegal try is a 400; nothing in the game changes either way."""
    game = find.get_game(game_id, request.session.session_key)
    try:
        reviews.check_reviewable(game)
    except reviews.ReviewError as error:
        return _error(request, str(error))
    progress = reviews.kept(game)
    text = request.POST.get("move", "")[:16]
    try:
        limits.check(request, limits.SOLVE)
        move, verdict = reviews.try_move(game, progress, text)
    except (engine.InvalidMoveError, engine.IllegalMoveError) as error:
        context = _context(request, game, progress, message=words.refusal_message(error))
        return _render(request, context, status=400)
    except reviews.ReviewError as error:
        return _render(request, _context(request, game, progress, message=str(error)), 400)
    except limits.REFUSED as error:
        response = _render(
            request, _context(request, game, progress, message=error.message), error.status
        )
        response["Retry-After"] = str(error.retry_after)
        return response
    context = _context(request, game, progress)
    context.update({"tried": verdict, "tried_move": words.describe(move), "show": True})
    return _render(request, context)
