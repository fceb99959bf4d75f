"""Everything the board says, in the page's language, one module per job:

- `names`: card, suit and rank names, and the letters typed for them;
- `phrases`: a move in a line, where a move takes its card, the table, a list;
- `rule_names`: a rule set's name and description, and its options' words;
- `advice`: the hint at each of its stages, and "Show a win"'s verdict;
- `notices`: a picked card's places, a board with no card to move, what blocked a loss;
- `announcements`: the live region's sentence after a change, and a replay's steps;
- `refusals`: the message line for a refused request.

The rest of the site reads them here (`from game.board import words`, then `words.card_name`);
the modules import one another directly, never through this one.
"""

from game.board.words.advice import (
    hint,
    hint_card,
    hint_card_said,
    hint_message,
    show_a_win_verdict,
)
from game.board.words.announcements import (
    NAMED_AT_MOST,
    SAID_CHANGES,
    change_said,
    deal_summary,
    replay_step,
)
from game.board.words.names import (
    CARD_WORDS,
    RANK_LETTERS,
    SUIT_LETTERS,
    SUIT_WORDS,
    THE_CARD_WORDS,
    UNDER_CARD_WORDS,
    card_name,
    suit_name,
    the_card,
)
from game.board.words.notices import blocked, blocked_cards, choices, no_move, stuck
from game.board.words.phrases import capfirst, describe
from game.board.words.refusals import (
    NO_SUCH_STAGE,
    STALE,
    TOO_LONG,
    UNCODED,
    WORDS,
    malformed_spoken,
    nothing_to_hint,
    refusal_message,
    sentence,
    stale_message,
)
from game.board.words.rule_names import (
    APP_GAME,
    LAYOUT_TITLES,
    NO_MERCI,
    ONLY_HOME,
    rules_described,
    rules_label,
)

__all__ = [
    "APP_GAME",
    "CARD_WORDS",
    "LAYOUT_TITLES",
    "NAMED_AT_MOST",
    "NO_MERCI",
    "NO_SUCH_STAGE",
    "ONLY_HOME",
    "RANK_LETTERS",
    "SAID_CHANGES",
    "STALE",
    "SUIT_LETTERS",
    "SUIT_WORDS",
    "THE_CARD_WORDS",
    "TOO_LONG",
    "UNCODED",
    "UNDER_CARD_WORDS",
    "WORDS",
    "blocked",
    "blocked_cards",
    "capfirst",
    "card_name",
    "change_said",
    "choices",
    "deal_summary",
    "describe",
    "hint",
    "hint_card",
    "hint_card_said",
    "hint_message",
    "malformed_spoken",
    "no_move",
    "nothing_to_hint",
    "refusal_message",
    "replay_step",
    "rules_described",
    "rules_label",
    "sentence",
    "show_a_win_verdict",
    "stale_message",
    "stuck",
    "suit_name",
    "the_card",
]
