"""What the board template shows, computed from the engine: cards, their legal moves, targets.

The template renders these values and nothing more. Each card that may move carries its legal
moves (`data-moves="6C>7C 6C>F"`), taken from `engine.legal_moves`, so the browser's script only
shows what the server listed and never judges a move itself.
"""

from __future__ import annotations

import functools
import zlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_resolver, get_script_prefix, get_urlconf, reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from game import engine
from game.board import announce, clock, hints
from game.board.change import Change, Loaded
from game.board.winning_line import Shown
from game.engine.cards import SUIT_SYMBOLS, SUITS
from game.models import Game

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
    """The corner indices in the page's language (French cards read V D R, German B D K): the
    letters a player types for the ranks, as the catalogue gives them."""
    return card_words().ranks


@dataclass(frozen=True)
class CardWords:
    """What a card view says in one language: each card's spoken name, and the ranks' corner
    indices."""

    names: dict[str, str]
    ranks: tuple[str, ...]


# Per language: a board showed up to 104 card views (the board, and the board it replaces), each
# asking the catalogue for its name and its rank's letter, some 300 gettext calls per move.
_CARD_WORDS: dict[str | None, CardWords] = {}


def card_words() -> CardWords:
    """The cards' words in the page's language, worked out once per process and language."""
    language = get_language()
    words = _CARD_WORDS.get(language)
    if words is None:
        letters = tuple(str(announce.RANK_LETTERS).split())
        words = CardWords(
            names={card.code: announce.card_name(card) for card in engine.DECK},
            ranks=letters if len(letters) == len(RANK_LABELS) else RANK_LABELS,
        )
        _CARD_WORDS[language] = words
    return words


