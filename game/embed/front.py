"""The embed's board, as the front end of a change (game.board.pipeline.Front): where its
controls go (a stored game by its token, a deal's start by its number), how it is drawn, and what
a change answers. It keeps no session and sets no cookie (see game/embed/views.py).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django_htmx.http import replace_url

from game import engine
from game.board import display, pipeline
from game.board.actions import Change
from game.models import Game
from game.stats import win

# What a POST under /embed/deal/<n>/ and /embed/g/<token>/ may do: the pipeline's actions.
ACTIONS = tuple(pipeline.ACTIONS)


def requested_rules(request: HttpRequest) -> engine.Rules:
    """The `?rules=` rule set (default when absent); a bad name is a 400 (see
    game.embed.views.embed_page)."""
    name = request.GET.get("rules", "")
    return engine.Rules.parse(name) if name else engine.DEFAULT_RULES


def rules_query(rules: engine.Rules) -> str:
    return "" if rules == engine.DEFAULT_RULES else "?" + urlencode({"rules": rules.name})


def unstarted(deal_number: int, rules: engine.Rules) -> Game:
    """The deal's start as a game that is not stored (and has no token to show)."""
    return Game(deal_number=deal_number, rules=rules.name, token="")


def board_urls(game: Game) -> dict[str, str]:
    """Where the board's controls go: a stored game by its token, a deal's start by its number."""
    rules = game.engine_rules
    query = rules_query(rules)
    urls = {
        "another": reverse("embed:another") + query,
        "site": reverse("home"),
        # GET forms drop their action's query string, so they carry the rule set in a field.
        "rules": "" if rules == engine.DEFAULT_RULES else rules.name,
    }
    if game.pk is None:
        number = game.deal_number
        urls["page"] = reverse("embed:deal", args=[number])
        urls["hint"] = reverse("embed:deal_hint", args=[number])
        for action in ACTIONS:
            urls[action] = reverse(f"embed:deal_{action}", args=[number]) + query
    else:
        urls["rules"] = ""
        urls["page"] = reverse("embed:game", args=[game.token])
        urls["clock"] = reverse("embed:game_clock", args=[game.token])
        urls["hint"] = reverse("embed:game_hint", args=[game.token])
        for action in ACTIONS:
            urls[action] = reverse(f"embed:game_{action}", args=[game.token])
    return urls


class EmbedBoard:
    """The embed's board, as the pipeline's front end: its own URLs, no session, no cookie."""

    sessions = False

    def auto_move(self, request: HttpRequest) -> bool:
        """No session to keep a setting in: without JavaScript, no auto moves."""
        return False

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
        """The board alone for htmx, the whole frame page otherwise."""
        context = display.board_context(
            game,
            change.played if change is not None else game.resume(),
            change=change,
            selected=selected,
            hint=hint,
            message=message,
            spoken=spoken,
            previous=previous,
        )
        context["urls"] = board_urls(game)
        context["embed"] = True
        if game.status == Game.Status.WON:
            # The share names the site's own page of the deal, where anyone may play it.
            deal_url = request.build_absolute_uri(reverse("deal", args=[game.deal_number]))
            context["win"] = win.for_game(game, deal_url)
        if getattr(request, "htmx", False):
            response = display.fragment(request, context, status=status)
        else:
            response = render(request, "embed/play.html", context, status=status)
        patch_vary_headers(response, ["HX-Request"])
        return response

    def after_change(self, request: HttpRequest, change: Change) -> HttpResponse:
        """The board (htmx) or a redirect to the game's token URL. After the first change of a
        deal's start (`change.created`), the frame's address names the game."""
        game = change.row
        url = reverse("embed:game", args=[game.token])
        if getattr(request, "htmx", False):
            response = self.board(request, game, change, previous=request.POST.get("v", ""))
            if change.created:
                # The frame's address now names the game, so reloading the frame keeps it.
                replace_url(response, url)
            return response
        response = HttpResponseRedirect(url + pipeline.said_query(change), status=303)
        patch_vary_headers(response, ["HX-Request"])
        return response


EMBED = EmbedBoard()
