"""The rules of La Belle Lucie in plain Python: cards, rule sets, numbered deals, moves, games.

Nothing here imports Django; the web layer calls this package and never the other way round.
"""

from .cards import DECK, Card, InvalidCardError
from .deal import (
    MAX_DEAL,
    MIN_DEAL,
    SHUFFLE_VERSION,
    InvalidDealError,
    check_deal_number,
    parse_deal_number,
)
from .hint import Hint, auto_finish, greedy_hint, hint
from .moves import REDEAL, IllegalMoveError, InvalidMoveError, Move
from .notation import InvalidRecordError, Record
from .outcome import Outcome, Termination
from .play import Play, snapshot_position, snapshot_text
from .position import InvalidPositionError, Position, card_moves, legal_moves
from .rules import (
    APP_RULES,
    DEFAULT_RULES,
    PRESETS,
    InvalidRulesError,
    Layout,
    Rules,
    every_rule_set,
)
from .transition import apply

__all__ = [
    "APP_RULES",
    "DECK",
    "DEFAULT_RULES",
    "MAX_DEAL",
    "MIN_DEAL",
    "PRESETS",
    "REDEAL",
    "SHUFFLE_VERSION",
    "Card",
    "Hint",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidDealError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRecordError",
    "InvalidRulesError",
    "Layout",
    "Move",
    "Outcome",
    "Play",
    "Position",
    "Record",
    "Rules",
    "Termination",
    "apply",
    "auto_finish",
    "card_moves",
    "check_deal_number",
    "every_rule_set",
    "greedy_hint",
    "hint",
    "legal_moves",
    "parse_deal_number",
    "snapshot_position",
    "snapshot_text",
]  # fmt: skip
