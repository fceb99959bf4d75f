"""A change to a game and its answer, for either front end: the main site (whose board the daily
page shows too) and the embed.

A view names the games it may touch (by session, or by token for the embed) and the change; this
module reads the request's values (game.board.forms), runs the change (game.board.actions, which
never see a request), builds the one `Board` the answer shows (its words, fans, links, hint and
message) and renders it once (`answer`). A refused request becomes its status and message here
and nowhere else: a stale board is a 409, a move against the rules or a malformed request a 400,
a rate limit or a busy site a 429 or 503, each shown with the game as it stands and nothing
saved. The hint, the "said" query of a page without JavaScript and the fair timer's signals are
read here too.

A front end is data (`Front`: `SITE`, `EMBED`): its URLs, its page template, its defaults and
whether it keeps sessions. Nothing here calls back into game/play/ or game/embed/. A finished
game's panels beside the board (the win's figures, the challenge, the daily rank) are read by
the board's template (game/jinja.py's `finished`), as they need game/stats/ and game/challenge/,
which import this package.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field, fields
from typing import Any

from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.template import engines
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django_htmx.http import replace_url

from game import deals, engine
from game.board import actions, asides, clock, find, forms, hints, show_a_win_job, store, words
from game.board.actions import Before, Change
from game.board.forms import Posted
from game.board.show_a_win import OnShow
from game.board.table import (
    FanView,
    FoundationView,
    fan_is_plainly,
    fan_views,
    foundation_views,
    hint_keys,
    moves_by_card,
    target_key,
)
from game.models import Game
from game.ops import limits

# The stale board's msgid (game.board.words words it in the page's language).
STALE_MESSAGE = words.STALE

# What a refused request may raise on its way through the pipeline: a stale board, a move against
# the rules or a malformed request, a rate limit met or every compute slot taken (game.ops.limits).
REFUSALS = (
    store.StaleBoardError,
    engine.IllegalMoveError,
    engine.InvalidMoveError,
    *limits.REFUSED,
)

# The changes a board's URLs name (`/game/<id>/<name>/`, `/deal/<n>/<name>/`, the embed's).
CHANGES = ("move", "undo", "redo", "redeal", "auto")

# The board's template (Jinja2: game/jinja.py), for the site, the daily page and the embed.
BOARD_TEMPLATE = "board/board.jinja"

# `?daily=1` on a first board's URLs: a daily page dealt it (see Game.dealt_by_daily).
DAILY_FIELD = "daily"


# ---------------------------------------------------------------- the front ends, as data


@dataclass(frozen=True, slots=True)
class Front:
    """A front end of the board: where its controls go, the page it draws a whole board in, and
    what it keeps. Every URL of a board is its place's URL and a suffix (game/board/urls.py
    lists the changes under each place), so a board's URLs cost one `reverse()`."""

    # True for the embed: its template shows "Another deal" and "Open La Belle Lucie".
    embed: bool
    # The page a whole board is drawn in (a request without htmx).
    page_template: str
    # Whether its requests have a session: rate limits count per session too, the settings
    # (the auto-move setting without JavaScript) and Show a win's line are kept there, and the
    # page carries the new-game dialog.
    sessions: bool
    # A stored game's place: its page's URL name, and the row's field that names it.
    stored: str
    stored_by: str
    # What a stored game's board offers under its place, besides the changes.
    stored_controls: tuple[str, ...]
    # A deal's first board's place (the URL name, taking the deal number), and what it offers.
    first: str
    first_controls: tuple[str, ...]
    # Whether a first board's change URLs name the rule set even when it is the default one.
    rules_always: bool
    # The links that take no argument, by the name the template reads them under.
    fixed: tuple[tuple[str, str], ...]
    # The session's key for the settings (game/play/prefs.py), "" when it keeps none.
    settings_key: str = ""


SITE = Front(
    embed=False,
    page_template="game/play.html",
    sessions=True,
    stored="game",
    stored_by="pk",
    stored_controls=("hint", "show_a_win", "clock", "record"),
    first="deal",
    first_controls=("hint", "show_a_win"),
    rules_always=True,
    fixed=(("new", "new"),),
    settings_key="prefs",
)

