"""The fair hint: strong play that sees only what a player sees.

The next layout after a redeal depends only on which cards are still out (they are gathered in
canonical order and shuffled), so before a redeal the choice that matters is which foundations to
reach in this deal. The hint lists every set of foundations reachable in the deal, keeps those
that nothing reachable beats in every suit, and scores each by shuffling the cards left with a
generator of its own: when the next deal is the last, by solving each sample exactly. It never
computes the real shuffle; its samples are seeded from the cards home alone, so the same position
always gets the same hint. In the last deal nothing is hidden and it searches the deal exactly.

One shortcut: under a free merci, a card that could go home is, very rarely, the place where the
merci should land; looking for that costs seconds, so the hint always plays such cards home.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass

from .budget import Budget, BudgetExceeded, DeadlineReached
from .deal import SplitMix64
from .foundation_sets import cards_home, pareto, unpack_foundations
from .moves import REDEAL, Move
from .position import Position, legal_moves
from .rules import Rules
from .search import DealSearch
from .search_state import Key, Step

SAMPLES = 12
"""Shuffles tried for each choice of foundations when the next deal is the last."""

LAST_DEAL_NODES = 150_000
"""Beyond this the last deal is not searched to the end and the hint falls back to a heuristic.
A free merci, which may land on any fan, makes each node dearer: it gets a fifth of this."""

LOST_DEAL_NODES = 20_000
"""In a last deal that cannot be won, how hard to look for the most cards home."""

SAMPLE_NODES = 4_000
"""Budget for solving one sampled last deal; a sample past it counts as half a win."""

OUTER_SAMPLES = 6
"""Shuffles tried for each choice of foundations when two deals are still to come."""

INNER_SAMPLES = 4
"""Shuffles of the last deal tried for each sample of the deal before it."""

REACH_NODES = 400_000
"""Budget for listing the foundations reachable in a deal before a redeal."""


@dataclass(frozen=True, slots=True)
class FairMove:
    """The fair hint's move, and whether its budget ran out first (`cut`): then the move is the
    best the search had found when it stopped."""

    move: Move
    cut: bool = False


def fair_move(position: Position, budget: Budget | None = None) -> FairMove | None:
    """The fair hint's move within `budget` (its deadline included), or None when it has no
    opinion (the game is won, or the search found nothing before the deadline): the caller
    falls back on a heuristic."""
    budget = budget if budget is not None else Budget()
    if position.cards_home == 52:
        return None
    if not position.can_redeal:
        return _last_deal_move(position, budget)
    return _before_redeal_move(position, budget)


# ---------------------------------------------------------------------- the last deal


LAST_DEAL_KEPT = 300_000
"""Last-deal positions remembered between hints (shown lost, or their most cards home): a hint
cut short by its deadline leaves what it proved, and the next hint goes on from there."""

_shown_lost: dict[tuple[bool, bool, bool, bool], set[Key]] = {}
_most_home: dict[tuple[bool, bool, bool, bool], dict[Key, int]] = {}


def _last_deal_tables(rules: Rules) -> tuple[set[Key], dict[Key, int]]:
    """The tables for last deals under these rules. A position's key holds the whole layout
    and the mercis left, so only the options that change the moves tell tables apart."""
    kind = (rules.free_merci, rules.kings_fill_empty, rules.once, rules.stuck)
    lost = _shown_lost.setdefault(kind, set())
    most = _most_home.setdefault(kind, {})
    if len(lost) + len(most) > LAST_DEAL_KEPT:
        lost.clear()
        most.clear()
    return lost, most


def positions_known() -> int:
    """How many last-deal positions the tables hold (shown lost, or with their most cards
    home)."""
    return sum(map(len, _shown_lost.values())) + sum(map(len, _most_home.values()))


def _last_deal_move(position: Position, budget: Budget) -> FairMove | None:
    nodes = LAST_DEAL_NODES // 5 if position.rules.free_merci else LAST_DEAL_NODES
    search = DealSearch.from_position(position, budget.share(nodes))
    lost, most = _last_deal_tables(position.rules)
    cut = False
    try:
        if search.wins(lost):
            assert search.won_line is not None
            line = search.won_line
        else:  # lost whatever happens: bring home what can be, if that is quick to find
            search.budget = budget.share(LOST_DEAL_NODES)
            line = search.best_line(most)[1]
    except BudgetExceeded:
        search.rewind()
        line, cut = search.best_seen_line, True
    if not line:
        return None
    return FairMove(search.moves_of(line[:1])[0], cut)


# ---------------------------------------------------------------------- before a redeal


def _before_redeal_move(position: Position, budget: Budget) -> FairMove | None:
    search = DealSearch.from_position(position, budget.share(REACH_NODES), mercis=False)
    reach: dict[int, list[Step]] = {}
    cut = False
    try:
        search.reachable(into=reach)
    except BudgetExceeded:
        search.rewind()
        cut = True
    choices = pareto(list(reach))
    if cut:  # an unfinished list: never redeal on it while some line leads anywhere
        choices = [packed for packed in choices if reach[packed]] or choices
    left = position.redeals_left
    after = None if left is None else left - 1
    values: dict[int, float] = {}
    if len(choices) > 1:
        for packed in choices:  # most cards home first, so a cut keeps the likeliest
            try:
                values[packed] = _value(position.rules, packed, after, budget)
            except DeadlineReached:
                cut = True
                break
    if values:
        best = max(values, key=lambda packed: (values[packed], packed))
    elif choices:
        best = choices[0]
    else:
        return None
    line = reach[best]
    if not line:
        return None if cut else FairMove(REDEAL)
    return FairMove(search.moves_of(line[:1])[0], cut)


def _value(rules: Rules, packed: int, redeals_after: int | None, budget: Budget) -> float:
    """How good it is to redeal with these foundations; higher is better. Raises
    DeadlineReached when the budget's deadline comes first."""
    home = cards_home(packed)
    if home == 52:
        return 2.0
    if redeals_after == 0:
        return _last_deal_odds(rules, packed, SAMPLES, budget) + home / 1000
    if redeals_after == 1:
        return _second_last_odds(rules, packed, budget) + home / 1000
    return home / 52


