"""The board's messages in the page's language (game/board/words/): every refusal the
engine raises has a code with words in each catalogue, and says in English what the engine says;
the stale board, a malformed request, the hint and "nothing to hint" are translated too."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from collections.abc import Iterator

import pytest
from django.utils import translation

from game import engine
from game.board import store, words
from game.engine.cards import DECK
from game.engine.moves import MoveError
from game.ops import limits

CODES = ["fr", "de"]
ENGLISH_WORDS = re.compile(
    r"\b(the|is|not|cannot|onto|fan|foundation|redeal|merci has|move to|game is|Hint)\b"
)


def tries(position: engine.Position) -> Iterator[engine.Move]:
    """Every kind of move the notation can write for `position`: each card home, onto the next
    higher card and a few others, into fans empty or not, with the merci and without, and the
    redeal."""
    yield engine.REDEAL
    for card in DECK:
        targets = {DECK[0], DECK[12], DECK[20], DECK[min(card.index + 1, 51)]}
        for merci in (False, True):
            yield engine.Move.home(card, merci)
            for onto in targets:
                yield engine.Move.build(card, onto, merci)
            for fan in (0, 3, len(position.fans), 99):
                yield engine.Move.to_empty(card, fan, merci)


def greedy(game: engine.Play) -> Iterator[engine.Position]:
    """The positions of `game` played by the greedy hint to its end: some along the way, each
    redeal and merci, and the end."""
    yield game.position
    while (found := engine.greedy_hint(game.position)) is not None:
        game.play(found.move)
        if len(game.moves) % 7 == 0 or found.move.is_redeal or found.move.merci:
            yield game.position
    yield game.position


def positions() -> Iterator[engine.Position]:
    """Positions along greedy games under rule sets with and without the merci, Kings filling
    empty fans, a free merci, the rule books' `once` and `stuck`, and a won end."""
    for rules, number in (
        ("lucie", 1),
        ("lucie-kings", 3),
        ("nomerci-r0", 2),
        ("lucie-free", 4),
        ("trefoil", 5),
        ("lucie-free-once", 1),
        ("lucie-r0-stuck", 1),
    ):
        yield from greedy(engine.Play(number, engine.Rules.parse(rules)))
    for number in range(1, 500):
        *_, end = greedy(engine.Play(number))
        if end.outcome().won:
            yield end
            return
    raise AssertionError("no deal in the first 500 is won by the greedy hint")


def refusals() -> list[engine.IllegalMoveError]:
    found: dict[str, engine.IllegalMoveError] = {}
    for position in positions():
        for move in tries(position):
            try:
                engine.apply(position, move)
            except engine.IllegalMoveError as error:
                found.setdefault(f"{error.code}:{error}", error)
    return list(found.values())


REFUSALS = refusals()


def test_every_refusal_of_the_rules_carries_a_code_with_words() -> None:
    codes = {error.code for error in REFUSALS}

    assert "" not in codes, [str(e) for e in REFUSALS if not e.code][:5]
    assert codes <= set(words.WORDS)
    # The table is reached: every refusal of the rules shows up at least once.
    assert codes >= {
        "already_home", "buried", "home_needs_ace", "home_not_next", "won_no_redeal",
        "no_redeals_left", "no_merci_rules", "merci_used", "merci_not_last_deal",
        "merci_on_top", "onto_buried", "wrong_build", "not_empty", "empty_stays_empty",
        "only_a_king", "alone", "moved_once", "merci_not_stuck",
    }  # fmt: skip


def test_in_english_a_refusal_says_what_the_engine_says() -> None:
    with translation.override("en"):
        for error in REFUSALS:
            said = words.refusal_message(error)
            if error.code == "not_empty":
                # The board numbers its fans from 1, the engine from 0.
                fan = int(error.params["fan"])  # type: ignore[call-overload]
                assert said == f"Fan {fan + 1} is not an empty fan."
            else:
                assert said == words.sentence(str(error))


@pytest.mark.parametrize("code", CODES)
def test_every_refusal_is_said_in_the_pages_language(code: str) -> None:
    with translation.override(code):
        said = {words.refusal_message(error) for error in REFUSALS}

    for text in said:
        assert "%(" not in text, text
        assert text[0].isupper(), text
        assert text.endswith("."), text
        assert not ENGLISH_WORDS.search(text.replace("Merci", "")), text
    french = {"fr": "éventail", "de": "Fächer"}[code]
    assert any(french in text for text in said)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("ZZ>F", "not_a_card"),
        ("6C", "not_a_move_form"),
        ("KS>@123456", "too_many_fans"),
        ("6C>7C7", "not_a_card"),
    ],
)
def test_a_malformed_move_has_a_code_and_quotes_what_was_sent(text: str, code: str) -> None:
    with pytest.raises(engine.InvalidMoveError) as raised:
        engine.Move.parse(text)

    assert raised.value.code == code
    with translation.override("en"):
        assert words.refusal_message(raised.value) == words.sentence(str(raised.value))
    with translation.override("de"):
        german = words.refusal_message(raised.value)
    assert german.startswith(f"'{text}' ist kein Zug"), german


