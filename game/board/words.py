"""The board's words in the page's language: what it says, and the words it says it with.

- **Words** (the first section): card, suit and rank names, the keys typed for them, a move in a
  line, where a move takes its card, lists. The engine names cards in English ("Six of Clubs");
  the web layer says them in the page's language, built from the rank and the suit. Each rank
  has its own entry (and one with the definite article) because the article and the word order
  depend on the rank: French "l'as de trèfle" but "le six de trèfle", German "Kreuz-Sechs".
- **Notices**: what the board says outside a change: the hint, "Show a win"'s verdict, a picked
  card's places, the notice when no card can move, and what blocked each suit at a loss.
- **Announcements**: what the live region says after each change: one sentence, never the
  whole board. The board page has one polite live region (`<div id="announce">`, outside the
  swapped board); every board response fills it (an htmx out-of-band swap, or the full page
  without JavaScript), from engine values alone: the game after the request, the move count of
  the board the request was made on, and what the request asked for:

      Six of Clubs onto the Seven of Clubs. Fan 9 now ends with the Six of Clubs; fan 4 with
      the Jack of Diamonds.
      Redeal 1 of 2: 31 cards in 11 fans.

- **Refusals**: the message line for a refused request. The engine says why a move is refused
  in English (`str(error)`), and beside it a `code` and the values the sentence names
  (`error.params`: cards, a fan counted from 0, a quoted text; see game.engine.moves.MoveError).
  Each code is worded again here with gettext. A refusal raised without a code (the web layer's
  own: undo with nothing to undo, a game that is over) is found by its English text in
  `UNCODED`; any other error (one already worded in the page's language, as
  game/board/show_a_win.py's) is shown as it is.

Fans are numbered from 1 here, as the board labels them (the engine counts from 0).

    >>> from django.utils import translation
    >>> from game import engine
    >>> error = engine.IllegalMoveError("no redeals are left", "no_redeals_left")
    >>> with translation.override("fr"):
    ...     refusal_message(error)
    'Il ne reste plus de redistribution.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.utils.translation import (
    gettext,
    gettext_lazy,
    gettext_noop,
    ngettext,
    npgettext,
    pgettext,
    pgettext_lazy,
)
from django.utils.translation import gettext as _

from game import engine
from game.board import store
from game.engine.cards import SUITS
from game.engine.moves import MoveError, Param
from game.ops import limits

SUIT_WORDS = {
    "C": pgettext_lazy("suit, in a card's name", "Clubs"),
    "D": pgettext_lazy("suit, in a card's name", "Diamonds"),
    "H": pgettext_lazy("suit, in a card's name", "Hearts"),
    "S": pgettext_lazy("suit, in a card's name", "Spades"),
}

# Translators: a card's spoken name (a screen reader says it); %(suit)s is the suit.
CARD_WORDS = (
    pgettext_lazy("a card's name", "Ace of %(suit)s"),
    pgettext_lazy("a card's name", "Two of %(suit)s"),
    pgettext_lazy("a card's name", "Three of %(suit)s"),
    pgettext_lazy("a card's name", "Four of %(suit)s"),
    pgettext_lazy("a card's name", "Five of %(suit)s"),
    pgettext_lazy("a card's name", "Six of %(suit)s"),
    pgettext_lazy("a card's name", "Seven of %(suit)s"),
    pgettext_lazy("a card's name", "Eight of %(suit)s"),
    pgettext_lazy("a card's name", "Nine of %(suit)s"),
    pgettext_lazy("a card's name", "Ten of %(suit)s"),
    pgettext_lazy("a card's name", "Jack of %(suit)s"),
    pgettext_lazy("a card's name", "Queen of %(suit)s"),
    pgettext_lazy("a card's name", "King of %(suit)s"),
)

# Translators: a card's name inside a sentence, with the definite article where the language
# wants one ("onto the Seven of Clubs").
THE_CARD_WORDS = (
    pgettext_lazy("a card's name in a sentence", "the Ace of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Two of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Three of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Four of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Five of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Six of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Seven of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Eight of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Nine of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Ten of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Jack of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the Queen of %(suit)s"),
    pgettext_lazy("a card's name in a sentence", "the King of %(suit)s"),
)

# Translators: a card's name after "under" ("lies under the Jack of Diamonds"), in the case
# that word takes: German wants the dative ("unter dem Karo-Buben"). Keep the article if
# "a card's name in a sentence" has one.
UNDER_CARD_WORDS = (
    pgettext_lazy("a card's name after under", "the Ace of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Two of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Three of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Four of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Five of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Six of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Seven of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Eight of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Nine of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Ten of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Jack of %(suit)s"),
    pgettext_lazy("a card's name after under", "the Queen of %(suit)s"),
    pgettext_lazy("a card's name after under", "the King of %(suit)s"),
)

# Translators: how far a suit's foundation got after several cards went home at once:
# "Clubs up to the Five". %(suit)s is the suit.
UP_TO_WORDS = (
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Ace"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Two"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Three"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Four"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Five"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Six"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Seven"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Eight"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Nine"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Ten"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Jack"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the Queen"),
    pgettext_lazy("a foundation built up to this rank", "%(suit)s up to the King"),
)

# Translators: a suit on its own, as a foundation's name and at the head of "what blocked".
SUIT_TITLES = {
    "C": pgettext_lazy("a suit on its own", "Clubs"),
    "D": pgettext_lazy("a suit on its own", "Diamonds"),
    "H": pgettext_lazy("a suit on its own", "Hearts"),
    "S": pgettext_lazy("a suit on its own", "Spades"),
}

# Translators: the letter a player types for each rank, Ace to King, separated by spaces (then
# the suit's letter picks the card). Use the letters of your card names; the English letters
# always work too.
RANK_LETTERS = pgettext_lazy("rank letters typed on the keyboard", "A 2 3 4 5 6 7 8 9 10 J Q K")
# Translators: the letter a player types for each suit after a rank, in the order Clubs,
# Diamonds, Hearts, Spades, separated by spaces. The English letters still work where free.
SUIT_LETTERS = pgettext_lazy("suit letters typed on the keyboard", "C D H S")


def suit_name(suit: str) -> str:
    return str(SUIT_TITLES[suit])


def card_name(card: engine.Card) -> str:
    """A card's spoken name in the page's language: "Six of Clubs", « six de trèfle »."""
    return str(CARD_WORDS[card.rank - 1]) % {"suit": SUIT_WORDS[card.suit]}


def the_card(card: engine.Card) -> str:
    """A card's name inside a sentence: "the Six of Clubs", « le six de trèfle »."""
    return str(THE_CARD_WORDS[card.rank - 1]) % {"suit": SUIT_WORDS[card.suit]}


