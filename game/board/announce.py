"""What the live region says after each change: one sentence in words, never the whole board.

The board page has one polite live region (`<div id="announce">`, outside the swapped board);
every board response fills it (an htmx out-of-band swap, or the full page without JavaScript).
This module turns what happened into that sentence, from engine values alone: the game after the
request, the move count of the board the request was made on, and what the request asked for.

    Six of Clubs onto the Seven of Clubs. Fan 9 now ends with the Six of Clubs; fan 4 with
    the Jack of Diamonds.
    Redeal 1 of 2: 31 cards in 11 fans.
    Hint: Ace of Spades to its foundation, from fan 3.

Fans are numbered from 1 here, as the board labels them (the engine counts from 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from game import engine
from game.engine.cards import RANK_NAMES, SUIT_NAMES, SUITS

if TYPE_CHECKING:
    from game.board.played_game import Played

# What a request may have done to a game (the names the views use). "line" is "Show a win"'s
# Next or Play it out; "auto" is Auto-finish.
ACTIONS = frozenset({"move", "undo", "redo", "redeal", "auto", "line", "solve"})

# Past this many cards sent home at once, the sentence says how far each suit got instead of
# naming every card.
NAMED_AT_MOST = 3


def change(
    game: Played,
    seen: int,
    action: str,
    *,
    auto: Sequence[bool] = (),
    assisted: bool = False,
) -> str:
    """The sentence for a request that took `game` from move count `seen` to where it is now.

    `auto` flags the logged moves that the auto-move setting played
    (game.board.played_game.Played.auto);
    `assisted` says that "Show a win" was used, so a win is not called the player's.
    """
    count = len(game.moves)
    if count > seen >= 0:
        positions = game.positions_since(seen)
        flags = list(auto[seen:count]) + [False] * (count - max(seen, len(auto)))
        text = _played(action, game.moves[seen:], positions, flags)
        return _with_outcome(text, positions[-1], assisted)
    if count < seen <= count + len(game.redo_moves):
        return _undone(game.position, game.redo_moves[: seen - count])
    return ""


def hint(position: engine.Position, found: engine.Hint) -> str:
    """The hint in words, with the fan the card lies in so that it can be found."""
    move = found.move
    if move.card is None:
        return "Hint: redeal now."
    where = position.find(move.card)
    fan = where[0] + 1 if where is not None else None
    if move.merci:
        buried = f", buried in fan {fan}," if fan is not None else ""
        return f"Hint: take the merci: the {move.card.name}{buried} {_goes(position, move)}."
    source = f", from fan {fan}" if fan is not None else ""
    return f"Hint: {move.card.name} {_goes(position, move)}{source}."


def verdict(
    status: str, left: int, next_move: engine.Move | None, position: engine.Position
) -> str:
    """ "Show a win"'s answer: the solver's status ("won", "lost", "undecided"), how many moves
    of its line are left, and the next one."""
    if status == "won":
        if next_move is None:
            return "This game can still be won from here: the line is played out."
        moves = f"{left} move{'s' if left != 1 else ''}"
        if next_move.card is None:
            first = "redeal"
        else:
            first = f"the {next_move.card.name} {_goes(position, next_move)}"
        return f"This game can still be won from here, in {moves}. Next: {first}."
    if status == "lost":
        # The solver's "lost" is a proof before the last deal too (it also tries holding cards
        # back from the foundations, which changes the next shuffle).
        return "No win is possible from here."
    return "Could not decide in time whether this game can still be won."


def choices(position: engine.Position, card: engine.Card, moves: Sequence[engine.Move]) -> str:
    """A picked card and where it may go (the selection, as the board shows it lit)."""
    where = position.find(card)
    fan = f" from fan {where[0] + 1}" if where is not None else ""
    if not moves:
        return f"The {card.name} has no move just now."
    places = [_goes(position, move) for move in moves]
    return f"{card.name}{fan} picked up: it may go {_listing(places, 'or')}."


def deal_summary(position: engine.Position) -> str:
    """Which deal this is and what is on the table: "Deal 1 of 3: 52 cards in 18 fans."."""
    total = position.rules.redeals
    number = position.redeals_used + 1
    of = f" of {total + 1}" if total is not None else ""
    return f"Deal {number}{of}: {_table(position)}."


def replay_step(
    before: engine.Position, move: engine.Move | None, after: engine.Position, step: int, last: int
) -> str:
    """A replay's step: the move that led to it, or the deal as dealt at step 0."""
    if move is None:
        return f"The deal as it was dealt: {_table(after)}."
    return f"Move {step} of {last}: {_one(before, move, after)}"


# ---------------------------------------------------------------- played and undone


def _played(
    action: str,
    moves: Sequence[engine.Move],
    positions: Sequence[engine.Position],
    auto: Sequence[bool],
) -> str:
    if action == "auto":
        return f"Auto-finish: {_home_summary(positions[0], positions[-1], moves)}"
    if action == "line" and len(moves) > 1 and not any(auto[1:]):
        return f"The winning line is played out: {len(moves)} moves."
    first = _one(positions[0], moves[0], positions[1])
    if action == "redo":
        first = f"Redo: {first}"
    rest = moves[1:]
    if not rest:
        return first
    then = _home_summary(positions[1], positions[-1], rest)
    return f"{first} Then automatically {then}"