EMBED = Front(
    embed=True,
    page_template="embed/play.html",
    sessions=False,
    stored="embed:game",
    stored_by="token",
    stored_controls=("hint", "clock"),
    first="embed:deal",
    first_controls=("hint",),
    rules_always=False,
    fixed=(("another", "embed:another"), ("site", "home")),
)


def board_urls(front: Front, game: Game) -> dict[str, str]:
    """Where the board's controls go: a stored game's own place, or for a deal's first board
    not stored yet the deal's (whose first change stores the game), whose URLs carry the rule set
    and the daily flag in their query (`rules`, `daily`)."""
    default = game.rules == engine.DEFAULT_RULES.name
    query: dict[str, str] = {} if default and not front.rules_always else {"rules": game.rules}
    if game.pk is not None:
        place = reverse(front.stored, args=[getattr(game, front.stored_by)])
        urls = {"page": place, "rules": ""}
        for name in (*front.stored_controls, *CHANGES):
            urls[name] = f"{place}{_segment(name)}/"
    else:
        if game.dealt_by_daily:
            query[DAILY_FIELD] = "1"
        suffix = "?" + urlencode(query) if query else ""
        place = reverse(front.first, args=[game.deal_number])
        urls = {"page": place, "rules": query.get("rules", ""), "daily": query.get(DAILY_FIELD, "")}
        if game.dealt_by_daily:
            urls["page"] = daily_page(game.deal_number)
        for name in front.first_controls:
            urls[name] = f"{place}{_segment(name)}/" + suffix
        for name in CHANGES:
            urls[name] = f"{place}{name}/{suffix}"
    for name, url_name in front.fixed:
        urls[name] = reverse(url_name)
    if front.embed:
        # Another deal keeps the rule set (the default one unsaid).
        urls["another"] += "" if default else "?" + urlencode({"rules": game.rules})
    return urls


def _segment(control: str) -> str:
    """A control's name as its URL's path segment: `show_a_win` is `show-a-win/`."""
    return control.replace("_", "-")


def daily_page(number: int) -> str:
    """The daily page of the day whose deal is `number` (today's at `/daily/`)."""
    day = deals.day_of_deal(number)
    assert day is not None
    if day == deals.today_utc():
        return reverse("daily")
    return reverse("daily_day", args=[f"{day.year:04}", f"{day.month:02}", f"{day.day:02}"])


def first_board(deal_number: int, rules: engine.Rules, *, daily: bool = False) -> Game:
    """Deal `deal_number`'s first board as a game that is not stored: nothing is written until
    the first move. `daily`: a daily page dealt it (it then becomes the session's entry in the
    daily figures), which only the deal of a day on offer under the daily rules can be."""
    game = Game(deal_number=deal_number, rules=rules.name, token="", replay_token="")
    game.dealt_by_daily = (
        daily and rules.name == deals.DAILY_RULES and deals.is_offered(deal_number)
    )
    return game


# ---------------------------------------------------------------- a change


def read(request: HttpRequest) -> Posted:
    """The change request's values (game.board.forms); InvalidMoveError when malformed."""
    return forms.read(request.POST)


def wants_auto(request: HttpRequest, posted: Posted, front: Front) -> bool:
    """The auto-move setting for this request: the form's `auto` field (board.js sends the
    browser's setting), or without one the settings the front end keeps in the session (the
    site's, game/play/prefs.py; the embed keeps none: no auto moves)."""
    if posted.auto is not None:
        return posted.auto
    if not front.settings_key:
        return False
    kept = request.session.get(front.settings_key)
    return isinstance(kept, dict) and kept.get("auto_move") is True


def perform(request: HttpRequest, front: Front, action: str, row: Game, posted: Posted) -> Change:
    """The change named `action` made to `row` (read under its lock by the caller's transaction):
    one of CHANGES, "show_a_win" (Show a win asked), "show_a_win_next" and "show_a_win_out" (the
    next move of Show a win's line on show, or all of them). The auto-move setting follows a move, a
    redeal and a redo (never an undo, which takes auto moves back)."""
    seen = posted.seen
    if action == "move":
        return actions.play(row, seen, posted.move(), auto=wants_auto(request, posted, front))
    if action == "undo":
        return actions.undo(row, seen)
    if action == "redo":
        return actions.redo(row, seen, auto=wants_auto(request, posted, front))
    if action == "redeal":
        return actions.redeal(row, seen, auto=wants_auto(request, posted, front))
    if action == "auto":
        return actions.auto_finish(row, seen)
    if action == "show_a_win":
        return actions.show_a_win(row, seen)
    if action in ("show_a_win_next", "show_a_win_out"):
        to_the_end = action == "show_a_win_out"
        return actions.show_a_win_next(row, seen, request.session, to_the_end=to_the_end)
    raise Http404("no such change")