def under_card(card: engine.Card) -> str:
    """A card's name after "under": « sous le valet de carreau », "unter dem Karo-Buben"."""
    return str(UNDER_CARD_WORDS[card.rank - 1]) % {"suit": SUIT_WORDS[card.suit]}


def capfirst(text: str) -> str:
    return text[:1].upper() + text[1:]


def describe(move: engine.Move) -> str:
    """A move in a line a player reads: "Six of Clubs onto the Seven of Clubs" (engine's
    Move.describe, in the page's language)."""
    if move.card is None:
        return pgettext("a move in a list", "Redeal")
    name = card_name(move.card)
    if move.onto is not None:
        text = _("%(card)s onto %(target)s") % {"card": name, "target": the_card(move.onto)}
    elif move.empty_fan is not None:
        text = _("%(card)s into the empty fan") % {"card": name}
    else:
        text = _("%(card)s to its foundation") % {"card": name}
    return _("Merci: %(move)s") % {"move": text} if move.merci else text


def goes(position: engine.Position, move: engine.Move, *, fan: bool = True) -> str:
    """Where a move takes its card: "onto the Seven of Clubs on fan 9", "to its foundation"."""
    if move.onto is not None:
        where = position.find(move.onto) if fan else None
        if where is not None:
            return _("onto %(card)s on fan %(fan)s") % {
                "card": the_card(move.onto),
                "fan": where[0] + 1,
            }
        return _("onto %(card)s") % {"card": the_card(move.onto)}
    if move.empty_fan is not None:
        return _("into empty fan %(fan)s") % {"fan": move.empty_fan + 1}
    return _("to its foundation")


