"""Boards in a given state for a test (a set list of moves, a stuck game, a greedy win), the hint
kept in the cache, and what the board says to a player."""

from __future__ import annotations

import json
import re
import time
from functools import cache
from html import unescape

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

from game import engine
from game.board import store
from game.models import Game
from tests.helpers.play import legal, status_of


def a_move(game: Game, kind: str) -> engine.Move:
    for move in legal(game):
        if kind == "build" and move.onto is not None and not move.merci:
            return move
        if kind == "home" and move.to_foundation and not move.merci:
            return move
    raise AssertionError(f"deal {game.deal_number} has no {kind} move here")


def set_moves(game: Game, moves: tuple[engine.Move, ...] | list[engine.Move]) -> None:
    """Bring a stored game to the position after `moves` (as if they had been played here)."""
    store.save(game, engine.Play(game.deal_number, game.engine_rules, moves))


@cache
def greedy_game(rules: str) -> tuple[int, tuple[engine.Move, ...], str]:
    """The first deal whose greedy play ends in a win (lucie) or a loss (other rules)."""
    parsed = engine.Rules.parse(rules)
    for number in range(1, 400):
        played = engine.Play(number, parsed)
        while (found := engine.greedy_hint(played.position)) is not None:
            played.play(found.move)
        status = status_of(played)
        ended = status != "playing" and len(played.moves) > 1
        if ended and (status == "won") == (rules == "lucie"):
            return number, played.moves, status
    raise AssertionError(f"no deal found for {rules}")


@cache
def stuck_game(rules: str, *, lost: bool = False) -> tuple[int, tuple[engine.Move, ...]]:
    """A deal and moves that leave no card move with a redeal left (or, with `lost`, nothing at
    all): card moves played greedily (never a redeal or the merci) until none is left."""
    parsed = engine.Rules.parse(rules)
    for number in range(1, 300):
        played = engine.Play(number, parsed)
        while True:
            moves = [m for m in engine.card_moves(played.position) if not m.merci]
            if not moves:
                break
            played.play(next((m for m in moves if m.to_foundation), moves[0]))
        legal = engine.legal_moves(played.position)
        if lost and status_of(played) == "lost" and len(played.moves) >= 8:
            return number, tuple(played.moves)
        if not lost and engine.REDEAL in legal and not any(m.merci for m in legal):
            return number, tuple(played.moves)
    raise AssertionError("no such deal")


def kept_for(key: str) -> float:
    """Seconds until `key` leaves the cache, on the memory cache or on Redis (CACHE_URL)."""
    backend = caches["default"]
    made = backend.make_and_validate_key(key)
    if isinstance(backend, RedisCache):
        return float(backend._cache.get_client(made).ttl(made))
    assert isinstance(backend, LocMemCache)
    return backend._expire_info[made] - time.time()


def heard(html: str) -> str:
    """What a player reads or hears: the text, the spoken attributes and board.js's words."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    said = re.findall(r'(?:aria-label|title|placeholder)="([^"]*)"', html)
    for words in re.findall(r'data-words="([^"]*)"', html):
        said += [str(value) for value in _strings(json.loads(unescape(words)))]
    text = re.sub(r"<[^>]+>", " ", html)
    return re.sub(r"\s+", " ", unescape(" ".join([text, *said])))


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    return []