def _one(before: engine.Position, move: engine.Move, after: engine.Position) -> str:
    """One move, with the fans it changed."""
    if move.card is None:
        return _redealt(after)
    card = move.card
    where = before.find(card)
    assert where is not None  # the move was legal, so the card was in a fan
    source = where[0]
    goes = _goes(before, move, fan=False)
    if move.merci:
        text = f"Merci: the {card.name}, drawn from under fan {source + 1}, {goes}."
    else:
        text = f"{card.name} {goes}."
    landed = after.find(card)
    ends = []
    if landed is not None:
        ends.append(f"fan {landed[0] + 1} now ends with the {card.name}")
    if not move.merci:
        ends.append(_fan_end(after, source, short=bool(ends)))
    if ends:
        joined = "; ".join(ends)
        text += f" {joined[:1].upper()}{joined[1:]}."
    return text


def _fan_end(position: engine.Position, index: int, *, short: bool) -> str:
    fan = position.fans[index]
    if not fan:
        return f"fan {index + 1} is empty"
    now = "" if short else " now"
    joiner = "with" if short else "ends with"
    return f"fan {index + 1}{now} {joiner} the {fan[-1].name}"


def _redealt(after: engine.Position) -> str:
    total = after.rules.redeals
    of = f" of {total}" if total is not None else ""
    text = f"Redeal {after.redeals_used}{of}: {_table(after)}."
    if after.merci_open:
        text += " This is the last deal: the merci is open."
    elif after.is_last_deal:
        text += " This is the last deal."
    return text


def _undone(now: engine.Position, undone: Sequence[engine.Move]) -> str:
    """Undo took back `undone` (the player's move first, then what the setting played after it)."""
    first = undone[0]
    more = len(undone) - 1
    also = f", and the {more} card{'s' if more > 1 else ''} sent home after it" if more else ""
    if first.card is None:
        return f"Undone: the redeal{also}. Back in {_lower(deal_summary(now))}"
    card = first.card
    where = now.find(card)
    back = f" The {card.name} is back on fan {where[0] + 1}." if where is not None else ""
    what = "the merci" if first.merci else f"{card.name} {_goes(now, first, fan=False)}"
    return f"Undone: {what}{also}.{back}"


def _with_outcome(text: str, after: engine.Position, assisted: bool) -> str:
    outcome = after.outcome()
    if outcome.status is engine.Status.WON:
        if assisted:
            return f"{text} All 52 cards are home, with the help of Show a win."
        return f"{text} All 52 cards are home: you won!"
    if outcome.status is engine.Status.LOST:
        return (
            f"{text} No move, redeal or merci is left: the game is over with "
            f"{after.cards_home} of 52 cards home. Undo to try another way."
        )
    return text


# ---------------------------------------------------------------- words


def _goes(position: engine.Position, move: engine.Move, *, fan: bool = True) -> str:
    """Where a move takes its card: "onto the Seven of Clubs on fan 9", "to its foundation"."""
    if move.onto is not None:
        where = position.find(move.onto) if fan else None
        on = f" on fan {where[0] + 1}" if where is not None else ""
        return f"onto the {move.onto.name}{on}"
    if move.empty_fan is not None:
        return f"into empty fan {move.empty_fan + 1}"
    return "to its foundation"


def _home_summary(
    before: engine.Position, after: engine.Position, moves: Sequence[engine.Move]
) -> str:
    """Cards sent home: each named when few, else how far each suit got."""
    home = [move.card for move in moves if move.card is not None and move.to_foundation]
    if not home:
        return f"{len(moves)} moves."
    count = f"{len(home)} card{'s' if len(home) > 1 else ''} home"
    if len(home) <= NAMED_AT_MOST:
        return f"{count}: {_listing([card.name for card in home], 'and')}."
    suits = [
        f"{SUIT_NAMES[suit]} up to the {RANK_NAMES[after.foundations[i] - 1]}"
        for i, suit in enumerate(SUITS)
        if after.foundations[i] != before.foundations[i]
    ]
    return f"{count}: {_listing(suits, 'and')}."


def _table(position: engine.Position) -> str:
    cards = sum(len(fan) for fan in position.fans)
    fans = sum(1 for fan in position.fans if fan)
    return f"{cards} card{'s' if cards != 1 else ''} in {fans} fan{'s' if fans != 1 else ''}"


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _listing(items: Sequence[str], last: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def stuck(position: engine.Position, legal: Sequence[engine.Move]) -> str:
    """What the board says at once when no card can move but a redeal or the merci is left
    (empty while a card can move, or when nothing at all is left: that is a loss)."""
    if any(not move.merci and not move.is_redeal for move in legal):
        return ""
    can_redeal = engine.REDEAL in legal
    can_merci = any(move.merci for move in legal)
    left = position.redeals_left
    redeal = "Redeal" if left is None else f"Redeal ({left} left)"
    if can_redeal and can_merci:
        return f"No moves left: {redeal}, or take the merci (a buried card)."
    if can_redeal:
        return f"No moves left: {redeal}."
    if can_merci:
        return "No moves left: take the merci. Pick a buried card to play."
    return ""


def blocked(position: engine.Position) -> list[str]:
    """At a loss, what blocked each suit: the lowest card missing from its foundation and what
    lies on it, one sentence per suit not yet complete.

    >>> from game.engine import Position
    >>> blocked(Position.start(1))[0].startswith("Clubs: the Ace of Clubs")
    True
    """
    lines = []
    for index, suit in enumerate(SUITS):
        rank = position.foundations[index] + 1
        if rank > 13:
            continue
        card = engine.Card.parse(f"{'A23456789TJQK'[rank - 1]}{suit}")
        where = position.find(card)
        if where is None:
            continue
        fan, depth = where
        above = position.fans[fan][depth + 1 :]
        if above:
            names = _listing([f"the {c.name}" for c in above], "and")
            lines.append(
                f"{SUIT_NAMES[suit]}: the {card.name} lies under {names} in fan {fan + 1}."
            )
        else:
            lines.append(f"{SUIT_NAMES[suit]}: the {card.name} is on top of fan {fan + 1}.")
    return lines