def table(position: engine.Position) -> str:
    cards = sum(len(fan) for fan in position.fans)
    fans = sum(1 for fan in position.fans if fan)
    return _("%(cards)s in %(fans)s") % {
        "cards": ngettext("%(count)s card", "%(count)s cards", cards) % {"count": cards},
        "fans": npgettext(
            "after “in”: 31 cards in 11 fans", "%(count)s fan", "%(count)s fans", fans
        )
        % {"count": fans},
    }


def listing(items: Sequence[str], last: str) -> str:
    """ "a, b and c" (`last` "and" or "or") in the page's language."""
    if len(items) <= 1:
        return "".join(items)
    word = (
        pgettext("the last of a list", "or")
        if last == "or"
        else pgettext("the last of a list", "and")
    )
    return f"{', '.join(items[:-1])} {word} {items[-1]}"


# ---------------------------------------------------------------- rule sets

# The engine's `Rules.label` and `Rules.describe` are the English words (and the one source of
# what a rule set is); these say the same in the page's language, built from the rule set's
# values, so that statistics tabs, replays, records and the board all show them alike.

LAYOUT_TITLES = {
    engine.Layout.STANDARD: pgettext_lazy("a rule set's name", "La Belle Lucie"),
    engine.Layout.TREFOIL: pgettext_lazy("a rule set's name", "Trefoil"),
    engine.Layout.SIXTEEN: pgettext_lazy("a rule set's name", "Sixteen fans"),
}
NO_MERCI = gettext_lazy("La Belle Lucie, no merci")
# Translators: the rule set of the La Belle Lucie app: the free merci, and a card moved from one
# fan to another may then only go home.
APP_GAME = gettext_lazy("the app's game")
# Translators: said after a card's name to a screen reader, and as the card's tooltip, under the
# rule that a card moved from one fan to another may then only go to its foundation.
ONLY_HOME = gettext_lazy("moved once: it may only go home")


def _title(rules: engine.Rules) -> tuple[str, bool]:
    no_merci_base = (
        rules.layout is engine.Layout.STANDARD and rules.mercis == 0 and rules.redeals is not None
    )
    return (str(NO_MERCI) if no_merci_base else str(LAYOUT_TITLES[rules.layout])), no_merci_base


def _redeals(n: int) -> str:
    return ngettext("%(count)s redeal", "%(count)s redeals", n) % {"count": n}


def _mercis(n: int) -> str:
    return ngettext("%(count)s merci", "%(count)s mercis", n) % {"count": n}


def rules_label(rules: engine.Rules) -> str:
    """The engine's Rules.label in the page's language: "Sixteen fans (3 redeals, Kings fill
    empty fans)"."""
    title, no_merci_base = _title(rules)
    changes = []
    if rules.redeals is None:
        changes.append(_("unlimited redeals, no merci"))
    else:
        if rules.redeals != 2:
            changes.append(_("no redeal") if rules.redeals == 0 else _redeals(rules.redeals))
        if rules.mercis != (0 if no_merci_base else 1):
            changes.append(_("no merci") if rules.mercis == 0 else _mercis(rules.mercis))
    if rules.free_merci:
        changes.append(_("free merci"))
    if rules.once:
        changes.append(_("a moved card only goes home"))
    if rules.stuck:
        changes.append(_("merci only when stuck"))
    if rules.kings_fill_empty:
        changes.append(_("Kings fill empty fans"))
    if not changes:
        return title
    return _("%(title)s (%(changes)s)") % {"title": title, "changes": ", ".join(changes)}