def test_a_move_that_is_not_text_is_refused_with_a_code() -> None:
    with pytest.raises(engine.InvalidMoveError) as raised:
        engine.Move.parse(5)  # type: ignore[arg-type]

    assert raised.value.code == "not_a_move"
    with translation.override("fr"):
        assert words.refusal_message(raised.value) == "'5' n\u2019est pas un coup."


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("fr", "Le six de trèfle ne peut pas aller sur le huit de trèfle\u00a0:"),
        ("de", "Kreuz-Sechs kann nicht auf Kreuz-Acht gelegt werden: Eine Karte"),
    ],
)
def test_cards_are_named_in_the_language(code: str, expected: str) -> None:
    error = engine.IllegalMoveError(
        "the Six of Clubs cannot go onto the Eight of Clubs: ...",
        "wrong_build",
        card=engine.Card.parse("6C"),
        onto=engine.Card.parse("8C"),
    )
    with translation.override(code):
        assert words.refusal_message(error).startswith(expected)


def uncoded() -> list[Exception]:
    """The web layer's refusals, raised with their English text alone."""
    played = engine.Play(1)
    errors: list[Exception] = []
    for action in (played.undo, played.redo):
        try:
            action()
        except engine.IllegalMoveError as error:
            errors.append(error)
    assert len(errors) == 2
    errors += [engine.IllegalMoveError(text) for text in words.UNCODED]
    errors.append(store.GameTooLongError(words.TOO_LONG))
    return errors


@pytest.mark.parametrize("code", CODES)
def test_the_web_layers_own_refusals_are_translated(code: str) -> None:
    for error in uncoded():
        with translation.override("en"):
            english = words.refusal_message(error)
        with translation.override(code):
            translated = words.refusal_message(error)
        assert english == words.sentence(str(error))
        assert translated != english, english
        assert not ENGLISH_WORDS.search(translated), translated


@pytest.mark.parametrize("code", CODES)
def test_stale_malformed_nothing_to_hint_and_limits_are_translated(code: str) -> None:
    with translation.override("en"):
        english = [
            words.stale_message(),
            words.malformed_spoken(),
            words.nothing_to_hint(),
            words.refusal_message(limits.Busy()),
            words.refusal_message(limits.Limited(30)),
        ]
    with translation.override(code):
        translated = [
            words.stale_message(),
            words.malformed_spoken(),
            words.nothing_to_hint(),
            words.refusal_message(limits.Busy()),
            words.refusal_message(limits.Limited(30)),
        ]

    assert english[0].startswith("That board was out of date")
    assert english[1] == "That was not a move, so nothing was played."
    assert english[2] == "There is nothing to hint: the game is over."
    for before, after in zip(english, translated, strict=True):
        assert after
        assert after != before


@pytest.mark.parametrize(
    ("code", "redeal", "merci", "play"),
    [
        ("fr", "Indice\u00a0: redistribuez", "Indice\u00a0: prenez le merci", "Indice\u00a0: "),
        ("de", "Tipp: ", "Tipp: ", "Tipp: "),
    ],
)
def test_the_hint_is_said_in_the_language(code: str, redeal: str, merci: str, play: str) -> None:
    position = engine.Position.start(1)
    buried = position.fans[0][0]
    hints = [
        engine.Hint(engine.REDEAL, ""),
        engine.Hint(engine.Move.home(buried, merci=True), ""),
        engine.Hint(engine.card_moves(position)[0], ""),
    ]
    with translation.override("en"):
        english = [words.hint_message(position, hint) for hint in hints]
    with translation.override(code):
        said = [words.hint_message(position, hint) for hint in hints]

    assert english[0] == "Hint: Redeal now."
    assert english[1].startswith("Hint: take the merci: the ")
    assert said[0].startswith(redeal)
    assert said[1].startswith(merci)
    assert said[2].startswith(play)
    for text in said:
        assert "Hint" not in text, text
        assert "to its foundation" not in text, text


def test_an_error_already_in_the_pages_language_is_shown_as_it_is() -> None:
    with translation.override("de"):
        error = engine.IllegalMoveError("die Lösung ist ausgespielt")
        assert words.refusal_message(error) == "Die Lösung ist ausgespielt."


def test_the_refusal_codes_survive_a_pickle() -> None:
    import pickle

    error = engine.IllegalMoveError("x", "alone", card=engine.Card.parse("KS"))
    again = pickle.loads(pickle.dumps(error))

    assert isinstance(again, MoveError)
    assert (str(again), again.code, again.params) == ("x", "alone", error.params)


@pytest.mark.parametrize(
    "name", sorted(f"{words.__name__}.{info.name}" for info in pkgutil.iter_modules(words.__path__))
)
def test_the_modules_examples_run(name: str) -> None:
    assert doctest.testmod(importlib.import_module(name)).failed == 0
