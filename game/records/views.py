"""Game records and replays.

- Export: every game of this browser as its text record (engine notation: rule set, deal number,
  moves), to download (`/game/<id>/record.txt`) or copy (`/game/<id>/record/`).
- Import: `/import/` takes a pasted or uploaded record, checks its form (Record.parse) and replays
  it through the engine (Game.from_record); a malformed or illegal record is a 400 that says
  where it goes wrong. A good one opens as a replay, or as a new game going on from its end.
- Replays: `/replay/<replay_token>/` shows one finished game (or imported record) to whoever has
  the link, step by step (game/records/steps.py; `?at=N`, the old `?step=N` too), read-only.
  The token is the game's own unguessable `replay_token`, never its `token` (which authorizes
  an embed game's moves) and never anything that leads to the player's other games.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_safe

from game import engine
from game.board import clock, find, still, store, words
from game.models import Game
from game.ops import limits
from game.players import HtmxHttpRequest, session_key
from game.records import steps
from game.review import found as found_review

MAX_RECORD_BYTES = 64 * 1024


class BadRecord(ValueError):
    """An import that cannot be used, with the message to show."""


class ImportForm(forms.Form):
    record = forms.CharField(
        required=False,
        label=gettext_lazy("Paste a record"),
        widget=forms.Textarea(
            attrs={
                "rows": 5,
                "spellcheck": "false",
                "autocomplete": "off",
                "placeholder": "lucie 20260726 AS>F 6C>7C R …",
            }
        ),
    )
    file = forms.FileField(
        required=False, label=gettext_lazy("or upload a record file (.txt, up to 64 kB)")
    )


def read_import(request: HttpRequest) -> engine.Record:
    """The record posted (an uploaded file wins over the text box), checked and replayed."""
    upload = request.FILES.get("file")
    if upload is not None and upload.size:
        if upload.size > MAX_RECORD_BYTES:
            raise BadRecord(
                gettext("That file is too large: a record is at most %(kb)s kB.")
                % {"kb": MAX_RECORD_BYTES // 1024}
            )
        raw = upload.read(MAX_RECORD_BYTES + 1)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise BadRecord(
                gettext("That file is not a text record (it is not UTF-8 text).")
            ) from None
    else:
        text = request.POST.get("record", "")
        if len(text.encode("utf-8", "replace")) > MAX_RECORD_BYTES:
            raise BadRecord(
                gettext("That record is too long: a record is at most %(kb)s kB.")
                % {"kb": MAX_RECORD_BYTES // 1024}
            )
    if "\x00" in text or any(ord(c) < 32 and c not in "\t\n\r" for c in text):
        raise BadRecord(gettext("That is not a text record: it holds control characters."))
    if not text.strip():
        raise BadRecord(gettext("There is no record: paste one or choose a file."))
    # Counted before anything is parsed: a record's cost grows with its moves.
    if len(text.split()) - 2 > limits.MAX_GAME_MOVES:
        raise BadRecord(
            gettext("That record is too long: a record holds at most %(count)s moves.")
            % {"count": limits.MAX_GAME_MOVES}
        )
    try:
        record = engine.Record.parse(text)
        engine.Play.from_record(record)
    except (engine.InvalidRecordError, engine.IllegalMoveError) as error:
        raise BadRecord(
            gettext("That record cannot be used: %(why)s") % {"why": words.refusal_message(error)}
        ) from None
    return record


@require_http_methods(["GET", "HEAD", "POST"])
def import_page(request: HtmxHttpRequest) -> HttpResponse:
    """Paste or upload a record; then watch it (`then=replay`) or play on from it (`then=play`)."""
    context: dict[str, Any] = {
        "max_moves": limits.MAX_GAME_MOVES,
        "max_kb": MAX_RECORD_BYTES // 1024,
    }
    if request.method != "POST":
        context["form"] = ImportForm()
        return render(request, "game/import.html", context)
    form = ImportForm(initial={"record": request.POST.get("record", "")[:MAX_RECORD_BYTES]})
    context["form"] = form
    try:
        limits.check(request, limits.IMPORT)
        record = read_import(request)
    except BadRecord as error:
        context["error"] = str(error)
        return render(request, "game/import.html", context, status=400)
    if request.POST.get("then") == "play":
        game = store.start_from_record(session_key(request), record)
        return HttpResponseRedirect(reverse("game", args=[game.pk]), status=303)
    watched = store.store_import(record)
    return HttpResponseRedirect(reverse("replay", args=[watched.replay_token]), status=303)


def _record_download(game: Game) -> HttpResponse:
    response = HttpResponse(game.record.text + "\n", content_type="text/plain; charset=utf-8")
    name = f"lucie-{game.rules}-{game.deal_number}.txt"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    # A game's moves are this browser's (or the replay link's) alone: no shared cache may keep
    # them, and the answer depends on the session cookie.
    response["Cache-Control"] = "private, no-store"
    patch_vary_headers(response, ["Cookie"])
    return response


@require_safe
def record_txt(request: HttpRequest, game_id: int) -> HttpResponse:
    """This browser's game `game_id` as its text record, to download."""
    return _record_download(find.get_game(game_id, request.session.session_key))