def rules_described(rules: engine.Rules) -> str:
    """The engine's Rules.describe in the page's language: "La Belle Lucie: 2 redeals, 1 merci"."""
    title, _base = _title(rules)
    redeals = _("unlimited redeals") if rules.redeals is None else _redeals(rules.redeals)
    details = [redeals, _mercis(rules.mercis)]
    if rules.free_merci:
        details.append(_("free merci"))
    if rules.once:
        details.append(_("a card moved onto another fan may then only go home"))
    if rules.stuck:
        details.append(_("the merci only when no other move is left"))
    if rules.kings_fill_empty:
        details.append(_("Kings may fill an empty fan"))
    return _("%(title)s: %(details)s") % {"title": title, "details": ", ".join(details)}


# ---------------------------------------------------------------- notices


def hint(position: engine.Position, found: engine.Hint) -> str:
    """The hint in words, with the fan the card lies in so that it can be found."""
    move = found.move
    if move.card is None:
        return _("Hint: redeal now.")
    where = position.find(move.card)
    fan = where[0] + 1 if where is not None else None
    going = goes(position, move)
    if move.merci:
        if fan is not None:
            return _("Hint: take the merci: %(card)s, buried in fan %(fan)s, %(goes)s.") % {
                "card": the_card(move.card),
                "fan": fan,
                "goes": going,
            }
        return _("Hint: take the merci: %(card)s %(goes)s.") % {
            "card": the_card(move.card),
            "goes": going,
        }
    if fan is not None:
        return _("Hint: %(card)s %(goes)s, from fan %(fan)s.") % {
            "card": card_name(move.card),
            "goes": going,
            "fan": fan,
        }
    return _("Hint: %(card)s %(goes)s.") % {"card": card_name(move.card), "goes": going}


def hint_card(position: engine.Position, found: engine.Hint) -> str:
    """The hint's first stage in words (the message line's): the card to play and the fan it
    lies in, not where it goes, which a second press of Hint shows. A redeal has no second
    stage: it is said whole (`hint_message`)."""
    move = found.move
    if move.card is None:
        return hint_message(position, found)
    where = position.find(move.card)
    values = {"card": the_card(move.card), "fan": where[0] + 1 if where is not None else 0}
    if move.merci:
        if where is not None:
            return _("Hint: take the merci: %(card)s, buried in fan %(fan)s.") % values
        return _("Hint: take the merci: %(card)s.") % values
    if where is not None:
        return _("Hint: play %(card)s, from fan %(fan)s.") % values
    return _("Hint: play %(card)s.") % values


HINT_AGAIN = gettext_lazy("Press Hint again to see where it goes.")


def hint_card_said(position: engine.Position, found: engine.Hint) -> str:
    """What the live region says at the hint's first stage: the card, and that a second press
    says where it goes (a redeal's hint is whole at once)."""
    said = hint_card(position, found)
    return said if found.move.card is None else f"{said} {HINT_AGAIN}"


def show_a_win_verdict(
    status: str,
    left: int,
    next_move: engine.Move | None,
    position: engine.Position,
    search_on: str = "",
) -> str:
    """ "Show a win"'s answer: the solver's status ("won", "lost", "undecided"), how many moves
    of its line are left, and the next one; for an undecided one, how the search on that
    followed stands (`search_on`: game/board/show_a_win_job.py)."""
    if status == "won":
        if next_move is None:
            return _("This game can still be won from here: the line is played out.")
        if next_move.card is None:
            first = pgettext("the next move of the winning line", "redeal")
        else:
            first = f"{the_card(next_move.card)} {goes(position, next_move)}"
        return ngettext(
            "This game can still be won from here, in %(count)s move. Next: %(first)s.",
            "This game can still be won from here, in %(count)s moves. Next: %(first)s.",
            left,
        ) % {"count": left, "first": first}
    if status == "lost":
        # The solver's "lost" is a proof before the last deal too (it also tries holding cards
        # back from the foundations, which changes the next shuffle).
        return _("No win is possible from here.")
    if search_on == "working":
        return _("Still looking for a win from here…")
    if search_on == "exhausted":
        return _("Even a long look could not tell whether this game can still be won from here.")
    if search_on == "failed":
        return _("The longer look for a win could not be finished: ask again in a few minutes.")
    if search_on == "refused":
        return _("Could not look further just now: ask again in a few minutes.")
    return _("Could not decide in time whether this game can still be won.")