def change(request: HttpRequest, games: find.Games, front: Front, action: str) -> HttpResponse:
    """The whole view path of a change: read the request; in one transaction, read the game
    under its row lock, make the change and save it; then the answer, or the refusal with the
    game as it stands (the transaction rolled back: nothing saved)."""
    try:
        posted = read(request)
        with store.saving(), transaction.atomic():
            done = perform(request, front, action, store.locked(games), posted)
    except REFUSALS as error:
        return refused(request, games, error, front)
    return changed(request, front, done, posted.previous)


def changed(request: HttpRequest, front: Front, done: Change, previous: str) -> HttpResponse:
    """The answer to a change made: the board (htmx), or a 303 to the game's page
    (post/redirect/get) that says what was done. After a deal's first change the embed's frame
    address names the game, so that reloading the frame keeps it."""
    page = board_urls(front, done.row)["page"]
    if getattr(request, "htmx", False):
        response = answer(request, front, done.row, done, previous=previous)
        if done.created and front.embed:
            replace_url(response, page)
        return response
    response = HttpResponseRedirect(page + said_query(done), status=303)
    patch_vary_headers(response, ["HX-Request"])
    return response


def refused(
    request: HttpRequest, games: find.Games, error: Exception, front: Front
) -> HttpResponse:
    """The board as it stands, with the refusal's status and message."""
    game = error.game if isinstance(error, store.StaleBoardError) else find.found(games)
    return refused_board(request, game, error, front)


def refused_board(
    request: HttpRequest,
    game: Game,
    error: Exception,
    front: Front,
    change: Change | None = None,
) -> HttpResponse:
    """`game`'s board saying why the request was refused; a rate limit or a busy site also says
    when to try again (`Retry-After`), and board.js shows it like a refused move."""
    status, message = refusal(error)
    # A malformed request: the board's message quotes its text (cut short, engine.moves.quoted),
    # and the live region says it once.
    malformed = isinstance(error, engine.InvalidMoveError)
    spoken = words.malformed_spoken() if malformed else ""
    response = answer(request, front, game, change, status=status, message=message, spoken=spoken)
    if isinstance(error, limits.REFUSED):
        response["Retry-After"] = str(error.retry_after)
    return response


def refusal(error: Exception) -> tuple[int, str]:
    """The status and the player's message (in the page's language) for a refused request."""
    if isinstance(error, store.StaleBoardError):
        status = 409
    elif isinstance(error, limits.REFUSED):
        status = error.status
    else:
        status = 400
    return status, words.refusal_message(error)


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


# ---------------------------------------------------------------- the answer


