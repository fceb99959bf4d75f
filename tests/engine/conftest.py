"""Build engine positions from pictures a reader can check at a glance.

A picture is a few lines of text, bottom card of each fan first, top card last:

    rules lucie  redeals 2  mercis 0
    home 5C KD KH KS
     0: 7C 9C 8C
     1: 6C JC TC
     2: KC QC
     3: -

- `rules` (optional) names the rule set and how many redeals and mercis were already used
  (default: `lucie`, none used).
- `home` names the top card of each foundation; a suit it leaves out has no card home.
- Then one fan a line; the `N:` prefix is optional and must match the line's place; `-` draws an
  empty fan.

Every card must be either in a fan or home, exactly once, so a picture is always a position a
real game could hold. Text before the `rules`/`home` line is prose and is skipped, which lets a
test draw its position in its own docstring and ask for the `drawn` fixture.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from game.engine import DECK, Card, Position, Rules
from game.engine.cards import SUITS

Board = Callable[..., Position]


def board(
    text: str,
    rules: Rules | str | None = None,
    *,
    redeals_used: int | None = None,
    mercis_used: int | None = None,
    deal_number: int = 1,
    shuffle_seed: int = 1,
) -> Position:
    """The position a picture draws; keyword arguments override the picture's `rules` line."""
    lines = [line.strip() for line in text.strip("\n").splitlines()]
    start = next(
        (i for i, line in enumerate(lines) if line.split()[:1] in (["rules"], ["home"])), None
    )
    if start is None:
        raise ValueError("a picture needs a 'home' line (write 'home' alone if nothing is home)")
    header: dict[str, str] = {"rules": "lucie", "redeals": "0", "mercis": "0"}
    foundations = [0, 0, 0, 0]
    fans: list[tuple[Card, ...]] = []
    for line in lines[start:]:
        if not line:
            if fans:
                break
            continue
        word, *rest = line.split()
        if word == "rules":
            header.update(zip(["rules", *rest[1::2]], [rest[0], *rest[2::2]], strict=True))
        elif word == "home":
            for code in rest:
                card = Card.parse(code)
                foundations[card.suit_index] = card.rank
        else:
            fans.append(_fan(line, len(fans)))
    position = Position(
        Rules.parse(str(rules)) if rules is not None else Rules.parse(header["rules"]),
        deal_number,
        tuple(fans),
        (foundations[0], foundations[1], foundations[2], foundations[3]),
        int(header["redeals"]) if redeals_used is None else redeals_used,
        int(header["mercis"]) if mercis_used is None else mercis_used,
        shuffle_seed,
    )
    check_cards(position)
    return position


def _fan(line: str, index: int) -> tuple[Card, ...]:
    label, colon, body = line.partition(":")
    if colon:
        if int(label) != index:
            raise ValueError(f"fan {label} is drawn on the line for fan {index}")
        line = body
    codes = line.split()
    if codes == ["-"]:
        return ()
    return tuple(Card.parse(code) for code in codes)


def check_cards(position: Position) -> None:
    """Every card is in exactly one place: in one fan, or on its foundation."""
    out = [card for fan in position.fans for card in fan]
    home = [card for card in DECK if card.rank <= position.foundations[card.suit_index]]
    places = out + home
    missing = sorted(set(DECK) - set(places))
    twice = sorted({card for card in places if places.count(card) > 1})
    if missing or twice:
        raise AssertionError(
            f"cards missing: {' '.join(map(str, missing)) or 'none'}; "
            f"cards in two places: {' '.join(map(str, twice)) or 'none'}\n{picture(position)}"
        )


def picture(position: Position) -> str:
    """The picture of a position, in the form `board` reads."""
    used = f"redeals {position.redeals_used}  mercis {position.mercis_used}"
    rules = f"rules {position.rules.name}  {used}"
    home = " ".join(
        DECK[i * 13 + rank - 1].code for i, rank in enumerate(position.foundations) if rank
    )
    fans = [f"{i:2}: {' '.join(c.code for c in fan) or '-'}" for i, fan in enumerate(position.fans)]
    return "\n".join([rules, f"home {home}".rstrip(), *fans])


assert SUITS == "CDHS"  # the `home` line and `foundations` both rely on this order


@pytest.fixture(name="board", scope="session")
def board_fixture() -> Board:
    """`board(picture, rules=None, redeals_used=..., mercis_used=...)` -> Position."""
    return board


@pytest.fixture(name="picture", scope="session")
def picture_fixture() -> Callable[[Position], str]:
    return picture


@pytest.fixture
def drawn(request: pytest.FixtureRequest) -> Position:
    """The position drawn in the requesting test's docstring."""
    doc = request.function.__doc__
    if not doc:
        raise ValueError(f"{request.function.__name__} draws no position in its docstring")
    return board(doc)