@require_safe
def record_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """This browser's game's record to copy or download, and its replay link once it is over."""
    game = find.get_game(game_id, request.session.session_key)
    context = {
        "game": game,
        "record": game.record.text,
        "download": reverse("record_txt", args=[game.pk]),
        "replay": reverse("replay", args=[game.replay_token]) if game.is_finished else "",
    }
    return render(request, "game/record.html", context)


@require_safe
def replay_record_txt(request: HttpRequest, replay_token: str) -> HttpResponse:
    return _record_download(find.found(find.replay_games(replay_token)))


def _step(text: str, last: int) -> int:
    """The old links' `?step=N` (a review's moments, links shared before `?at=`): clamped."""
    if not text.isascii() or not text.isdigit():
        return 0
    return min(int(text[:6]), last)


def _asked_step(request: HttpRequest, found: steps.Steps) -> tuple[steps.Step, str]:
    """The step a replay's link names (`?at=43`, `?at=43&line=2`, or the old `?step=43`) and,
    when the link names no step of this game, what to say about it (the page then shows the
    nearest step there is)."""
    at_text = request.GET.get("at")
    line_text = request.GET.get("line", "")
    if at_text is None:
        return found.find(_step(request.GET.get("step", ""), found.last), 0), ""
    if not (at_text.isascii() and at_text.isdigit()) or len(at_text) > 6:
        return found.steps[0], gettext(
            "“%(asked)s” is not a move number: here is the start of the game."
        ) % {"asked": at_text[:20]}
    at = int(at_text)
    if at > found.last:
        return found.find(found.last, 0), ngettext(
            "This game has only %(count)s move: here is its end.",
            "This game has only %(count)s moves: here is its end.",
            found.last,
        ) % {"count": found.last}
    if not line_text:
        return found.find(at, 0), ""
    if (
        found.slip is None
        or at != found.slip
        or not (line_text.isascii() and line_text.isdigit())
        or not 1 <= int(line_text[:6]) <= found.line_length
    ):
        return found.find(at, 0), gettext(
            "There is no such step of the solver's line: here is move %(step)s of the game."
        ) % {"step": at}
    return found.find(at, int(line_text)), ""


def _solver_line(request: HttpRequest, game: Game) -> tuple[int | None, list[engine.Move]]:
    """For the game's own browser, once its review has found where a lost game's win slipped
    away: the moves after which a win still existed, and the solver's line from there. A read:
    the replay never asks for a review."""
    if not _is_owner(request, game) or game.status != Game.Status.LOST:
        return None, []
    slip = found_review.kept(game).slip
    at = slip.last_winnable
    if at is None or at < 0 or not slip.line:
        return None, []
    return at, [engine.Move.parse(text) for text in slip.line]


def _is_owner(request: HttpRequest, game: Game) -> bool:
    return bool(game.session_key) and game.session_key == request.session.session_key