def answer(
    request: HttpRequest,
    front: Front,
    game: Game,
    change: Change | None = None,
    *,
    status: int = 200,
    message: str = "",
    selected: str = "",
    hint: engine.Hint | None = None,
    previous: str = "",
    spoken: str = "",
) -> HttpResponse:
    """The one answer of a board: `game`'s `Board` (after `change`, with `hint` marked or the
    card `selected`, saying `message`), rendered once: the board alone for htmx, inside the
    front end's page otherwise."""
    drawn = board(
        request,
        front,
        game,
        change.played if change is not None else game.resume(),
        change=change,
        selected=selected,
        hint=hint,
        message=message,
        spoken=spoken,
        previous=previous,
    )
    context = drawn.context()
    if getattr(request, "htmx", False):
        html = engines["jinja2"].get_template(BOARD_TEMPLATE).render(context, request)
        response = HttpResponse(html, status=status)
    else:
        if front.sessions:
            context["new_form"] = forms.NewGameForm(initial=request.session.get("new_game", {}))
            context["today"] = deals.todays_deal_number()
        response = render(request, front.page_template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


@dataclass
class Keep:
    """The parts of the board that the browser already has as they should be."""

    menu: bool = False
    # The whole menu, its Redo, Auto-finish and Show a win buttons included (board.js sends the
    # board's move count with each request, so a kept form's own count does not matter).
    whole_menu: bool = False
    show_a_win_dialog: bool = False
    # Show a win's section (its key names the line and the step on show).
    show_a_win: bool = False


@dataclass(slots=True)
class Board:
    """One answer's board, everything board/board.jinja reads: the felt (game/board/table.py),
    the words (the message, the live region's sentence, the hint's reason), the controls on
    offer, the clock, the links and the front end's URLs, and which parts the answer may leave
    out as the browser holds them (`keep`, `board_key`)."""

    game: Game
    rules: engine.Rules
    position: engine.Position
    fans: list[FanView]
    foundations: list[FoundationView]
    selected: str
    hint: engine.Hint | None
    hint_redeal: bool
    hint_reason: str
    # The hint of this board, known before any press (hints.ready): its move and its sentence.
    ready_hint: str
    ready_said: str
    message: str
    announcement: str
    can_undo: bool
    can_redo: bool
    can_redeal: bool
    can_auto: bool
    redeals_left: int | str
    mercis_left: int
    merci_open: bool
    merci_waits: bool
    elapsed_ms: int
    elapsed_text: str
    timer_running: bool
    timer_cap_ms: int
    show_a_win: OnShow | None
    can_show_a_win: bool
    board_key: str
    keep: Keep
    stuck_redeal: bool
    stuck_merci: bool
    blocked: list[Any]
    blocked_cards: str
    embed: bool
    urls: dict[str, str]
    links: Links
    deal_url: str
    replay_url: str = ""
    review_url: str = ""
    show_a_win_urls: dict[str, str] = field(default_factory=dict)
    last_card: str = ""
    last_from: int = -1

    def context(self) -> dict[str, Any]:
        """The board as the template's context (a shallow dict: nothing copied)."""
        return {each.name: getattr(self, each.name) for each in fields(self)}


def board(
    request: HttpRequest,
    front: Front,
    game: Game,
    played: engine.Play,
    *,
    change: Change | None = None,
    selected: str = "",
    hint: engine.Hint | None = None,
    message: str = "",
    spoken: str = "",
    previous: str = "",
) -> Board:
    """`game`'s board on `front`. Show a win's line on show (a front end that keeps sessions,
    an assisted game) has its next move marked the way a hint is, unless a hint was asked for.
    `previous` is the key (`board_key`) of the board the request came from, as board.js sends
    it: when it is the key of the game as loaded, the browser holds exactly that board, so the
    parts this change left as they were are sent as empty `hx-preserve` placeholders that htmx
    fills with the elements already on the page (`keep`). `spoken`, when given, is what the
    live region says instead of the message (a refusal that quotes the request says it once,
    on the board). `change`: what this request did to the game, to be said."""
    # Only an assisted game can have Show a win on show (asking marks it); a search on that has
    # found its answer since is shown with it.
    on_show = (
        show_a_win_job.follow(request.session, game) if front.sessions and game.assisted else None
    )
    position = played.position
    playing = game.status == Game.Status.PLAYING
    if hint is not None:
        # The hint, worded here once: its message line, and in the live region its sentence.
        message = words.hint_message(position, hint)
    said = announcement(game, played, change, hint=hint, message=spoken or message)
    if not said and on_show is not None and change is not None and change.action == "show_a_win":
        said = words.show_a_win_verdict(
            on_show.status, on_show.left, on_show.next_move, position, on_show.search_on
        )
    # Why the hint chose its move, shown only when asked ("Why?"); a line's marked move has none.
    hint_reason = hints.reason_text(position, hint) if hint is not None else ""
    if hint is None and on_show is not None and on_show.next_move is not None:
        hint = engine.Hint(on_show.next_move, "the next move of the winning line")
    legal = played.legal_moves() if playing else []
    by_card = moves_by_card(legal)
    if selected and selected not in by_card:
        if not message and selected in {c.code for fan in position.fans for c in fan}:
            message = words.no_move(engine.Card.parse(selected))
        selected = ""

    # With JavaScript off the selection lives in the URL (?sel=6C): its moves become buttons.
    targets: dict[str, str] = {}
    if selected and not message:
        card = engine.Card.parse(selected)
        message = words.capfirst(
            _("%(card)s: choose a lit place.") % {"card": words.card_name(card)}
        )
        said = words.choices(
            position, card, [engine.Move.parse(text) for text in by_card[selected]]
        )
    # A board with no card to move says so at once, and what is left (no Hint press needed).
    stuck = words.stuck(position, legal) if playing else ""
    if stuck and not message and not selected and hint is None:
        message = stuck
        said = f"{said} {stuck}" if said else stuck
    for text in by_card.get(selected, []):
        targets[target_key(engine.Move.parse(text))] = text
    hinted = hint_keys(hint.move) if hint else set()

    key = ""
    if not selected:
        key = board_key(game, position, game.status, game.assisted)
        if hint is not None:
            key = marked_key(key, hint.move, on_show)

    # The board the browser holds, when the request named it: what it left as it was is kept.
    held = _held(game, change.before if change is not None else None, previous, key)
    marks = {*hinted, *targets, f"card:{selected}"}
    kept = _kept_fans(held, position, by_card, marks) if held is not None else frozenset()
    fans = fan_views(position, by_card, selected=selected, targets=targets, hint=hint, kept=kept)

    # Strict mode offers no hint: none is looked up or carried.
    ready = hints.ready(played.record, position) if playing and not game.strict else None
    foundations = foundation_views(position)
    for foundation in foundations:
        foundation.target_move = targets.get(f"home:{foundation.suit}", "")
        foundation.hint = "target" if f"home:{foundation.suit}" in hinted else ""
        foundation.live = True

    keep = _unchanged(game, played, held, foundations, legal) if held is not None else Keep()
    # The same board with the same line on show (a "Show a win" asked again): its list stays.
    # Only a line with a next move has it in the board's key; any other verdict is sent again
    # (a few lines: a search on may have settled, or stopped, since).
    keep.show_a_win = (
        on_show is not None and on_show.next_move is not None and bool(key) and previous == key
    )

    urls = board_urls(front, game)
    redeals_left = position.redeals_left
    # The timer ticks in the browser while the game is under way and the page is visible; the
    # server's reading is where it starts from (see game/board/clock.py).
    shown_ms = clock.reading(game, timezone.now())
    lost = game.status == Game.Status.LOST
    drawn = Board(
        game=game,
        rules=position.rules,
        position=position,
        fans=fans,
        foundations=foundations,
        selected=selected,
        hint=hint,
        hint_redeal=bool(hint and hint.move.is_redeal),
        hint_reason=hint_reason,
        ready_hint=ready.move.text if ready is not None else "",
        ready_said=words.hint_message(position, ready) if ready is not None else "",
        message=message,
        announcement=said or spoken or message,
        can_undo=played.can_undo and game.status in (Game.Status.PLAYING, Game.Status.LOST),
        can_redo=played.can_redo and playing,
        can_redeal=engine.REDEAL in legal,
        can_auto=any(m.to_foundation and not m.merci for m in legal),
        redeals_left="unlimited" if redeals_left is None else redeals_left,
        mercis_left=position.mercis_left,
        merci_open=position.merci_open and playing,
        merci_waits=position.merci_waits and playing,
        elapsed_ms=shown_ms,
        elapsed_text=clock.format_ms(shown_ms),
        timer_running=playing and game.started_at is not None,
        timer_cap_ms=clock.STRETCH_CAP_MS,
        show_a_win=on_show,
        can_show_a_win=_can_show_a_win(game.status),
        board_key=key,
        keep=keep,
        stuck_redeal=bool(stuck) and engine.REDEAL in legal,
        stuck_merci=bool(stuck) and any(m.merci for m in legal),
        blocked=words.blocked(position) if lost else [],
        blocked_cards=" ".join(words.blocked_cards(position)) if lost else "",
        embed=front.embed,
        urls=urls,
        links=LINKS,
        deal_url=reverse("deal", args=[game.deal_number]),
    )
    if game.pk is not None and game.status != Game.Status.PLAYING:
        drawn.replay_url = reverse("replay", args=[game.replay_token])
        drawn.review_url = reverse("review", args=[game.pk])
    if game.pk is not None and on_show is not None and game.status != Game.Status.WON:
        show = urls["show_a_win"]
        drawn.show_a_win_urls = {
            "undo": urls["undo"],
            "next": f"{show}next/",
            "out": f"{show}out/",
            "wait": f"{show}wait/",
        }
    drawn.last_card, drawn.last_from = last_move(played)
    return drawn


# The site's pages that the board links to, by URL name (the menu, the info bar, the end panels).
SITE_LINKS = frozenset({"daily", "rules", "stats", "settings", "import", "deal_lookup", "home"})


class Links:
    """The site's pages the board links to (`links.rules`...), each URL worked out when the
    template reads it: a move's answer keeps the menu that holds most of them (an empty
    `hx-preserve` placeholder), so it reads one or two, not seven."""

    __slots__ = ()

    def __getattr__(self, name: str) -> str:
        if name not in SITE_LINKS:
            raise AttributeError(name)
        return reverse(name)


LINKS = Links()


# The longest key a board has: eight hex digits, a dot, a move's text, a dot, eight more.
MAX_KEY = forms.MAX_KEY


def board_key(game: Game, position: engine.Position, status: str, assisted: bool) -> str:
    """A short name for a plain board (no hint, no selection) of `game` at `position`: equal
    keys, equal markup for every part that `Keep` and `FanView.kept` may leave out."""
    text = f"{game.pk}:{game.token}:{position.text}:{status}:{assisted}"
    return format(zlib.crc32(text.encode()), "08x")


def marked_key(plain: str, mark: engine.Move, on_show: OnShow | None = None) -> str:
    """The key of the board `plain` names with a hint's or Show a win's `mark` on show: the
    plain board's key and the marked move, so that the next answer knows which fans and
    foundations the browser holds marked (`_unchanged`); with Show a win `on_show`, a digest of
    its line too (a board with the same key shows the same line, which may then be kept)."""
    if on_show is None:
        return f"{plain}.{mark.text}"
    text = f"{on_show.status}:{on_show.step}:{' '.join(on_show.line)}"
    return f"{plain}.{mark.text}.{zlib.crc32(text.encode()):08x}"


def _marks_of(previous: str) -> tuple[str, set[str]] | None:
    """The plain board's key and the places marked on the board `previous` names; None for a
    key that is no board's (a client sends it: anything it says is only compared)."""
    plain, dot, rest = previous.partition(".")
    if not dot:
        return plain, set()
    try:
        return plain, hint_keys(engine.Move.parse(rest.partition(".")[0]))
    except engine.InvalidMoveError:
        return None


def _can_show_a_win(status: str) -> bool:
    return status in (Game.Status.PLAYING, Game.Status.LOST)


@dataclass(frozen=True, slots=True)
class _Held:
    """The board the browser holds: the game as `loaded`, its marked places, its legal moves."""

    loaded: Before
    marked: set[str]
    legal: list[engine.Move]
    moves: dict[str, list[str]]
    exact: bool = False


def _held(game: Game, loaded: Before | None, previous: str, key: str) -> _Held | None:
    """What the board with key `previous` showed, when it is the game as `loaded` for this
    request (plain or marked); None for any other key, and then the whole board is sent. When it
    is `key`, the very board this answer draws (a hint asked again), no mark differs."""
    if loaded is None or not previous or len(previous) > MAX_KEY:
        return None
    found = _marks_of(previous)
    if found is None or found[0] != board_key(
        game, loaded.position, loaded.status, loaded.assisted
    ):
        return None
    playing = loaded.status == Game.Status.PLAYING
    legal = engine.legal_moves(loaded.position) if playing else []
    return _Held(loaded, found[1], legal, moves_by_card(legal), exact=previous == key)


def _kept_fans(
    held: _Held, position: engine.Position, by_card: dict[str, list[str]], marks: set[str]
) -> frozenset[int]:
    """The fans as the held board shows them: the same cards and moves, marked neither there
    (those places are sent again, unmarked) nor now (`marks`); on the very board the answer
    draws (`held.exact`), marked or not alike."""
    marked = set() if held.exact else held.marked | marks
    kept = set()
    # A redeal changes the number of fans: one that was not there is not kept.
    fans = zip(position.fans, held.loaded.position.fans, strict=False)
    for index, (now, then) in enumerate(fans):
        if f"fan:{index}" in marked or any(f"card:{card.code}" in marked for card in now):
            continue
        if fan_is_plainly(now, then, by_card, held.moves):
            kept.add(index)
    return frozenset(kept)


def _unchanged(
    game: Game,
    played: engine.Play,
    held: _Held,
    foundations: list[FoundationView],
    legal_now: list[engine.Move],
) -> Keep:
    """Mark the foundations that are as the held board shows them, and say which other parts
    are (`legal_now`: the moves of the board this answer draws)."""
    loaded = held.loaded
    before, status, assisted = loaded.position, loaded.status, loaded.assisted
    for home, was in zip(foundations, foundation_views(before), strict=True):
        was.live = True
        home.kept = f"home:{home.suit}" not in held.marked and home == was
    playing = game.status == Game.Status.PLAYING
    buttons_then = (
        loaded.redo and status == Game.Status.PLAYING,
        any(move.to_foundation and not move.merci for move in held.legal),
        _can_show_a_win(status),
    )
    buttons_now = (
        played.can_redo and playing,
        any(move.to_foundation and not move.merci for move in legal_now),
        _can_show_a_win(game.status),
    )
    return Keep(
        menu=True,
        whole_menu=buttons_then == buttons_now,
        show_a_win_dialog=(_can_show_a_win(status), assisted)
        == (_can_show_a_win(game.status), game.assisted),
    )


def announcement(
    game: Game,
    played: engine.Play,
    change: Change | None,
    *,
    hint: engine.Hint | None,
    message: str,
) -> str:
    """The live region's sentence: what the request changed, else the hint, else the message
    (an error, or a note such as "nothing to hint")."""
    if change is not None and change.action:
        said = words.change_said(
            played, change.seen, change.action, auto=played.auto, assisted=game.assisted
        )
        if said:
            return said
    if hint is not None:
        return words.hint(played.position, hint)
    return message


def last_move(played: engine.Play) -> tuple[str, int]:
    """The last card move, as the board marks it until the next: the card (wherever it lies
    now) and the fan it left (`data-last-card`, `data-last-from` on the board, read by
    main.js, which marks them). Nothing ("", -1) after a redeal, or before the first move.

    >>> game = engine.Play(1)
    >>> last_move(game)
    ('', -1)
    >>> move = next(m for m in game.legal_moves() if m.card is not None)
    >>> _ = game.play(move)
    >>> card, fan = last_move(game)
    >>> card == move.card.code and fan >= 0
    True
    """
    if not played.moves or played.moves[-1].card is None:
        return "", -1
    card = played.moves[-1].card
    before = played.positions_since(len(played.moves) - 1)[0]
    where = before.find(card)
    if where is None:
        return "", -1
    return card.code, where[0]


# ---------------------------------------------------------------- the live region without htmx


def said_query(change: Change | None) -> str:
    """Without JavaScript the change is announced by the page the post redirects to, which is
    told what was done and from which move count (`?did=move&from=17`), so that it can say it."""
    if change is None or change.action not in words.SAID_CHANGES:
        return ""
    return "?" + urlencode({"did": change.action, "from": str(change.seen)})


def said_before(request: HttpRequest, game: Game) -> Change | None:
    """What `said_query`'s fields say was done to `game`, freshly loaded; anything odd, None."""
    action = request.GET.get("did", "")
    seen = request.GET.get("from", "")
    if action in words.SAID_CHANGES and seen.isascii() and seen.isdigit() and len(seen) < 6:
        return Change(game, game.resume(), action, int(seen))
    return None


# ---------------------------------------------------------------- the fair timer's two signals


def clock_state(request: HttpRequest) -> bool:
    """`state=resume` (the page is visible) or `state=pause` (hidden); anything else is refused."""
    state = request.POST.get("state", "")
    if state not in ("pause", "resume"):
        raise engine.InvalidMoveError("a clock request says pause or resume")
    return state == "resume"


def clock_response(game: Game) -> JsonResponse:
    """The clock as the server keeps it, for board.js to tick from."""
    running = game.status == Game.Status.PLAYING and game.clock_since is not None
    reading = clock.reading(game, timezone.now())
    response = JsonResponse({"elapsed_ms": reading, "running": running})
    response["Cache-Control"] = "no-store"
    return response
