"""The main site's views: its board's front end for the pipeline (game.board.pipeline), the pages
that start and show games, "Show a win", statistics and the rules page.

Each screen is one template; htmx requests get its partial (`play.html#board`), a plain form post
gets a 303 redirect to the full page (post/redirect/get), so every control works without
JavaScript. Every change to a game goes through game.board.pipeline, which maps refusals to 400 /
409.

Nothing is stored until a player plays: a browser with no session is shown a deal's first board
(`/`, `/deal/<n>/`, the daily pages) as a game that is not stored, whose controls post to
`/deal/<n>/<action>/`. The first move there stores the session and the game, and applies the move,
in one transaction; a refused one (stale, illegal, malformed, rate-limited) stores nothing. Page
views by strangers and crawlers cost no row.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.middleware import HtmxDetails

from game import engine, limits
from game.board import actions, display, pipeline, store, win, winning_line
from game.board.change import Change
from game.board.forms import Posted
from game.daily import deals
from game.models import Game
from game.play.forms import NewGameForm
from game.stats import charts, transfer
from game.stats import figures as stats
from lucie.sessions import claimed_key

logger = logging.getLogger(__name__)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (for type checkers)."""

    htmx: HtmxDetails


# ---------------------------------------------------------------- helpers


def session_key(request: HttpRequest) -> str:
    """This browser's session key, creating the session (and its cookie) if need be."""
    if not request.session.session_key:
        limits.check(request, limits.SESSION)
        request.session["player"] = True
        request.session.save()
    key = request.session.session_key
    assert key is not None
    return key


def start_game(
    request: HttpRequest, key: str, deal_number: int, rules: engine.Rules, *, daily: bool = False
) -> Game:
    """store.start, counted against the rate limit on new games."""
    limits.check(request, limits.START)
    network = limits.network_tag(request) if daily else ""
    return store.start(key, deal_number, rules, daily=daily, network=network)


def _remembered_rules(request: HtmxHttpRequest) -> engine.Rules:
    try:
        return engine.Rules.parse(request.session.get("rules", engine.DEFAULT_RULES.name))
    except engine.InvalidRulesError:
        return engine.DEFAULT_RULES


def _page_context(request: HttpRequest) -> dict[str, Any]:
    """What every full game page carries besides the board: the menu's dialogs."""
    return {
        "new_form": NewGameForm(initial=request.session.get("new_game", {})),
        "today": deals.todays_deal_number(),
    }


