"""What the live region says after each change: one sentence, never the whole board.

The board page has one polite live region (`<div id="announce">`, outside the swapped board);
every board response fills it (an htmx out-of-band swap, or the full page without JavaScript),
from engine values alone: the game after the request, the move count of the board the request
was made on, and what the request asked for:

    Six of Clubs onto the Seven of Clubs. Fan 9 now ends with the Six of Clubs; fan 4 with
    the Jack of Diamonds.
    Redeal 1 of 2: 31 cards in 11 fans.

A replay's steps are said in the same words (`replay_step`, `deal_summary`).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from game import engine
from game.board.words.names import UP_TO_WORDS, card_name, suit_name, the_card
from game.board.words.phrases import capfirst, goes, listing, table
from game.engine.cards import SUITS

# What a request may have done to a game (the names the views use): "show_a_win" is Show a win
# asked, "show_a_win_next" and "show_a_win_out" its Next and Play it out; "auto" is Auto-finish.
SHOW_A_WIN_STEPS = frozenset({"show_a_win_next", "show_a_win_out"})
SAID_CHANGES = frozenset(
    {"move", "undo", "redo", "redeal", "auto", "show_a_win", *SHOW_A_WIN_STEPS}
)

# Past this many cards sent home at once, the sentence says how far each suit got instead of
# naming every card.
NAMED_AT_MOST = 3


def change_said(
    game: engine.Play,
    seen: int,
    action: str,
    *,
    auto: Sequence[bool] = (),
    assisted: bool = False,
) -> str:
    """The sentence for a request that took `game` from move count `seen` to where it is now.

    `auto` flags the logged moves that the auto-move setting played (engine.Play.auto);
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


def deal_summary(position: engine.Position) -> str:
    """Which deal this is and what is on the table: "Deal 1 of 3: 52 cards in 18 fans."."""
    total = position.rules.redeals
    number = position.redeals_used + 1
    if total is not None:
        return pgettext("one of the three rounds", "Deal %(number)s of %(total)s: %(table)s.") % {
            "number": number,
            "total": total + 1,
            "table": table(position),
        }
    return pgettext("one of the three rounds", "Deal %(number)s: %(table)s.") % {
        "number": number,
        "table": table(position),
    }


def replay_step(
    before: engine.Position, move: engine.Move | None, after: engine.Position, step: int, last: int
) -> str:
    """A replay's step: the move that led to it, or the deal as dealt at step 0."""
    if move is None:
        return _("The deal as it was dealt: %(table)s.") % {"table": table(after)}
    return _("Move %(step)s of %(last)s: %(move)s") % {
        "step": step,
        "last": last,
        "move": _one(before, move, after),
    }


# ---------------------------------------------------------------- played and undone


def _played(
    action: str,
    moves: Sequence[engine.Move],
    positions: Sequence[engine.Position],
    auto: Sequence[bool],
) -> str:
    if action == "auto":
        return _("Auto-finish: %(summary)s") % {
            "summary": _home_summary(positions[0], positions[-1], moves)
        }
    if action in SHOW_A_WIN_STEPS and len(moves) > 1 and not any(auto[1:]):
        return ngettext(
            "The winning line is played out: %(count)s move.",
            "The winning line is played out: %(count)s moves.",
            len(moves),
        ) % {"count": len(moves)}
    first = _one(positions[0], moves[0], positions[1])
    if action == "redo":
        first = _("Redo: %(move)s") % {"move": first}
    rest = moves[1:]
    if not rest:
        return first
    then = _home_summary(positions[1], positions[-1], rest)
    return _("%(move)s Then automatically %(then)s") % {"move": first, "then": then}


def _one(before: engine.Position, move: engine.Move, after: engine.Position) -> str:
    """One move, with the fans it changed."""
    if move.card is None:
        return _redealt(after)
    card = move.card
    where = before.find(card)
    assert where is not None  # the move was legal, so the card was in a fan
    source = where[0]
    going = goes(before, move, fan=False)
    if move.merci:
        text = _("Merci: %(card)s, drawn from under fan %(fan)s, %(goes)s.") % {
            "card": the_card(card),
            "fan": source + 1,
            "goes": going,
        }
    else:
        text = capfirst(_("%(card)s %(goes)s.") % {"card": card_name(card), "goes": going})
    landed = after.find(card)
    ends = []
    if landed is not None:
        ends.append(_ends_with(landed[0], card))
    if not move.merci:
        ends.append(_fan_end(after, source, short=bool(ends)))
    if ends:
        joined = (
            _("%(first)s; %(second)s") % {"first": ends[0], "second": ends[1]}
            if len(ends) > 1
            else ends[0]
        )
        text += f" {capfirst(joined)}."
    return text