def choices(position: engine.Position, card: engine.Card, moves: Sequence[engine.Move]) -> str:
    """A picked card and where it may go (the selection, as the board shows it lit)."""
    if not moves:
        return no_move(card)
    where = position.find(card)
    places = listing([goes(position, move) for move in moves], "or")
    if where is not None:
        return capfirst(
            _("%(card)s from fan %(fan)s picked up: it may go %(places)s.")
            % {"card": card_name(card), "fan": where[0] + 1, "places": places}
        )
    return capfirst(
        _("%(card)s picked up: it may go %(places)s.") % {"card": card_name(card), "places": places}
    )


def no_move(card: engine.Card) -> str:
    """ "The Six of Clubs has no move just now." """
    return _("%(card)s has no move just now.") % {"card": capfirst(the_card(card))}


def stuck(position: engine.Position, legal: Sequence[engine.Move]) -> str:
    """What the board says at once when no card can move but a redeal or the merci is left
    (empty while a card can move, or when nothing at all is left: that is a loss)."""
    if any(not move.merci and not move.is_redeal for move in legal):
        return ""
    can_redeal = engine.REDEAL in legal
    can_merci = any(move.merci for move in legal)
    left = position.redeals_left
    if left is None:
        redeal = pgettext("the Redeal button", "Redeal")
    else:
        redeal = ngettext("Redeal (%(count)s left)", "Redeal (%(count)s left)", left) % {
            "count": left
        }
    if can_redeal and can_merci:
        return _("No moves left: %(redeal)s, or take the merci (a buried card).") % {
            "redeal": redeal
        }
    if can_redeal:
        return _("No moves left: %(redeal)s.") % {"redeal": redeal}
    if can_merci:
        return _("No moves left: take the merci. Pick a buried card to play.")
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
        values = {"suit": suit_name(suit), "card": the_card(card)}
        # No fan number: the board numbers no fan. The card is marked on the felt instead
        # (blocked_cards), so the sentence points at what the player sees.
        if above:
            values["cards"] = listing([under_card(c) for c in above], "and")
            line = _("%(suit)s: %(card)s (marked) lies under %(cards)s.") % values
        else:
            line = _("%(suit)s: %(card)s (marked) is on top of its fan.") % values
        lines.append(capfirst(line))
    return lines


def blocked_cards(position: engine.Position) -> list[str]:
    """At a loss, the codes of the cards `blocked` names: each unfinished suit's next card,
    where it lies in a fan. The board marks them.

    >>> from game.engine import Position
    >>> blocked_cards(Position.start(1))
    ['AC', 'AD', 'AH', 'AS']
    """
    codes = []
    for index, suit in enumerate(SUITS):
        rank = position.foundations[index] + 1
        if rank > 13:
            continue
        card = engine.Card.parse(f"{'A23456789TJQK'[rank - 1]}{suit}")
        if position.find(card) is not None:
            codes.append(card.code)
    return codes


