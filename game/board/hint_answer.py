"""The hint's answer on either front end: the board with the engine's hint marked and said to a
stage, or why there is none (game/board/hints.py finds it, cached per position).

A hint comes in two stages, as puzzle sites give theirs: a first press of Hint marks the card to
play, a second press on the same board marks where it goes as well. A redeal's hint ("Redeal
now") is whole at its first stage. Each stage is counted by the POST that shows it.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse

from game import engine
from game.board import actions, asides, forms, hints, store, words
from game.board.actions import Change
from game.board.answers import answer, refused_board
from game.board.fronts import Front
from game.models import Game
from game.ops import limits

REFUSED = (
    *limits.REFUSED,
    actions.StrictGameError,
    store.StaleBoardError,
    engine.InvalidMoveError,
)


def hint(request: HttpRequest, game: Game, front: Front) -> HttpResponse:
    """The board with the engine's hint marked and said to a stage, or why there is none.

    A press of Hint is a POST that names the board it was made on (its move count `n`; any other
    is a stale board, refused) and the stage of the hint that board showed (`shown`): it shows
    the next stage and counts it (a press on a board that shows the whole hint shows it again
    and counts nothing). A GET only shows a stage (`?stage=1` the card, `?stage=2` or none the
    whole hint) and writes nothing; a plain form's POST is answered with a redirect to that GET
    (post/redirect/get)."""
    # Nothing changes: the board as it stands is the one the browser holds (its key, `v`), so
    # the answer may leave out the fans the hint's marks leave alone.
    shown = Change.of(game)
    htmx = getattr(request, "htmx", False)
    posted = request.method == "POST"
    data = request.POST if posted else request.GET
    previous = forms.held_key(data) if htmx else ""
    try:
        actions.check_not_strict(game)  # strict mode: no hint, not even a peek
        press = forms.read_hint_press(data) if posted else None
        if press is not None and press.seen != game.move_count:
            raise store.StaleBoardError(game)
        asked = forms.hint_stage(data) if press is None else 0
        found = computed_hint(request, game, shown.played, session=front.sessions)
    except REFUSED as error:
        return refused_board(request, game, error, front, shown)
    if request.GET.get("peek") == "1" and not posted:
        # Looked up ahead of a press (static/js/board/press.js) when the board came without its
        # hint (every hint slot was taken): shown to no one yet, so not counted.
        return JsonResponse(peeked(shown.played.position, found))
    if found is None:
        return answer(request, front, game, shown, message=words.nothing_to_hint())
    if press is None:
        stage = min(asked, stages(found))
    else:
        stage = min(press.shown + 1, stages(found))
        if stage > press.shown:
            count_hint(request, game, front, stage)
        if not htmx:
            return HttpResponseRedirect(stage_url(request, stage), status=303)
    return answer(request, front, game, shown, hint=found, hint_stage=stage, previous=previous)


def stages(found: engine.Hint) -> int:
    """How many stages `found` has: the card, then where it goes; a redeal is whole at once."""
    return forms.HINT_CARD if found.move.card is None else forms.HINT_PLACE


def stage_url(request: HttpRequest, stage: int) -> str:
    """The hint's GET that shows `stage`, where a plain form's press is sent to see it (the
    press's own query kept: a first board's rules and daily mark)."""
    query = request.GET.copy()
    query["stage"] = str(stage)
    return f"{request.path}?{query.urlencode()}"


def peeked(position: engine.Position, found: engine.Hint | None) -> dict[str, str]:
    """A hint looked up ahead of a press: its move and what each stage says."""
    if found is None:
        return {"move": "", "message": "", "place": ""}
    return {
        "move": found.move.text,
        "message": words.hint_card_said(position, found),
        "place": words.hint_message(position, found),
    }


def count_hint(request: HttpRequest, game: Game, front: Front, stage: int) -> None:
    """A hint's `stage` was shown at the player's press: the card (a hint used), or where it
    goes."""
    if game.pk is not None:
        # The game can no longer be a clean win. One UPDATE, no row lock: a move saving
        # meanwhile writes only the columns it changed.
        asides.count_hint(game, stage)
    elif front.sessions and request.session.session_key:
        # A deal's first board is not stored yet: the session remembers each stage shown, and
        # the first move counts them (game.play.first). A browser with no session stores
        # nothing, so a hint before its very first move is not counted.
        key = FIRST_HINT if stage == forms.HINT_CARD else FIRST_HINT_PLACE
        request.session[key] = first_hint_name(game)


FIRST_HINT = "first_hint"
FIRST_HINT_PLACE = "first_hint_place"


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
