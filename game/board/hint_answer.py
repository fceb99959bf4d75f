"""The hint's answer on either front end: the board with the engine's hint marked and said, or
why there is none (game/board/hints.py finds it, cached per position).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse

from game import engine
from game.board import actions, asides, forms, hints, words
from game.board.actions import Change
from game.board.answers import answer, refused_board
from game.board.fronts import Front
from game.models import Game
from game.ops import limits


def hint(request: HttpRequest, game: Game, front: Front) -> HttpResponse:
    """The board with the engine's hint marked and said, or why there is none. A POST (the Hint
    button) counts the hint; a GET only shows it and writes nothing, and a plain form's POST is
    answered with a redirect to that GET (post/redirect/get)."""
    # Nothing changes: the board as it stands is the one the browser holds (its key, `v`), so
    # the answer may leave out the fans the hint's marks leave alone.
    shown = Change.of(game)
    htmx = getattr(request, "htmx", False)
    data = request.POST if request.method == "POST" else request.GET
    previous = forms.held_key(data) if htmx else ""
    try:
        actions.check_not_strict(game)  # strict mode: no hint, not even a peek
        found = computed_hint(request, game, shown.played, session=front.sessions)
    except (*limits.REFUSED, actions.StrictGameError) as error:
        return refused_board(request, game, error, front, shown)
    if request.GET.get("peek") == "1" and request.method != "POST":
        # Looked up ahead of a press (static/js/board/press.js) when the board came without its
        # hint (every hint slot was taken): shown to no one yet, so not counted.
        said = words.hint_message(shown.played.position, found) if found else ""
        return JsonResponse({"move": found.move.text if found else "", "message": said})
    if found is None:
        return answer(request, front, game, shown, message=words.nothing_to_hint())
    if request.method == "POST":
        count_hint(request, game, front)
        if not htmx:
            return HttpResponseRedirect(request.get_full_path(), status=303)
    return answer(request, front, game, shown, hint=found, previous=previous)


def count_hint(request: HttpRequest, game: Game, front: Front) -> None:
    """A hint was shown at the player's press."""
    if game.pk is not None:
        # The game can no longer be a clean win. One UPDATE, no row lock: a move saving
        # meanwhile writes only the columns it changed.
        asides.count_hint(game)
    elif front.sessions and request.session.session_key:
        # A deal's first board is not stored yet: the session remembers the hint, and the first
        # move counts it (game.play.first). A browser with no session stores nothing, so a hint
        # before its very first move is not counted.
        request.session[FIRST_HINT] = first_hint_name(game)


FIRST_HINT = "first_hint"


def first_hint_name(game: Game) -> str:
    """What the session keeps of a hint on a deal's first board: the deal and its rules."""
    return f"{game.rules} {game.deal_number}"


def computed_hint(
    request: HttpRequest, game: Game, played: engine.Play, *, session: bool = True
) -> engine.Hint | None:
    """The engine's hint for a game in progress (None when it is over): from the cache, or
    counted against the hint rate limit (per session too, unless `session` is false: the embed
    never reads one) and searched in a compute slot (game/board/hints.py)."""
    if game.status != Game.Status.PLAYING:
        return None

    def count() -> None:
        limits.check(request, limits.HINT, session=session)

    return hints.hint_for(played.record, played.position, before_search=count)