_odds: dict[tuple[str, Rules, int, int], float] = {}
"""Odds already sampled to the end: pure functions of the rules and the cards home."""

ODDS_KEPT = 8192


def _remember(key: tuple[str, Rules, int, int], value: float) -> float:
    if len(_odds) >= ODDS_KEPT:
        _odds.clear()
    _odds[key] = value
    return value


def _second_last_odds(rules: Rules, packed: int, budget: Budget) -> float:
    """With two deals to come: the mean, over sampled shuffles of the next deal, of the best odds
    (on fewer samples) that the foundations it can reach give the last deal."""
    key = ("outer", rules, packed, OUTER_SAMPLES)
    if key in _odds:
        return _odds[key]
    total = 0.0
    for fans, foundations in _samples(rules, packed, OUTER_SAMPLES, "outer"):
        search = DealSearch.under(rules, fans, foundations, 0, budget.share(REACH_NODES))
        try:
            reach = search.reachable()
        except DeadlineReached:
            raise
        except BudgetExceeded:
            total += cards_home(packed) / 52
            continue
        choices = pareto(list(reach))
        total += max(_last_deal_odds(rules, choice, INNER_SAMPLES, budget) for choice in choices)
    return _remember(key, total / OUTER_SAMPLES)


def _last_deal_odds(rules: Rules, packed: int, samples: int, budget: Budget) -> float:
    """The share of sampled shuffles of the cards still out whose last deal can be won."""
    key = ("last", rules, packed, samples)
    if key in _odds:
        return _odds[key]
    score = 0.0
    for fans, foundations in _samples(rules, packed, samples, "last"):
        search = DealSearch.under(
            rules, fans, foundations, rules.mercis, budget.share(SAMPLE_NODES)
        )
        try:
            score += search.wins(set())
        except DeadlineReached:
            raise
        except BudgetExceeded:
            score += 0.5
    return _remember(key, score / samples)


def _samples(
    rules: Rules, packed: int, count: int, purpose: str
) -> Iterator[tuple[list[list[int]], tuple[int, int, int, int]]]:
    """`count` shuffles of the cards still out, laid in fans of three, from our own seed."""
    foundations = unpack_foundations(packed)
    out = [suit * 13 + rank for suit in range(4) for rank in range(foundations[suit], 13)]
    rng = SplitMix64(_sample_seed(rules, packed, purpose))
    for _ in range(count):
        cards = list(out)
        for i in range(len(cards) - 1, 0, -1):
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        yield [cards[i : i + 3] for i in range(0, len(cards), 3)], foundations


def _sample_seed(rules: Rules, packed: int, purpose: str) -> int:
    """A seed from what the player sees (the rules and the cards home), never the deal's own."""
    text = f"fair-hint:{purpose}:{rules.name}:{packed}"
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def checked(position: Position, move: Move) -> bool:
    """Whether the rules allow `move` here (a guard: the search should only ever find these)."""
    return move in legal_moves(position)


def clear_caches() -> None:
    """Forget the sampled odds (pure functions of the rules and the cards home) and the last
    deals' tables (pure functions of the positions)."""
    _odds.clear()
    _shown_lost.clear()
    _most_home.clear()
