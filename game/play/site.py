"""The main site's board, as the front end of a change (game.board.pipeline.Front): how it is
drawn, where its controls go, and what a change answers. The daily page shows the same board.

Nothing is stored until a player plays: a browser with no session is shown a deal's first board
(`/`, `/deal/<n>/`, the daily pages) as a game that is not stored (`first_board`), whose controls
post to `/deal/<n>/<action>/` (game/play/first.py). Each screen is one template; htmx requests
get the board alone (`answer.fragment`), a plain form post a 303 redirect to the full page
(post/redirect/get), so every control works without JavaScript.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import urlencode

from game import deals, engine, rank
from game.board import display, jobs, pipeline
from game.board.actions import Change
from game.challenge import panel as challenge_panel
from game.models import Game
from game.play import prefs
from game.play.forms import NewGameForm
from game.players import HtmxHttpRequest
from game.stats import win


def page_context(request: HttpRequest) -> dict[str, Any]:
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
            change.played if change is not None else game.resume(),
            change=change,
            selected=selected,
            hint=hint,
            message=message,
            previous=previous,
            spoken=spoken,
        )
        if getattr(request, "htmx", False):
            response = display.fragment(request, context, status=status)
        else:
            context.update(page_context(request))
            response = render(request, "game/play.html", context, status=status)
        patch_vary_headers(response, ["HX-Request"])
        return response

    def context(
        self,
        request: HttpRequest,
        game: Game,
        played: engine.Play,
        *,
        change: Change | None = None,
        message: str = "",
        selected: str = "",
        hint: engine.Hint | None = None,
        previous: str = "",
        spoken: str = "",
    ) -> dict[str, Any]:
        """What board/board.jinja needs for this game on the site: the board, its URLs and the line
        of "Show a win" on show."""
        context = display.board_context(
            game,
            played,
            change=change,
            selected=selected,
            hint=hint,
            message=message,
            spoken=spoken,
            # Only an assisted game can have a winning line on show (asking marks it); a
            # longer look that has found its answer since is shown with it.
            line=jobs.follow(request.session, game) if game.assisted else None,
            previous=previous,
        )
        context["urls"] = site_urls(game)
        context["embed"] = False
        if game.status == Game.Status.WON:
            deal_url = reverse("deal", args=[game.deal_number])
            if engine.Rules.parse(game.rules) != engine.DEFAULT_RULES:
                deal_url += f"?rules={game.rules}"
            context["win"] = win.for_game(game, request.build_absolute_uri(deal_url))
        if game.is_finished:
            context["challenge"] = challenge_panel.context(request, game)
            if game.daily:
                context["rank"] = rank.of_game(game)
        return context

    def auto_move(self, request: HttpRequest) -> bool:
        """The auto-move setting kept in the session (the form says it when JavaScript runs)."""
        return prefs.from_session(request).auto_move

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
    return game_urls(game.pk)


# The controls of a stored game's board, by the name its template reads them under: the URL
# name, and whether it takes the game's id.
GAME_URLS = (
    ("new", "new", False),
    ("page", "game", True),
    ("hint", "hint", True),
    ("solve", "solve", True),
    ("clock", "game_clock", True),
    ("record", "record", True),
    *((name, name, True) for name in pipeline.ACTIONS),
)


def game_urls(pk: int) -> dict[str, str]:
    """Where a stored game's controls go (GAME_URLS)."""
    return {
        field: reverse(name, args=[pk] if takes_id else []) for field, name, takes_id in GAME_URLS
    }


def started(request: HtmxHttpRequest, game: Game) -> HttpResponse:
    """After a POST that dealt a game: its board (htmx) or a redirect to its page."""
    if request.htmx:
        return SITE.board(request, game)
    response = HttpResponseRedirect(reverse("game", args=[game.pk]), status=303)
    patch_vary_headers(response, ["HX-Request"])
    return response


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
        **{name: reverse(f"deal_{name}", args=[number]) + suffix for name in pipeline.ACTIONS},
    }
