"""Words a board says on every answer, looked up in the catalogue once per language.

A move's answer names each card it draws (some fifty names, two catalogue lookups each) and says
some thirty of its templates' words. Django's gettext finds the active language through a
thread-local and walks the catalogue's fallbacks every time: before this module, about a tenth of
a move's CPU (`.venv/bin/python bench/calls.py` counts a move's calls). The catalogues do not
change while a process runs, so a word is looked up once per language and remembered.

What is remembered is bounded by the site's own words in its languages (the keys are messages
written in the code and the templates, never a player's input), and each cache has a ceiling
besides. A test that changes the languages or the catalogues' folders empties them, as Django
empties its own translations then.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import translation

R = TypeVar("R")

CEILING = 4096
"""Entries per cache: the board's words and 52 card names in each of 3 forms, in three languages,
fit many times over."""


@functools.lru_cache(maxsize=CEILING)
def _gettext(language: str | None, message: str) -> str:
    return translation.gettext(message)


@functools.lru_cache(maxsize=CEILING)
def _pgettext(language: str | None, context: str, message: str) -> str:
    return translation.pgettext(context, message)


def gettext(message: str) -> str:
    """`message` in the active language, as Django's gettext says it."""
    return _gettext(translation.get_language(), message)


def pgettext(context: str, message: str) -> str:
    """`message` in `context`, in the active language, as Django's pgettext says it."""
    return _pgettext(translation.get_language(), context, message)


def in_language(function: Callable[..., R]) -> Callable[..., R]:
    """`function` (its arguments are the site's own words and values, never a player's input)
    remembered per active language: it is called once for each language and arguments."""

    @functools.lru_cache(maxsize=CEILING)
    def remembered(language: str | None, *args: Hashable) -> R:
        return function(*args)

    _caches.append(remembered)

    @functools.wraps(function)
    def said(*args: Hashable) -> R:
        return remembered(translation.get_language(), *args)

    return said


_caches: list[Any] = [_gettext, _pgettext]


@receiver(setting_changed)
def _forget(*, setting: str, **_: Any) -> None:
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS"}:
        for cache in _caches:
            cache.cache_clear()
