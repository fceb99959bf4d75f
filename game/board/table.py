"""The live felt as the templates draw it: each card's face and its legal moves, the fans and
the foundations, targets and hint marks (the still felt of replays and the rules page is
game/board/still.py's); and the fans' and each card's markup, built in Python (`fans_markup`,
`card_markup`).

A board has up to 52 cards and is rendered on every move; as an `{% include %}` per card the
template engine spent most of a move request on them (bench/load.py), and as a tag in a module
of its own each card went back and forth between two modules. As a loop of the fans' template,
Jinja2 yielded some twenty pieces a fan, each passed up through every template that includes it
(bench/calls.py counts them). The markup is the one
game/_card.html used to hold; every value is escaped (with the standard library's
`html.escape`, which Django's `escape` calls after checking each argument for a lazy string:
every value here is a plain `str`; a fan's label and marks with markupsafe's, as Jinja2 did).

Each card that may move carries its legal moves (`data-moves="6C>7C 6C>F"`), taken from
`engine.legal_moves`, so the browser's script only shows what the server listed and never
judges a move itself. Card names and rank letters are worked out once per language.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from django.templatetags.static import static
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from markupsafe import escape as markup_escape

from game import engine
from game.board import words
from game.engine.cards import SUIT_SYMBOLS, SUITS

RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass
class CardView:
    code: str
    name: str
    rank: str
    symbol: str
    red: bool
    top: bool = False
    buried: bool = False
    moves: list[str] = field(default_factory=list)
    selected: bool = False
    # The move that tapping this card makes when a card is selected with JavaScript off.
    target_move: str = ""
    hint: str = ""
    only_home: bool = False  # under `once`: moved from fan to fan, so it may only go home

    @property
    def moves_text(self) -> str:
        return " ".join(self.moves)

    @property
    def interactive(self) -> bool:
        return self.top or bool(self.moves)


@dataclass
class FanView:
    index: int
    cards: list[CardView]
    target_move: str = ""
    hint: str = ""
    kings_fill: bool = False
    # On the live board a fan has an id, so that an answer may leave it out when it is `kept`:
    # as it was on the board the request came from (see board_context's `previous`).
    live: bool = False
    kept: bool = field(default=False, compare=False)

    @property
    def number(self) -> int:
        return self.index + 1

    @property
    def label(self) -> str:
        """What a screen reader says on entering the fan: its cards, bottom first, and its top:
        "Fan 4: Seven of Hearts, Queen of Clubs, top: Two of Spades"."""
        if not self.cards:
            return _("Fan %(number)s: empty") % {"number": self.number}
        names = [view.name for view in self.cards]
        if len(names) == 1:
            return _("Fan %(number)s: top: %(top)s") % {"number": self.number, "top": names[-1]}
        return _("Fan %(number)s: %(under)s, top: %(top)s") % {
            "number": self.number,
            "under": ", ".join(names[:-1]),
            "top": names[-1],
        }


@dataclass
class FoundationView:
    suit: str
    name: str
    symbol: str
    red: bool
    top: CardView | None
    count: int
    target_move: str = ""
    hint: str = ""
    # As for FanView: an id on the live board, and left out of an answer when `kept`.
    live: bool = False
    kept: bool = field(default=False, compare=False)


def rank_labels() -> tuple[str, ...]:
    """The ranks' corner indices in the page's language (asked once per board drawn)."""
    letters = tuple(str(words.RANK_LETTERS).split())
    return letters if len(letters) == len(RANK_LABELS) else RANK_LABELS


def card_view(card: engine.Card, ranks: tuple[str, ...] | None = None) -> CardView:
    """A card as the board draws it. Its spoken name is worded here, for the cards an answer
    draws only: an answer that keeps the fans a move left alone words a handful, not 52."""
    return CardView(
        code=card.code,
        name=words.card_name(card),
        rank=(ranks or rank_labels())[card.rank - 1],
        symbol=SUIT_SYMBOLS[card.suit],
        red=card.is_red,
    )


def fan_is_plainly(
    now: Sequence[engine.Card],
    then: Sequence[engine.Card],
    moves_now: dict[str, list[str]],
    moves_then: dict[str, list[str]],
) -> bool:
    """Whether the plain views (no selection, target or hint) that `fan_views` makes of a fan of
    cards `now` with their `moves_now` and of one of cards `then` with `moves_then` are equal: the
    test of a kept fan, made before any view is built. A card view's words follow from its code,
    and its place in the fan (top or buried) from the fan's length."""
    return len(now) == len(then) and all(
        card.code == was.code and moves_now.get(card.code, []) == moves_then.get(was.code, [])
        for card, was in zip(now, then, strict=True)
    )


