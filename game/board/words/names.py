"""The names of cards, suits and ranks in the page's language, and the letters typed for them.

The engine names cards in English ("Six of Clubs"); the board names each one in the page's
language, built from its rank and its suit. Each rank has its own entry, and one with the
definite article and one after "under", because the article, the case and the word order depend
on the rank and the language: French "l'as de trèfle" but "le six de trèfle", German
"Kreuz-Sechs". board.js says the same names from these tables (game/templatetags/card_tags.py).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

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


def _named(form: tuple[Promise, ...], card: engine.Card) -> str:
    """`card`'s name in one of the forms below (its rank's words, with its suit put in)."""
    return str(form[card.rank - 1]) % {"suit": SUIT_WORDS[card.suit]}


def card_name(card: engine.Card) -> str:
    """A card's spoken name in the page's language: "Six of Clubs", « six de trèfle »."""
    return _named(CARD_WORDS, card)


def the_card(card: engine.Card) -> str:
    """A card's name inside a sentence: "the Six of Clubs", « le six de trèfle »."""
    return _named(THE_CARD_WORDS, card)


def under_card(card: engine.Card) -> str:
    """A card's name after "under": « sous le valet de carreau », "unter dem Karo-Buben"."""
    return _named(UNDER_CARD_WORDS, card)
