"""The board's two front ends as data (`Front`: `SITE`, `EMBED`): where a board's controls go,
the page a whole board is drawn in, its defaults and whether it keeps sessions; a deal's first
board (a game not stored yet), and the site's pages the board links to.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.http import urlencode

from game import deals, engine
from game.models import Game

# A control's URL segment where it is not its name (`show_a_win` is `show-a-win/`).
SEGMENTS = {"show_a_win": "show-a-win"}

# The changes a board's URLs name (`/game/<id>/<name>/`, `/deal/<n>/<name>/`, the embed's).
CHANGES = ("move", "undo", "redo", "redeal", "auto")


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
    # What reads a finished game's panels (the win's figures, the challenge, the daily rank),
    # named by its dotted path: it needs game/stats/ and game/challenge/, which import this
    # package. The answer calls it once the game is over and hands the template its values.
    end_panels: str = "game.play.finished.finished"


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
            urls[name] = f"{place}{SEGMENTS.get(name, name)}/"
    else:
        if game.dealt_by_daily:
            query[DAILY_FIELD] = "1"
        suffix = "?" + urlencode(query) if query else ""
        place = reverse(front.first, args=[game.deal_number])
        urls = {"page": place, "rules": query.get("rules", ""), "daily": query.get(DAILY_FIELD, "")}
        if game.dealt_by_daily:
            urls["page"] = daily_page(game.deal_number)
        for name in front.first_controls:
            urls[name] = f"{place}{SEGMENTS.get(name, name)}/" + suffix
        for name in CHANGES:
            urls[name] = f"{place}{name}/{suffix}"
    for name, url_name in front.fixed:
        urls[name] = reverse(url_name)
    if front.embed:
        # Another deal keeps the rule set (the default one unsaid).
        urls["another"] += "" if default else "?" + urlencode({"rules": game.rules})
    return urls


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