def moves_by_card(legal: list[engine.Move]) -> dict[str, list[str]]:
    by_card: dict[str, list[str]] = defaultdict(list)
    for move in legal:
        if move.card is not None:
            by_card[move.card.code].append(move.text)
    return by_card


def fan_views(
    position: engine.Position,
    by_card: dict[str, list[str]],
    *,
    selected: str = "",
    targets: dict[str, str] | None = None,
    hint: engine.Hint | None = None,
    hint_stage: int = 2,
    kept: frozenset[int] = frozenset(),
) -> list[FanView]:
    """The fans as the board shows them: each card with its legal moves (`by_card`), the
    selection and the places it may go (`targets`), and the hint's marks (its card, and where it
    goes from `hint_stage` 2). A fan in `kept` is held by the browser as it is
    (game.board.kept): its cards get no views."""
    targets = targets or {}
    hinted = hint_keys(hint.move, hint_stage) if hint else set()
    ranks = rank_labels()
    fans = []
    for index, fan in enumerate(position.fans):
        if index in kept:
            fans.append(FanView(index=index, cards=[], live=True, kept=True))
            continue
        views = []
        for depth, card in enumerate(fan):
            view = card_view(card, ranks)
            view.top = depth == len(fan) - 1
            view.buried = not view.top
            view.moves = by_card.get(card.code, [])
            view.only_home = position.only_home(card)
            view.selected = card.code == selected
            if view.top:
                view.target_move = targets.get(f"card:{card.code}", "")
            if hint and f"card:{card.code}" in hinted:
                view.hint = "target" if hint.move.onto == card else "card"
            views.append(view)
        fans.append(
            FanView(
                index=index,
                cards=views,
                target_move=targets.get(f"fan:{index}", ""),
                hint="target" if f"fan:{index}" in hinted else "",
                kings_fill=position.rules.kings_fill_empty,
                live=True,
            )
        )
    return fans


def foundation_views(position: engine.Position) -> list[FoundationView]:
    """The four foundations, each with its top card (none while it is empty)."""
    views = []
    for suit_index, suit in enumerate(SUITS):
        rank = position.foundations[suit_index]
        top = card_view(engine.DECK[suit_index * 13 + rank - 1]) if rank else None
        views.append(
            FoundationView(
                suit=suit,
                name=words.suit_name(suit),
                symbol=SUIT_SYMBOLS[suit],
                red=suit in "DH",
                top=top,
                count=rank,
            )
        )
    return views


def target_key(move: engine.Move) -> str:
    if move.onto is not None:
        return f"card:{move.onto.code}"
    if move.empty_fan is not None:
        return f"fan:{move.empty_fan}"
    assert move.card is not None
    return f"home:{move.card.suit}"


def hint_keys(move: engine.Move, stage: int = 2) -> set[str]:
    """The places a hint of `move` marks: its card, and at the second stage where it goes."""
    if move.card is None:
        return set()
    if stage < 2:
        return {f"card:{move.card.code}"}
    return {f"card:{move.card.code}", target_key(move)}


# ---------------------------------------------------------------- a card's markup


def face(view: CardView, sprite_url: str | None = None) -> str:
    """The face: the corner index (rank over suit) in text, so a strip reads whatever the card
    style; the art (pips, an Ace's pip, a court figure) from the cached sprite static/cards.svg
    (scripts/card_art.py), with the second index turned in the opposite corner; and the large
    pip that the large-index card style shows instead of the art. The same few values make the
    same markup, so it is built once per card, corner index and sprite."""
    return _face(view.code, view.rank, view.symbol, sprite_url or sprite())


@functools.lru_cache(maxsize=1024)
def _face(code: str, rank_text: str, symbol_text: str, sprite_url: str) -> str:
    symbol = escape(symbol_text)
    ten = " ten" if rank_text == "10" else ""  # two digits: drawn narrower to fit a strip
    rank = escape(rank_text)
    return (
        '<span class="face" aria-hidden="true"><span class="index">'
        f'<span class="rank{ten}">{rank}</span><span class="suit">{symbol}</span></span>'
        f'<svg class="art" viewBox="0 0 100 140">'
        f'<use href="{sprite_url}#c-{escape(code)}"/></svg>'
        f'<span class="index foot"><span class="foot-rank{ten}">{rank}</span>'
        f'<span class="foot-suit">{symbol}</span></span>'
        f'<span class="pip">{symbol}</span></span>'
    )


def sprite() -> str:
    """The card sprite's URL (cache-busted by the static files' storage)."""
    return static("cards.svg")


def fan_markup(fan: FanView, static: bool = False, sprite_url: str | None = None) -> SafeString:
    """A fan's cards, bottom first, for the board's Jinja2 templates (game/jinja.py)."""
    found = sprite_url or sprite()
    return SafeString("".join([card_markup(view, static, found) for view in fan.cards]))


