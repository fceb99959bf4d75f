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


def url_of(name: str, *args: object) -> str:
    """`reverse(name, args=args)`, remembered per language and prefix (a deal's link, a game's
    Undo): the board asks for the same few on every move of a game."""
    return _reversed(_url_key(), name, args)


def board_links(game: Game, line: bool) -> dict[str, Any]:
    """The links a board shows besides its controls' `urls`: the site's pages, the deal's page,
    and for a finished game its replay and review, and the winning line's buttons when it is on
    show."""
    links: dict[str, Any] = {"links": site_links(), "deal_url": url_of("deal", game.deal_number)}
    if game.pk is not None and game.status != Game.Status.PLAYING:
        links["replay_url"] = url_of("replay", game.replay_token)
        links["review_url"] = url_of("review", game.pk)
    if game.pk is not None and line:
        links["line_urls"] = {
            "undo": url_of("undo", game.pk),
            "next": url_of("solve_next", game.pk),
            "out": url_of("solve_out", game.pk),
        }
    return links


@receiver(setting_changed)
def _forget_links(*, setting: str, **kwargs: object) -> None:
    if setting in {"ROOT_URLCONF", "LANGUAGES", "LANGUAGE_CODE", "FORCE_SCRIPT_NAME"}:
        _LINKS.clear()
        _reversed.cache_clear()