@receiver(setting_changed)
def _forget_card_words(*, setting: str, **kwargs: object) -> None:
    # The catalogues Django reloads when a test changes these.
    if setting in {"LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "USE_I18N"}:
        _CARD_WORDS.clear()


# The site's pages that the board links to, by URL name (the menu, the info bar, the end panels).
SITE_LINKS = ("daily", "rules", "stats", "settings", "import", "deal_lookup", "home")

_LINKS: dict[tuple[object, ...], dict[str, str]] = {}


def _url_key() -> tuple[object, ...]:
    """What a reversed URL depends on besides its name and arguments: the language (its prefix),
    the script prefix and the URLconf (a new resolver when a test changes it)."""
    return (get_language(), get_script_prefix(), get_resolver(get_urlconf()))


def site_links() -> dict[str, str]:
    """The URLs of SITE_LINKS, reversed once per process, language and prefix: the board's
    template reversed up to twelve of them per render."""
    key = _url_key()
    links = _LINKS.get(key)
    if links is None:
        links = _LINKS[key] = {name: reverse(name) for name in SITE_LINKS}
    return links


@functools.lru_cache(maxsize=4096)
def _reversed(key: tuple[object, ...], name: str, args: tuple[object, ...]) -> str:
    return reverse(name, args=args)


def url_of(name: str, *args: object) -> str:
    """`reverse(name, args=args)`, remembered per language and prefix (a deal's link, a game's
    Undo): the board asks for the same few on every move of a game."""
    return _reversed(_url_key(), name, args)


def board_links(game: Game, line: bool) -> dict[str, Any]:
    """The links a board shows besides its controls' `urls`: the site's pages, the deal's page,
    and for a finished game its replay and review, and the winning line's buttons when it is on
    show."""
    links: dict[str, Any] = {"links": site_links(), "deal_url": url_of("deal", game.deal_number)}
    if game.pk is not None and game.status != Game.Status.PLAYING:
        links["replay_url"] = url_of("replay", game.replay_token)
        links["review_url"] = url_of("review", game.pk)
    if game.pk is not None and line:
        links["line_urls"] = {
            "undo": url_of("undo", game.pk),
            "next": url_of("solve_next", game.pk),
            "out": url_of("solve_out", game.pk),
        }
    return links


@receiver(setting_changed)
def _forget_links(*, setting: str, **kwargs: object) -> None:
    if setting in {"ROOT_URLCONF", "LANGUAGES", "LANGUAGE_CODE", "FORCE_SCRIPT_NAME"}:
        _LINKS.clear()
        _reversed.cache_clear()


def card_view(card: engine.Card, words: CardWords | None = None) -> CardView:
    words = words or card_words()
    return CardView(
        code=card.code,
        name=words.names[card.code],
        rank=words.ranks[card.rank - 1],
        symbol=SUIT_SYMBOLS[card.suit],
        red=card.is_red,
    )


def format_ms(millis: int) -> str:
    seconds = millis // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def board_context(
    game: Game,
    played: engine.Game,
    *,
    change: Change | None = None,
    selected: str = "",
    hint: engine.Hint | None = None,
    message: str = "",
    spoken: str = "",
    line: Shown | None = None,
    previous: str = "",
) -> dict[str, Any]:
    """Everything the board template (game/_board.html) needs. `line` is the "Show a win"
    verdict on show: its next move is marked the way a hint is, unless a hint was asked for.

    `previous` is the key (`board_key`) of the board the request came from, as board.js sends
    it: when it is the key of the game as loaded, the browser holds exactly that board, so the
    parts this change left as they were are sent as empty `hx-preserve` placeholders that htmx
    fills with the elements already on the page (`keep`). `spoken`, when given, is what the
    live region says instead of the message (a refusal that quotes the request says it once,
    on the board). `change`: what this request did to the game, to be said."""
    position = played.position
    if hint is not None and message:
        # The hint's message line in the page's language (game/board/pipeline.py words it in
        # English, the one caller that passes a hint).
        message = announce.hint_message(position, hint)
    said = announcement(game, played, change, hint=hint, message=spoken or message)
    if not said and line is not None and change is not None and change.action == "solve":
        said = announce.verdict(line.status, line.left, line.next_move, position)
    # Why the hint chose its move, shown only when asked ("Why?"); a line's marked move has none.
    hint_reason = hints.reason_text(position, hint) if hint is not None else ""
    if hint is None and line is not None and line.next_move is not None:
        hint = engine.Hint(line.next_move, "the next move of the winning line")
    legal = played.legal_moves() if game.status == Game.Status.PLAYING else []
    by_card = _moves_by_card(legal)
    if selected and selected not in by_card:
        if not message and selected in {c.code for fan in position.fans for c in fan}:
            message = announce.no_move(engine.Card.parse(selected))
        selected = ""

    # With JavaScript off the selection lives in the URL (?sel=6C): its moves become buttons.
    targets: dict[str, str] = {}
    if selected and not message:
        card = engine.Card.parse(selected)
        message = announce.capfirst(
            _("%(card)s: choose a lit place.") % {"card": announce.card_name(card)}
        )
        said = announce.choices(
            position, card, [engine.Move.parse(text) for text in by_card[selected]]
        )
    # A board with no card to move says so at once, and what is left (no Hint press needed).
    stuck = announce.stuck(position, legal) if game.status == Game.Status.PLAYING else ""
    if stuck and not message and not selected and hint is None:
        message = stuck
        said = f"{said} {stuck}" if said else stuck
    for text in by_card.get(selected, []):
        targets[_target_key(engine.Move.parse(text))] = text
    hinted = _hint_keys(hint.move) if hint else set()

    fans = fan_views(position, by_card, selected=selected, targets=targets, hint=hint)
    key = "" if hint or selected else board_key(game, position, game.status, game.assisted)

    foundations = foundation_views(position)
    for foundation in foundations:
        foundation.target_move = targets.get(f"home:{foundation.suit}", "")
        foundation.hint = "target" if f"home:{foundation.suit}" in hinted else ""
        foundation.live = True

    # A hint or a line on show marks a card or two: the fans it leaves unmarked are kept too.
    loaded = change.loaded if change is not None else None
    keep = _unchanged(game, played, loaded, fans, foundations, previous)

    redeals_left = position.redeals_left
    # The timer ticks in the browser while the game is under way and the page is visible; the
    # server's reading is where it starts from (see game/board/clock.py).
    running = game.status == Game.Status.PLAYING and game.started_at is not None
    shown_ms = clock.reading(game, timezone.now())
    return {
        "game": game,
        "rules": position.rules,
        "position": position,
        "fans": fans,
        "foundations": foundations,
        "selected": selected,
        "hint": hint,
        "hint_redeal": bool(hint and hint.move.is_redeal),
        "hint_reason": hint_reason,
        "message": message,
        "announcement": said or spoken or message,
        "can_undo": played.can_undo and game.status in (Game.Status.PLAYING, Game.Status.LOST),
        "can_redo": played.can_redo and game.status == Game.Status.PLAYING,
        "can_redeal": engine.REDEAL in legal,
        "can_auto": any(m.to_foundation and not m.merci for m in legal),
        "redeals_left": "unlimited" if redeals_left is None else redeals_left,
        "mercis_left": position.mercis_left,
        "merci_open": position.merci_open and game.status == Game.Status.PLAYING,
        "elapsed_ms": shown_ms,
        "elapsed_text": format_ms(shown_ms),
        "timer_running": running,
        "timer_cap_ms": clock.STRETCH_CAP_MS,
        "line": line,
        "can_peek": _can_peek(game.status),
        "board_key": key,
        "keep": keep,
        "stuck_redeal": bool(stuck) and engine.REDEAL in legal,
        "stuck_merci": bool(stuck) and any(m.merci for m in legal),
        "blocked": announce.blocked(position) if game.status == Game.Status.LOST else [],
        **board_links(game, line is not None and game.status != Game.Status.WON),
    }


