"""What a game's text columns hold, read back: the rule set its `rules` column names and the
moves of its log (each parsed once per process), and the unguessable tokens its links use.
"""

from __future__ import annotations

import functools
import secrets

from game import engine


@functools.lru_cache(maxsize=256)
def rules_named(name: str) -> engine.Rules:
    """The rule set a game's `rules` column names, parsed once per process per name (a move
    loads its game's rules on every request; engine.Rules is an immutable value)."""
    return engine.Rules.parse(name)


def parse_moves(text: str) -> list[engine.Move]:
    """A stored log's moves. Each request loads its game's whole log, so a move's text is read
    once per process (engine.Move is an immutable value; the texts of moves are few)."""
    return [_stored_move(token) for token in text.split()]


@functools.lru_cache(maxsize=8192)
def _stored_move(token: str) -> engine.Move:
    return engine.Move.parse(token)


def new_token() -> str:
    """An unguessable name for a game, for links that cannot rest on the session (embed, replay)."""
    return secrets.token_urlsafe(24)