def hint_message(position: engine.Position, found: engine.Hint) -> str:
    """What the board's message line says for a hint (the words of game/board/drawn.py's
    hint_message, in the page's language): the move, and plainly when it is a redeal or the
    merci, naming the buried card and the fan it lies in."""
    move = found.move
    if move.card is None:
        return _("Hint: Redeal now.")
    if move.merci:
        if move.onto is not None:
            goes = _("onto %(card)s") % {"card": the_card(move.onto)}
        elif move.empty_fan is not None:
            goes = _("into the empty fan")
        else:
            goes = _("to its foundation")
        where = position.find(move.card)
        if where is not None:
            return _("Hint: take the merci: %(card)s, buried in fan %(fan)s, %(goes)s.") % {
                "card": the_card(move.card),
                "fan": where[0] + 1,
                "goes": goes,
            }
        return _("Hint: take the merci: %(card)s %(goes)s.") % {
            "card": the_card(move.card),
            "goes": goes,
        }
    return _("Hint: %(move)s.") % {"move": describe(move)}


# ---------------------------------------------------------------- announcements

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


# ---------------------------------------------------------------- refusals

# Translators: why a move or a request was refused, shown under the board. %(card)s, %(onto)s and
# %(top)s are cards named as in a sentence ("the Six of Clubs", « le six de trèfle »,
# „Kreuz-Sechs“); %(fan)s is a fan's number as the board shows it; %(text)s is what was sent,
# quoted. Write them in lower case: the first letter is made a capital and a full stop is added.
WORDS = {
    "already_home": pgettext_lazy("a refused move", "%(card)s is already on its foundation"),
    "buried": pgettext_lazy(
        "a refused move", "%(card)s is not on top of its fan: only top cards move"
    ),
    "home_needs_ace": pgettext_lazy(
        "a refused move", "%(card)s cannot go home yet: its foundation starts with the Ace"
    ),
    "home_not_next": pgettext_lazy(
        "a refused move", "%(card)s cannot go home yet: its foundation has reached %(top)s"
    ),
    "won_no_redeal": pgettext_lazy("a refused move", "the game is won: there is nothing to redeal"),
    "no_redeals_left": pgettext_lazy("a refused move", "no redeals are left"),
    "no_merci_rules": pgettext_lazy("a refused move", "these rules have no merci"),
    "merci_used": pgettext_lazy("a refused move", "the merci has been used"),
    "merci_not_last_deal": pgettext_lazy(
        "a refused move", "the merci may only be taken in the last deal"
    ),
    "merci_on_top": pgettext_lazy(
        "a refused move", "%(card)s is on top: the merci draws a buried card"
    ),
    "onto_buried": pgettext_lazy("a refused move", "%(onto)s is not on top of a fan"),
    "wrong_build": pgettext_lazy(
        "a refused move",
        "%(card)s cannot go onto %(onto)s: a card builds only on the next higher card of its "
        "own suit",
    ),
    "not_empty": pgettext_lazy("a refused move", "fan %(fan)s is not an empty fan"),
    "empty_stays_empty": pgettext_lazy(
        "a refused move", "an emptied fan stays empty under these rules"
    ),
    "only_a_king": pgettext_lazy(
        "a refused move", "only a King may fill an empty fan, not %(card)s"
    ),
    "alone": pgettext_lazy("a refused move", "%(card)s is alone in its fan already"),
    "moved_once": pgettext_lazy(
        "a refused move",
        "%(card)s has moved from one fan to another in this deal: now it may only go to its "
        "foundation",
    ),
    "merci_not_stuck": pgettext_lazy(
        "a refused move", "the merci may be taken only when no other move is left"
    ),
    "not_a_move": pgettext_lazy("a refused move", "%(text)s is not a move"),
    "not_a_move_form": pgettext_lazy(
        "a refused move", "%(text)s is not a move: write it like 6C>7C, 6C>F, *6C>F or R"
    ),
    "too_many_fans": pgettext_lazy(
        "a refused move", "%(text)s is not a move: no layout has that many fans"
    ),
    "not_a_card": pgettext_lazy(
        "a refused move",
        "%(text)s is not a move: write a card like 6C, a rank from %(ranks)s and a suit from "
        "%(suits)s",
    ),
    # The web layer's own refusals (see UNCODED).
    "no_undo": pgettext_lazy("a refused move", "there is no move to undo"),
    "no_redo": pgettext_lazy("a refused move", "there is no move to redo"),
    "nothing_home": pgettext_lazy("a refused move", "no card can go to its foundation just now"),
    "no_board_count": pgettext_lazy(
        "a refused move", "the request did not say which board it was made on"
    ),
    "clock_state": pgettext_lazy("a refused move", "a clock request says pause or resume"),
    "no_hint_stage": pgettext_lazy(
        "a refused move", "a hint shows the card to play (stage 1), then where it goes (stage 2)"
    ),
    "game_won": pgettext_lazy("a refused move", "this game is won: start a new one"),
    "game_abandoned": pgettext_lazy(
        "a refused move", "this game was left for another one and is over"
    ),
    "game_superseded": pgettext_lazy(
        "a refused move", "this game is over and a newer one has been dealt since"
    ),
}