def _listed_steps(found: steps.Steps, shown: steps.Step, in_page: bool) -> list[steps.Step]:
    """The game's steps the move list shows: all of them, or for a long record stepped by its
    links, those around the step shown."""
    listed = found.game_steps
    if in_page:
        return listed
    around = limits.REPLAY_LIST_AROUND
    return listed[max(0, shown.at - around) : shown.at + around + 1]


def _shown_position(
    positions: Sequence[engine.Position],
    moves: Sequence[engine.Move],
    line: Sequence[engine.Move],
    shown: steps.Step,
) -> tuple[engine.Position, engine.Move | None]:
    """The position of the step shown, and the move that led to it (on the solver's line, the
    line's move)."""
    position = positions[shown.at]
    move = moves[shown.at - 1] if shown.at else None
    for move in line[: shown.line]:  # on the solver's line, the move is the line's
        position = engine.apply(position, move)
    return position, move


def _step_links(found: steps.Steps, shown: steps.Step) -> dict[str, Any]:
    """The steps around the one shown: the lists, the previous and next steps, the first and the
    last, and the landmarks."""
    by_key = {step.key: step for step in found.steps}
    following = [s for s in found.steps if s.parent == shown.key and s.line == shown.line]
    return {
        "step": shown.at + shown.line,
        "shown": shown,
        "steps": found.steps,
        "line_steps": found.line_steps,
        "slip": found.slip,
        "last": found.last,
        "previous": by_key.get(shown.parent),
        "next": following[0] if following else None,
        "first": found.steps[0],
        # End: the game's last move, or the line's last on the solver's line.
        "end": found.steps[-1] if shown.line else by_key[str(found.last)],
        "jumps": steps.jumps(found),
    }


def _felt_context(
    request: HtmxHttpRequest,
    shown: steps.Step,
    position: engine.Position,
    move: engine.Move | None,
) -> dict[str, Any]:
    """The felt of the step shown, with the sentence the live region says of it."""
    return {
        "move": move,
        "announcement": shown.say,
        "announce_oob": request.htmx,
        "deal_in_play": shown.deal,
        "position": position,
        **still.still_table(position, move.card if move is not None else None),
    }


def _record_links(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The game's record, its download, its time, and its review for the game's own browser."""
    return {
        "record": game.record.text,
        "download": reverse("replay_record_txt", args=[game.replay_token]),
        "time": clock.format_ms(game.elapsed_ms),
        # The review is this browser's own: the replay link may be shared, the review is not.
        "review": (
            reverse("review", args=[game.pk])
            if _is_owner(request, game) and game.status in (Game.Status.WON, Game.Status.LOST)
            else ""
        ),
    }


def _replay_answer(request: HtmxHttpRequest, context: dict[str, Any], refusal: str) -> HttpResponse:
    """The page, or its replay region alone for htmx; a 400 when the link named no such step."""
    template = "game/replay.html#replay" if request.htmx else "game/replay.html"
    response = render(request, template, context, status=400 if refusal else 200)
    patch_vary_headers(response, ["HX-Request"])
    response["Referrer-Policy"] = "no-referrer"  # the link is the key: do not pass it on
    return response


@require_safe
def replay(request: HtmxHttpRequest, replay_token: str) -> HttpResponse:
    """One game, move by move, for whoever has its link; a game in progress has none (404).
    Every step comes with the page (game/records/steps.py), so the browser steps with no
    request; each step is also a link that the server draws on its own, for a browser without
    JavaScript."""
    game = find.found(find.replay_games(replay_token))
    played = game.replay()
    positions = played.positions()
    moves = played.moves
    slip, line = _solver_line(request, game)
    # A long record is stepped by its links: its steps' felts do not come with the page.
    in_page = len(moves) <= limits.MAX_STEPPED_MOVES
    found = steps.build(moves, positions, slip, line, with_parts=in_page)
    shown, refusal = _asked_step(request, found)
    position, move = _shown_position(positions, moves, line, shown)
    context: dict[str, Any] = {
        "game": game,
        "game_steps": _listed_steps(found, shown, in_page),
        "in_page": in_page,
        "refusal": refusal,
        **_step_links(found, shown),
        **_felt_context(request, shown, position, move),
        **_record_links(request, game),
    }
    return _replay_answer(request, context, refusal)