class SiteBoard:
    """The main site's board, as the pipeline's front end (the daily page shows the same)."""

    # Rate limits count per session as well as per address.
    sessions = True

    def board(
        self,
        request: HttpRequest,
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
        """The board alone for htmx, the whole page otherwise."""
        context = self.context(
            request,
            game,
            change.game if change is not None else game.resume(),
            change=change,
            selected=selected,
            hint=hint,
            message=message,
            previous=previous,
            spoken=spoken,
        )
        if getattr(request, "htmx", False):
            response = render(request, "game/play.html#board", context, status=status)
        else:
            context.update(_page_context(request))
            response = render(request, "game/play.html", context, status=status)
        patch_vary_headers(response, ["HX-Request"])
        return response

    def context(
        self,
        request: HttpRequest,
        game: Game,
        played: engine.Game,
        *,
        change: Change | None = None,
        message: str = "",
        selected: str = "",
        hint: engine.Hint | None = None,
        previous: str = "",
        spoken: str = "",
    ) -> dict[str, Any]:
        """What _board.html needs for this game on the site: the board, its URLs and the line
        of "Show a win" on show."""
        context = display.board_context(
            game,
            played,
            change=change,
            selected=selected,
            hint=hint,
            message=message,
            spoken=spoken,
            line=winning_line.shown(request.session, game),
            previous=previous,
        )
        context["urls"] = site_urls(game)
        context["embed"] = False
        if game.status == Game.Status.WON:
            deal_url = reverse("deal", args=[game.deal_number])
            if engine.Rules.parse(game.rules) != engine.DEFAULT_RULES:
                deal_url += f"?rules={game.rules}"
            context["win"] = win.for_game(game, request.build_absolute_uri(deal_url))
        return context

    def after_change(self, request: HttpRequest, change: Change) -> HttpResponse:
        """The board (htmx) or a redirect to the game's page (post/redirect/get)."""
        game = change.row
        if getattr(request, "htmx", False):
            return self.board(request, game, change, previous=request.POST.get("v", ""))
        url = reverse("game", args=[game.pk]) + pipeline.said_query(change)
        response = HttpResponseRedirect(url, status=303)
        patch_vary_headers(response, ["HX-Request"])
        return response


SITE = SiteBoard()


def site_urls(game: Game) -> dict[str, str]:
    """Where the board's controls go: a stored game's own URLs, or for a deal's first board not
    stored yet the deal's (`first_board_urls`)."""
    if game.pk is None:
        return first_board_urls(game)
    return {
        "new": reverse("new"),
        "page": reverse("game", args=[game.pk]),
        "hint": reverse("hint", args=[game.pk]),
        "solve": reverse("solve", args=[game.pk]),
        "clock": reverse("game_clock", args=[game.pk]),
        "record": reverse("record", args=[game.pk]),
        **{name: reverse(name, args=[game.pk]) for name in pipeline.ACTIONS},
    }


def _started(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """After a POST that dealt a game: its board (htmx) or a redirect to its page."""
    if request.htmx:
        return SITE.board(request, game)
    response = HttpResponseRedirect(reverse("game", args=[game.pk]), status=303)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _bad_request(request: HtmxHttpRequest, message: str, status: int = 400) -> HttpResponse:
    return render(request, "game/error.html", {"message": message}, status=status)


def selected_card(request: HttpRequest) -> str:
    """The card picked up without JavaScript (`?sel=6C`)."""
    return request.GET.get("sel", "").strip().upper()[:3]


# ---------------------------------------------------------------- a deal's first board, not stored

# `?daily=1` on a first board's URLs: a daily page dealt it (see Game.dealt_by_daily).
DAILY_FIELD = "daily"


def first_board(deal_number: int, rules: engine.Rules, *, daily: bool = False) -> Game:
    """Deal `deal_number`'s first board as a game that is not stored: nothing is written until
    the first move. `daily`: a daily page dealt it (it then becomes the session's entry in the
    daily figures), which only the deal of a day on offer under the daily rules can be."""
    game = Game(deal_number=deal_number, rules=rules.name, token="", replay_token="")
    game.dealt_by_daily = (
        daily and rules.name == deals.DAILY_RULES and deals.is_offered(deal_number)
    )
    return game


def first_board_urls(game: Game) -> dict[str, str]:
    """A first board's controls: its changes post to `/deal/<n>/<action>/` (the first stores the
    game), its hint and Show a win are the deal's, and a card picked up without JavaScript
    reloads the deal's page (`page`). GET forms drop their action's query string, so they carry
    the rule set and the daily flag as fields (`rules`, `daily`)."""
    number = game.deal_number
    query = {"rules": game.rules}
    if game.dealt_by_daily:
        query[DAILY_FIELD] = "1"
    suffix = "?" + urlencode(query)
    if game.dealt_by_daily:
        day = deals.day_of_deal(number)
        assert day is not None
        page = (
            reverse("daily")
            if day == deals.today_utc()
            else reverse("daily_day", args=[f"{day.year:04}", f"{day.month:02}", f"{day.day:02}"])
        )
    else:
        page = reverse("deal", args=[number])
    return {
        "new": reverse("new"),
        "page": page,
        "hint": reverse("deal_hint", args=[number]),
        "solve": reverse("deal_solve", args=[number]) + suffix,
        "rules": game.rules,
        "daily": query.get(DAILY_FIELD, ""),
        **{name: reverse("deal_start", args=[number, name]) + suffix for name in pipeline.ACTIONS},
    }


def _first_board_of(request: HtmxHttpRequest, number: str) -> Game:
    """The first board a request under `/deal/<n>/` names: its deal, `?rules=` (or the
    remembered rule set) and `?daily=1`. Raises InvalidDealError or InvalidRulesError."""
    deal_number = engine.parse_deal_number(number)
    name = request.GET.get("rules", "")
    rules = engine.Rules.parse(name) if name else _remembered_rules(request)
    return first_board(deal_number, rules, daily=request.GET.get(DAILY_FIELD) == "1")


def _game_under_way(request: HttpRequest, pending: Game) -> Game | HttpResponse | None:
    """What a first board's change meets in this session: its own game of that deal and rules
    under way (a double submit, or a second tab: the change goes to that game, where the move
    count tells a stale board), or a begun game of another deal, which is never left without
    asking (the answer goes to the deal's page, which asks). None: nothing in the way. A daily
    deal's board meets only the session's game of that day: it lives beside the other game."""
    key = request.session.session_key
    if pending.dealt_by_daily:
        day_game = store.day_game(key, pending.deal_number)
        if day_game is not None and day_game.status == Game.Status.PLAYING:
            return day_game
        return None
    current = store.current_game(key)
    if current is None or current.status != Game.Status.PLAYING:
        return None
    if (current.deal_number, current.rules) == (pending.deal_number, pending.rules):
        return current
    if current.started_at is None:
        return None
    url = first_board_urls(pending)["page"]
    if pending.rules != engine.DEFAULT_RULES.name and not pending.dealt_by_daily:
        url += "?" + urlencode({"rules": pending.rules})
    if getattr(request, "htmx", False):
        response = HttpResponse()
        response["HX-Redirect"] = url
        return response
    return HttpResponseRedirect(url, status=303)


def _store_first(
    request: HttpRequest, pending: Game, change: Callable[[store.Games], Change]
) -> Change:
    """Store the session (if new) and `pending` as this session's game, and apply its first
    `change` to it, in one transaction (actions.first_change): a refusal stores nothing, not
    even the session. A hint shown on the first board counts in the stored game."""
    new_session = request.session.session_key is None
    hinted = request.session.get(pipeline.FIRST_HINT) == pipeline.first_hint_name(pending)

    def start() -> Game:
        daily = pending.dealt_by_daily
        return store.start(
            session_key(request),
            pending.deal_number,
            pending.engine_rules,
            daily=daily,
            network=limits.network_tag(request) if daily else "",
            hints=int(hinted),
        )

    try:
        done = actions.first_change(
            start,
            lambda game: store.session_games(game.pk, game.session_key),
            change,
            admit=lambda: limits.check(request, limits.START),
        )
    except pipeline.REFUSALS:
        if new_session:
            # The session's row went with the transaction: forget it, so that no cookie names it.
            request.session.flush()
        raise
    if hinted:
        del request.session[pipeline.FIRST_HINT]
    return done


@require_safe
def deal_hint(request: HtmxHttpRequest, number: str) -> HttpResponse:
    """The hint on a deal's first board, with nothing stored."""
    try:
        pending = _first_board_of(request, number)
    except (engine.InvalidDealError, engine.InvalidRulesError) as error:
        return _bad_request(request, pipeline.sentence(str(error)))
    return pipeline.hint(request, pending, SITE)


@require_POST
def deal_start(request: HtmxHttpRequest, number: str, action: str) -> HttpResponse:
    """The first change on a deal's first board (a move, a redeal...): store the session and the
    game with it, then answer as any change does (the board, or a 303 to the game's page)."""
    if action not in pipeline.ACTIONS:
        raise Http404("no such action")
    try:
        pending = _first_board_of(request, number)
    except (engine.InvalidDealError, engine.InvalidRulesError) as error:
        return _bad_request(request, pipeline.sentence(str(error)))
    run = pipeline.board_change(request, action)
    under_way = _game_under_way(request, pending)
    if isinstance(under_way, HttpResponse):
        return under_way
    if under_way is not None:
        games = store.session_games(under_way.pk, request.session.session_key)
        return pipeline.change(request, games, SITE, run)
    try:
        posted = pipeline.read(request)
        done = _store_first(request, pending, lambda games: run(games, posted))
    except pipeline.REFUSALS as error:
        return pipeline.refused_board(request, pending, error, SITE)
    return SITE.after_change(request, done)


@require_http_methods(["GET", "HEAD", "POST"])
def deal_solve(request: HtmxHttpRequest, number: str) -> HttpResponse:
    """Show a win on a deal's first board. GET asks first (without JavaScript); POST stores the
    session and the game, marked assisted, in one transaction once a compute slot is held (a busy
    site stores nothing), then shows the solver's verdict."""
    try:
        pending = _first_board_of(request, number)
    except (engine.InvalidDealError, engine.InvalidRulesError) as error:
        return _bad_request(request, pipeline.sentence(str(error)))
    if request.method != "POST":
        context = {"game": pending, "urls": first_board_urls(pending)}
        response = render(request, "game/solve_confirm.html", context)
        patch_vary_headers(response, ["HX-Request"])
        return response
    under_way = _game_under_way(request, pending)
    if isinstance(under_way, HttpResponse):
        return under_way
    if under_way is not None:
        return _solve(request, under_way.pk)
    try:
        seen = pipeline.read(request).seen
        limits.check(request, limits.SOLVE)
        with limits.computing():
            done = _store_first(request, pending, lambda games: actions.peek(games, seen))
            found = winning_line.answer(done.game.record, done.game.position)
    except pipeline.REFUSALS as error:
        return pipeline.refused_board(request, pending, error, SITE)
    winning_line.remember(request.session, done.row, found)
    return SITE.after_change(request, done)


# ---------------------------------------------------------------- pages


@require_safe
def home(request: HtmxHttpRequest) -> HttpResponse:
    """Resume this browser's game in progress, or deal a new random one (for a browser with no
    session, a first board: nothing is stored until it plays)."""
    if request.session.session_key is None:
        pending = first_board(store.random_deal_number(), _remembered_rules(request))
        return SITE.board(request, pending, selected=selected_card(request))
    key = session_key(request)
    game = store.current_game(key)
    if game is None or game.status != Game.Status.PLAYING:
        game = start_game(request, key, store.random_deal_number(), _remembered_rules(request))
    return SITE.board(request, game)


@require_safe
def deal_lookup(request: HtmxHttpRequest) -> HttpResponse:
    """The deal-number field: `/deal/?number=123` goes to `/deal/123/`."""
    text = request.GET.get("number", "")
    try:
        number = engine.parse_deal_number(text)
    except engine.InvalidDealError as error:
        return _bad_request(request, pipeline.sentence(str(error)))
    return HttpResponseRedirect(reverse("deal", args=[number]))


@require_http_methods(["GET", "HEAD", "POST"])
def deal(request: HtmxHttpRequest, number: str) -> HttpResponse:
    """Play deal `number` (under `?rules=` or the remembered rule set).

    GET resumes it or starts it; if another game is under way it asks first, and the POST from
    that question starts the deal, abandoning the other game. A browser with no session is shown
    the deal's first board, and nothing is stored until it plays.
    """
    try:
        deal_number = engine.parse_deal_number(number)
    except engine.InvalidDealError as error:
        return _bad_request(request, pipeline.sentence(str(error)))
    rules_name = request.GET.get("rules") or request.POST.get("rules")
    try:
        rules = engine.Rules.parse(rules_name) if rules_name else _remembered_rules(request)
    except engine.InvalidRulesError as error:
        return _bad_request(request, pipeline.sentence(str(error)))
    if request.method != "POST" and request.session.session_key is None:
        return SITE.board(request, first_board(deal_number, rules), selected=selected_card(request))
    key = session_key(request)
    current = store.current_game(key)
    if request.method != "POST" and current is not None and current.status == Game.Status.PLAYING:
        if current.deal_number == deal_number and current.rules == rules.name:
            return SITE.board(request, current)
        if current.started_at is not None:
            context = {"current": current, "deal_number": deal_number, "rules": rules}
            return render(request, "game/deal_confirm.html", context)
    game = start_game(request, key, deal_number, rules)
    if request.method == "POST":
        return _started(request, game)
    return SITE.board(request, game)


@require_safe
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """One game's full page; `?sel=6C` selects a card (how tapping works without JavaScript)."""
    game = store.get_game(game_id, request.session.session_key)
    selected = selected_card(request)
    return SITE.board(request, game, pipeline.said_before(request, game), selected=selected)


@require_safe
def hint(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return pipeline.hint(request, store.get_game(game_id, request.session.session_key), SITE)


def _change(request: HtmxHttpRequest, game_id: int, name: str) -> HttpResponse:
    games = store.session_games(game_id, claimed_key(request.session))
    return pipeline.change(request, games, SITE, pipeline.board_change(request, name))


@require_POST
def move(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, "move")


@require_POST
def undo(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, "undo")


@require_POST
def redo(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, "redo")


@require_POST
def redeal(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, "redeal")


@require_POST
def auto_finish(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    return _change(request, game_id, "auto")


# ---------------------------------------------------------------- "Show a win"


@require_http_methods(["GET", "HEAD", "POST"])
def solve(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """GET asks first (it is a peek: the game will count as played, not won); POST marks the game
    assisted, asks the solver (bounded, cached per position) and shows its verdict."""
    if request.method == "POST":
        return _solve(request, game_id)
    game = store.get_game(game_id, request.session.session_key)
    response = render(request, "game/solve_confirm.html", {"game": game, "urls": site_urls(game)})
    patch_vary_headers(response, ["HX-Request"])
    return response


def _solve(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    games = store.session_games(game_id, request.session.session_key)
    try:
        limits.check(request, limits.SOLVE)
        # The slot is taken before the game is marked: a busy site refuses the peek untouched.
        with limits.computing():
            done = actions.peek(games, pipeline.read(request).seen)
            game = done.row
            # The search runs after the row is written and unlocked: it may take two seconds,
            # and a move made meanwhile only means the player has left the line
            # (winning_line.shown).
            found = winning_line.answer(game.record, done.game.position)
    except pipeline.REFUSALS as error:
        return pipeline.refused(request, games, error, SITE)
    winning_line.remember(request.session, game, found)
    return SITE.after_change(request, done)


@require_POST
def solve_next(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Play the winning line's next move (Previous is Undo)."""
    games = store.session_games(game_id, claimed_key(request.session))

    def run(games: store.Games, posted: Posted) -> Change:
        return actions.play_line(games, posted.seen, request.session)

    return pipeline.change(request, games, SITE, run)


@require_POST
def solve_out(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Play the rest of the winning line in one change."""
    games = store.session_games(game_id, claimed_key(request.session))

    def run(games: store.Games, posted: Posted) -> Change:
        return actions.play_line(games, posted.seen, request.session, to_the_end=True)

    return pipeline.change(request, games, SITE, run)


@require_POST
def game_clock(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The page was hidden (`pause`) or shown again (`resume`): the fair timer's two signals.

    board.js sends the pause with navigator.sendBeacon, which cannot set headers, so the CSRF
    token comes as the form field `csrfmiddlewaretoken`.
    """
    try:
        running = pipeline.clock_state(request)
    except engine.InvalidMoveError as error:
        return HttpResponse(pipeline.sentence(str(error)), status=400, content_type="text/plain")
    game = store.set_clock(store.session_games(game_id, claimed_key(request.session)), running)
    return pipeline.clock_response(game)


@require_http_methods(["GET", "HEAD", "POST"])
def new_game(request: HtmxHttpRequest) -> HttpResponse:
    """GET: the chooser, which also asks before leaving a game in progress. POST: deal it."""
    current = store.current_game(request.session.session_key)
    in_progress = current if current and current.status == Game.Status.PLAYING else None
    if request.method == "POST":
        form = NewGameForm(request.POST)
        if form.is_valid():
            key = session_key(request)
            rules: engine.Rules = form.cleaned_data["rules"]
            request.session["new_game"] = form.remembered()
            request.session["rules"] = rules.name
            number = form.cleaned_data["deal"] or store.random_deal_number()
            game = start_game(request, key, number, rules)
            return _started(request, game)
        status = 400
    else:
        form = NewGameForm(initial=request.session.get("new_game", {}))
        status = 200
    context = {"form": form, "current": in_progress}
    response = render(request, "game/new.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


STATS_SINCE = "stats_since"


def _stats_since(request: HttpRequest) -> dt.datetime | None:
    """When this browser last reset its statistics (games begun before then no longer count)."""
    text = request.session.get(STATS_SINCE)
    if not isinstance(text, str):
        return None
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        return None


@require_safe
def stats_page(request: HtmxHttpRequest) -> HttpResponse:
    """Numbers and pictures for one rule set (`?rules=nomerci`; the default rules without it) or
    for all together (`?rules=all`)."""
    try:
        rules = stats.parse_rules_choice(request.GET.get("rules", ""))
    except engine.InvalidRulesError as error:
        return _bad_request(request, pipeline.sentence(str(error)))
    key = request.session.session_key
    since = _stats_since(request)
    figures = stats.for_session(key, rules, since)
    context = {
        "stats": figures,
        "rules": rules or "all",
        "tabs": stats.rule_set_tabs(key, rules, since),
        "since": since,
        "charts": charts.for_stats(figures),
        "transfer_minutes": transfer.TRANSFER_MINUTES,
    }
    template = "game/stats.html#stats" if request.htmx else "game/stats.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def stats_reset(request: HtmxHttpRequest) -> HttpResponse:
    """GET asks (the page the reset button leads to without JavaScript); POST resets: from now on
    only games begun after this moment count. The games stay (daily figures, replay links)."""
    if request.method == "POST":
        if request.session.session_key:
            request.session[STATS_SINCE] = timezone.now().isoformat()
        return HttpResponseRedirect(reverse("stats"), status=303)
    return render(request, "game/stats_reset.html")


@require_safe
def rules_page(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "game/rules.html", display.rules_example())