def _ends_with(index: int, card: engine.Card) -> str:
    return _("fan %(fan)s now ends with %(card)s") % {"fan": index + 1, "card": the_card(card)}


def _fan_end(position: engine.Position, index: int, *, short: bool) -> str:
    fan = position.fans[index]
    if not fan:
        return _("fan %(fan)s is empty") % {"fan": index + 1}
    if short:
        return _("fan %(fan)s with %(card)s") % {"fan": index + 1, "card": the_card(fan[-1])}
    return _ends_with(index, fan[-1])


def _redealt(after: engine.Position) -> str:
    total = after.rules.redeals
    values = {"number": after.redeals_used, "total": total, "table": table(after)}
    if total is not None:
        text = pgettext("a redeal taken", "Redeal %(number)s of %(total)s: %(table)s.") % values
    else:
        text = pgettext("a redeal taken", "Redeal %(number)s: %(table)s.") % values
    if after.merci_open:
        text += " " + _("This is the last deal: the merci is open.")
    elif after.is_last_deal:
        text += " " + _("This is the last deal.")
    return text


def _undone(now: engine.Position, undone: Sequence[engine.Move]) -> str:
    """Undo took back `undone` (the player's move first, then what the setting played after it)."""
    first = undone[0]
    more = len(undone) - 1
    also = (
        ngettext(
            ", and the %(count)s card sent home after it",
            ", and the %(count)s cards sent home after it",
            more,
        )
        % {"count": more}
        if more
        else ""
    )
    if first.card is None:
        total = now.rules.redeals
        values = {
            "also": also,
            "number": now.redeals_used + 1,
            "total": (total or 0) + 1,
            "table": table(now),
        }
        if total is not None:
            back_in = _("Back in deal %(number)s of %(total)s: %(table)s.") % values
        else:
            back_in = _("Back in deal %(number)s: %(table)s.") % values
        return _("Undone: the redeal%(also)s.") % values + " " + back_in
    card = first.card
    where = now.find(card)
    what = _("the merci") if first.merci else f"{card_name(card)} {goes(now, first, fan=False)}"
    text = _("Undone: %(move)s%(also)s.") % {"move": what, "also": also}
    if where is not None:
        text += " " + _("%(card)s is back on fan %(fan)s.") % {
            "card": capfirst(the_card(card)),
            "fan": where[0] + 1,
        }
    return text


def _with_outcome(text: str, after: engine.Position, assisted: bool) -> str:
    outcome = after.outcome()
    if outcome is not None and outcome.won:
        if assisted:
            return f"{text} " + _("All 52 cards are home, with the help of Show a win.")
        return f"{text} " + _("All 52 cards are home: you won!")
    if outcome is not None:
        return f"{text} " + ngettext(
            "No move, redeal or merci is left: the game is over with %(count)s of 52 cards "
            "home. Undo to try another way.",
            "No move, redeal or merci is left: the game is over with %(count)s of 52 cards "
            "home. Undo to try another way.",
            after.cards_home,
        ) % {"count": after.cards_home}
    return text


def _home_summary(
    before: engine.Position, after: engine.Position, moves: Sequence[engine.Move]
) -> str:
    """Cards sent home: each named when few, else how far each suit got."""
    home = [move.card for move in moves if move.card is not None and move.to_foundation]
    if not home:
        return ngettext("%(count)s move.", "%(count)s moves.", len(moves)) % {"count": len(moves)}
    count = ngettext("%(count)s card home", "%(count)s cards home", len(home)) % {
        "count": len(home)
    }
    if len(home) <= NAMED_AT_MOST:
        items = [card_name(card) for card in home]
    else:
        items = [
            str(UP_TO_WORDS[after.foundations[i] - 1]) % {"suit": suit_name(suit)}
            for i, suit in enumerate(SUITS)
            if after.foundations[i] != before.foundations[i]
        ]
    return pgettext("a count, then what it counts", "%(count)s: %(items)s.") % {
        "count": count,
        "items": listing(items, "and"),
    }