@dataclass
class Keep:
    """The parts of the board that the browser already has as they should be."""

    menu: bool = False
    # The whole menu, its Redo, Auto-finish and Show a win buttons included (board.js sends the
    # board's move count with each request, so a kept form's own count does not matter).
    whole_menu: bool = False
    solve_dialog: bool = False


def board_key(game: Game, position: engine.Position, status: str, assisted: bool) -> str:
    """A short name for a plain board (no hint, no selection) of `game` at `position`: equal
    keys, equal markup for every part that `Keep` and `FanView.kept` may leave out."""
    text = f"{game.pk}:{game.token}:{position.text}:{status}:{assisted}"
    return format(zlib.crc32(text.encode()), "08x")


def _can_peek(status: str) -> bool:
    return status in (Game.Status.PLAYING, Game.Status.LOST)


def _unchanged(
    game: Game,
    played: engine.Game,
    loaded: Loaded | None,
    fans: list[FanView],
    foundations: list[FoundationView],
    previous: str,
) -> Keep:
    """Mark the fans and foundations that are as they were on the board with key `previous`
    (the game as it was `loaded` for this request), and say which other parts are."""
    if loaded is None or not previous:
        return Keep()
    before, status, assisted = loaded.position, loaded.status, loaded.assisted
    if previous != board_key(game, before, status, assisted):
        return Keep()
    legal = engine.legal_moves(before) if status == Game.Status.PLAYING else []
    moves_then = _moves_by_card(legal)
    for now, cards in zip(fans, before.fans, strict=False):
        now.kept = plain_fan_is(now, cards, moves_then)
    for home, was in zip(foundations, foundation_views(before), strict=True):
        was.live = True
        home.kept = home == was
    playing = game.status == Game.Status.PLAYING
    legal_now = played.legal_moves() if playing else []
    buttons_then = (
        loaded.redo and status == Game.Status.PLAYING,
        any(move.to_foundation and not move.merci for move in legal),
        _can_peek(status),
    )
    buttons_now = (
        played.can_redo and playing,
        any(move.to_foundation and not move.merci for move in legal_now),
        _can_peek(game.status),
    )
    return Keep(
        menu=True,
        whole_menu=buttons_then == buttons_now,
        solve_dialog=(_can_peek(status), assisted) == (_can_peek(game.status), game.assisted),
    )


def plain_fan_is(view: FanView, cards: Sequence[engine.Card], moves: dict[str, list[str]]) -> bool:
    """Whether `view` equals the plain view (no selection, target or hint) that `fan_views` makes
    of a fan of `cards` whose cards had `moves`: the test of a kept fan, without building the
    board it replaces a second time. A card view's words follow from its code, and its place in
    the fan (top or buried) from the fan's length."""
    if view.target_move or view.hint or len(view.cards) != len(cards):
        return False
    return all(
        shown.code == card.code
        and shown.moves == moves.get(card.code, [])
        and not (shown.selected or shown.target_move or shown.hint)
        for shown, card in zip(view.cards, cards, strict=True)
    )


