"""The words the board's sentences are built from, in the page's language: card, suit and rank
names, the keys typed for them, a move in a line, where a move takes its card, and lists.

The engine names cards in English ("Six of Clubs"); the web layer says them in the page's
language, built from the rank and the suit. Each rank has its own entry (and one with the
definite article) because the article and the word order depend on the rank: French
"l'as de trèfle" but "le six de trèfle", German "Kreuz-Sechs".

Fans are numbered from 1 here, as the board labels them (the engine counts from 0).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext, pgettext, pgettext_lazy

from game import engine

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


def fan_word(number: int) -> str:
    return _("fan %(number)s") % {"number": number}


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