def fans_markup(
    fans: Sequence[FanView], static: bool = False, sprite_url: str | None = None
) -> SafeString:
    """The fans, each a group of its cards (game/jinja2/board/fans.jinja): on the live board
    each has an id, and a fan `kept` as it was on the board the request came from is an empty
    placeholder, which htmx's hx-preserve fills with the fan already on the page. An empty fan
    is a slot: a button when a card may go there (a move's target, or any King's place under
    the rules where Kings fill a space), else an image's place."""
    found = sprite_url or sprite()
    parts = [f'<div class="fans{" many" if len(fans) > 16 else ""}">\n']
    for fan in fans:
        parts.append("\n  ")
        if fan.kept:
            parts.append(f'<div id="fan-{fan.index}" hx-preserve></div>\n  \n')
            continue
        live = f' id="fan-{fan.index}"' if fan.live else ""
        empty = "" if fan.cards else " empty"
        hint = f' data-hint="{markup_escape(fan.hint)}"' if fan.hint else ""
        parts.append(
            f'<div{live} class="fan{empty}" data-fan="{fan.index}" role="group" '
            f'aria-label="{markup_escape(fan.label)}"{hint}>\n  '
        )
        if fan.cards:
            parts.append(fan_markup(fan, static, found))
        else:
            parts.append(f"\n    {_slot(fan, static)}\n  ")
        parts.append("\n  </div>\n")
    parts.append("\n</div>")
    return SafeString("".join(parts))


def _slot(fan: FanView, static: bool) -> str:
    """An empty fan's place (fans_markup)."""
    label = markup_escape(_("Empty fan %(number)s") % {"number": fan.number})
    if fan.target_move and not static:
        return (
            '<button type="submit" form="move-form" name="move" '
            f'value="{markup_escape(fan.target_move)}" class="slot is-target" '
            f'aria-label="{label}"></button>\n    '
        )
    if fan.kings_fill and not static:
        return f'<button type="button" class="slot" aria-label="{label}"></button>\n    '
    return '<span class="slot" aria-hidden="true"></span>'


def face_markup(view: CardView, sprite_url: str | None = None) -> SafeString:
    """A card's face, for the board's Jinja2 templates."""
    return SafeString(face(view, sprite_url))  # every value in it is escaped


def card_markup(view: CardView, static: bool, sprite_url: str) -> SafeString:
    """One card: a button that picks it up or plays the picked card onto it, or an image."""
    colour = "red" if view.red else "black"
    place = "is-top" if view.top else "buried"
    name = view.name
    if view.only_home:  # under `once`: drawn apart, and said
        place += " only-home"
        name = f"{name}, {words.ONLY_HOME}"
    common = f'data-card="{escape(view.code)}" aria-label="{escape(name)}"'
    hint = f' data-hint="{escape(view.hint)}"' if view.hint else ""
    if view.target_move and not static:
        html = (
            '<button type="submit" form="move-form" name="move" '
            f'value="{escape(view.target_move)}" class="card {colour} is-top is-target" '
            f"{common}{hint}>{face(view, sprite_url)}</button>"
        )
    elif view.interactive and not static:
        selected = " is-selected" if view.selected else ""
        pressed = "true" if view.selected else "false"
        value = "" if view.selected else escape(view.code)
        html = (
            f'<button type="submit" form="select-form" name="sel" value="{value}" '
            f'class="card {colour} {place}{selected}" data-card="{escape(view.code)}" '
            f'data-moves="{escape(view.moves_text)}" aria-label="{escape(name)}" '
            f'aria-pressed="{pressed}"{hint}>{face(view, sprite_url)}</button>'
        )
    else:
        html = (
            f'<span class="card {colour} {place}" role="img" {common}{hint}>'
            f"{face(view, sprite_url)}</span>"
        )
    # SafeString, not mark_safe: Django's mark_safe checks its argument for a lazy string on
    # each call, some 3% of a move for the cards alone.
    return SafeString(html + "\n")  # every value above is escaped


def top_card_template() -> SafeString:
    """A top card's button with no card in it, as card_markup draws one (no colour, no code, no
    name, no moves, no face): the `<template id="top-card">` that static/js/board/instant.js
    fills for a card that a laid move leaves on top, so that its markup is this one.

    >>> print(top_card_template())  # doctest: +ELLIPSIS
    <template id="top-card"><button type="submit" form="select-form" name="sel" ...></button>
    </template>
    """
    view = CardView(code="", name="", rank="", symbol="", red=False, top=True)
    button = card_markup(view, False, "")
    empty = button[: button.index(">") + 1].replace("card black is-top", "card is-top")
    return SafeString(f'<template id="top-card">{empty}</button>\n</template>')