def _moves_by_card(legal: list[engine.Move]) -> dict[str, list[str]]:
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
) -> list[FanView]:
    """The fans as the board shows them: each card with its legal moves (`by_card`), the
    selection and the places it may go (`targets`), and the hint's marks."""
    targets = targets or {}
    hinted = _hint_keys(hint.move) if hint else set()
    words = card_words()
    fans = []
    for index, fan in enumerate(position.fans):
        views = []
        for depth, card in enumerate(fan):
            view = card_view(card, words)
            view.top = depth == len(fan) - 1
            view.buried = not view.top
            view.moves = by_card.get(card.code, [])
            view.selected = card.code == selected
            if view.top:
                view.target_move = targets.get(f"card:{card.code}", "")
            if f"card:{card.code}" in hinted:
                view.hint = "card"
            if hint and hint.move.onto == card:
                view.hint = "target"
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


def announcement(
    game: Game,
    played: engine.Game,
    change: Change | None,
    *,
    hint: engine.Hint | None,
    message: str,
) -> str:
    """The live region's sentence: what the request changed, else the hint, else the message
    (an error, or a note such as "nothing to hint")."""
    if change is not None and change.action:
        said = announce.change(
            played, change.seen, change.action, auto=played.auto, assisted=game.assisted
        )
        if said:
            return said
    if hint is not None:
        return announce.hint(played.position, hint)
    return message


def still_table(position: engine.Position, moved: engine.Card | None = None) -> dict[str, Any]:
    """The felt of `position` with nothing to press: for replays (`static` in _table.html). The
    card that just `moved` is marked the way a hint is, so the eye finds it."""
    fans = []
    for index, fan in enumerate(position.fans):
        views = []
        for depth, card in enumerate(fan):
            view = card_view(card)
            view.top = depth == len(fan) - 1
            view.buried = not view.top
            if card == moved:
                view.hint = "card"
            views.append(view)
        fans.append(FanView(index=index, cards=views))
    foundations = foundation_views(position)
    for foundation in foundations:
        if foundation.top is not None:
            foundation.top.top = True
            if moved is not None and foundation.top.code == moved.code:
                foundation.hint = "card"
    return {"fans": fans, "foundations": foundations, "static": True}


def foundation_views(position: engine.Position) -> list[FoundationView]:
    """The four foundations, each with its top card (none while it is empty)."""
    views = []
    for suit_index, suit in enumerate(SUITS):
        rank = position.foundations[suit_index]
        top = card_view(engine.DECK[suit_index * 13 + rank - 1]) if rank else None
        views.append(
            FoundationView(
                suit=suit,
                name=announce.suit_name(suit),
                symbol=SUIT_SYMBOLS[suit],
                red=suit in "DH",
                top=top,
                count=rank,
            )
        )
    return views


def _target_key(move: engine.Move) -> str:
    if move.onto is not None:
        return f"card:{move.onto.code}"
    if move.empty_fan is not None:
        return f"fan:{move.empty_fan}"
    assert move.card is not None
    return f"home:{move.card.suit}"


def _hint_keys(move: engine.Move) -> set[str]:
    if move.card is None:
        return set()
    return {f"card:{move.card.code}", _target_key(move)}


def rules_example() -> dict[str, Any]:
    """The small position that the rules page's worked example draws."""

    def fans(*rows: str) -> list[FanView]:
        result = []
        for index, row in enumerate(rows):
            cards = [card_view(engine.Card.parse(code)) for code in row.split()]
            if cards:
                cards[-1].top = True
            result.append(FanView(index=index, cards=cards))
        return result

    home = [card_view(engine.Card.parse(code)) for code in ("4C", "AH")]
    return {
        "example_home": home,
        "example_before": fans("9S 5C 7H", "KD 2H 8H", "3H 6C", "QS"),
        "example_after": fans("9S", "KD 2H 8H 7H", "3H", "QS"),
        "example_home_after": [card_view(engine.Card.parse(code)) for code in ("6C", "AH")],
        # The same fans in a last deal: the merci pulls the Two of Hearts out from under its fan.
        "example_merci": fans("9S", "KD 8H 7H", "", "QS"),
        "example_home_merci": [card_view(engine.Card.parse(code)) for code in ("6C", "3H")],
    }
