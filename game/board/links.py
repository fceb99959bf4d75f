"""The board's links, reversed once per process, language and script prefix: the site's pages,
the deal's and a finished game's pages, and the winning line's buttons (a board rendered up to
twelve `{% url %}` a move before)."""

from __future__ import annotations

import functools
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_resolver, get_script_prefix, get_urlconf, reverse
from django.utils.translation import get_language

from game.board import pipeline
from game.models import Game

# The site's pages that the board links to, by URL name (the menu, the info bar, the end panels).
SITE_LINKS = ("daily", "rules", "stats", "settings", "import", "deal_lookup", "home")


_LINKS: dict[tuple[object, ...], dict[str, str]] = {}


def _url_key() -> tuple[object, ...]:
    """What a reversed URL depends on besides its name and arguments: the language (its prefix),
    the script prefix and the URLconf (a new resolver when a test changes it)."""
    return (get_language(), get_script_prefix(), get_resolver(get_urlconf()))


def site_links() -> dict[str, str]:
    """The URLs of SITE_LINKS, reversed once per process, language and prefix: the board's
    template reversed up to twelve of them per render."""
    key = _url_key()
    links = _LINKS.get(key)
    if links is None:
        links = _LINKS[key] = {name: reverse(name) for name in SITE_LINKS}
    return links


@functools.lru_cache(maxsize=4096)
def _reversed(key: tuple[object, ...], name: str, args: tuple[object, ...]) -> str:
    return reverse(name, args=args)


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


@functools.lru_cache(maxsize=4096)
def _game_urls(key: tuple[object, ...], pk: int) -> dict[str, str]:
    return {
        field: reverse(name, args=[pk] if takes_id else []) for field, name, takes_id in GAME_URLS
    }


def game_urls(pk: int) -> dict[str, str]:
    """Where a stored game's controls go (GAME_URLS), remembered per game, language and prefix:
    every answer of a game asks for the same eleven. A copy: the caller may add to it."""
    return dict(_game_urls(_url_key(), pk))


def board_links(game: Game, line: bool) -> dict[str, Any]:
    """The links a board shows besides its controls' `urls`: the site's pages, the deal's page,
    and for a finished game its replay and review, and the winning line's buttons when it is on
    show."""
    key = _url_key()
    links: dict[str, Any] = {
        "links": site_links(),
        "deal_url": _reversed(key, "deal", (game.deal_number,)),
    }
    if game.pk is not None and game.status != Game.Status.PLAYING:
        links["replay_url"] = _reversed(key, "replay", (game.replay_token,))
        links["review_url"] = _reversed(key, "review", (game.pk,))
    if game.pk is not None and line:
        links["line_urls"] = {
            "undo": _reversed(key, "undo", (game.pk,)),
            "next": _reversed(key, "solve_next", (game.pk,)),
            "out": _reversed(key, "solve_out", (game.pk,)),
        }
    return links


@receiver(setting_changed)
def _forget_links(*, setting: str, **kwargs: object) -> None:
    if setting in {"ROOT_URLCONF", "LANGUAGES", "LANGUAGE_CODE", "FORCE_SCRIPT_NAME"}:
        _LINKS.clear()
        _reversed.cache_clear()
        _game_urls.cache_clear()