# A hint's request that names no stage a hint has (game.board.forms raises it).
NO_SUCH_STAGE = "a hint shows the card to play (stage 1), then where it goes (stage 2)"

# The refusals raised with their English text alone (game/board/actions.py, engine.Play,
# store.py), by that text. A raise site that passes the code instead needs no entry here.
UNCODED = {
    "there is no move to undo": "no_undo",
    "there is no move to redo": "no_redo",
    "no card can go to its foundation just now": "nothing_home",
    "the request did not say which board it was made on": "no_board_count",
    "a clock request says pause or resume": "clock_state",
    NO_SUCH_STAGE: "no_hint_stage",
    "this game is won: start a new one": "game_won",
    "this game was left for another one and is over": "game_abandoned",
    "this game is over and a newer one has been dealt since": "game_superseded",
}
TOO_LONG = f"a game holds at most {limits.MAX_GAME_MOVES} moves: undo, or start a new game"

STALE = gettext_noop(
    "That board was out of date, so nothing was played. Here is the game as it stands."
)
MALFORMED = gettext_lazy("That was not a move, so nothing was played.")
NOTHING_TO_HINT = gettext_lazy("There is nothing to hint: the game is over.")


def sentence(text: str) -> str:
    """A message as a sentence: a capital first, a full stop last.

    >>> sentence("no redeals are left")
    'No redeals are left.'
    """
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _value(name: str, value: Param) -> str:
    if isinstance(value, engine.Card):
        return the_card(value)
    if name == "fan" and isinstance(value, int):
        return str(value + 1)  # the engine counts fans from 0, the board from 1
    return str(value)


def worded(error: Exception) -> str:
    """An engine or board refusal in the page's language, as the engine words it (no capital,
    no full stop): its code's words, else its own text."""
    text = str(error)
    code = getattr(error, "code", "") if isinstance(error, MoveError) else ""
    params: Mapping[str, Param] = error.params if isinstance(error, MoveError) else {}
    code = code or UNCODED.get(text, "")
    if code in WORDS:
        return str(WORDS[code]) % {name: _value(name, value) for name, value in params.items()}
    if text == TOO_LONG:
        count = limits.MAX_GAME_MOVES
        return ngettext(
            "a game holds at most %(count)s move: undo, or start a new game",
            "a game holds at most %(count)s moves: undo, or start a new game",
            count,
        ) % {"count": count}
    return text


def refusal_message(error: Exception) -> str:
    """The player's message for a refused request (the message of answers.refusal): the stale
    board's, a limit's, or the engine's reason as a sentence in the page's language."""
    if isinstance(error, store.StaleBoardError):
        return stale_message()
    if isinstance(error, limits.REFUSED):
        return str(error.message)
    return sentence(worded(error))


def stale_message() -> str:
    """A change posted from a board that was out of date (answers.STALE_MESSAGE)."""
    return gettext(STALE)


def malformed_spoken() -> str:
    """What the live region says for a malformed request (answers.refused_board): the
    board's message quotes the request, and the page quotes it once."""
    return str(MALFORMED)


def nothing_to_hint() -> str:
    """Hint asked of a game that is over."""
    return str(NOTHING_TO_HINT)
