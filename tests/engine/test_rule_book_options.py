"""The rule books' two options: `once` (a card moved from fan to fan may then only go home, until
the next redeal) and `stuck` (the merci only when no other move is left)."""

from __future__ import annotations

import pytest

from game.engine import (
    APP_RULES,
    REDEAL,
    Card,
    IllegalMoveError,
    Move,
    Play,
    Position,
    Rules,
    apply,
    card_moves,
    legal_moves,
    search,
    search_state,
    snapshot_position,
    snapshot_text,
)
from game.engine.fair import fair_move
from game.engine.solver import solve


def first_moves_until_the_merci(number: int, rules_name: str) -> Position:
    """Deal `number`, always taking the first card move listed, else the redeal, until nothing
    but the merci is left (the issue's line)."""
    position = Position.start(number, Rules.parse(rules_name))
    while True:
        plays = card_moves(position)
        if plays:
            position = apply(position, plays[0])
        elif position.can_redeal:
            position = apply(position, REDEAL)
        else:
            return position


def texts(position: Position) -> list[str]:
    return [move.text for move in legal_moves(position)]


def test_without_once_the_free_mercis_card_moves_on_again() -> None:
    after = apply(first_moves_until_the_merci(1, "lucie-free"), Move.parse("*9C>5C"))
    assert texts(after) == ["9C>TC"]


def test_under_once_the_free_mercis_card_may_only_go_home() -> None:
    after = apply(first_moves_until_the_merci(1, "lucie-free-once"), Move.parse("*9C>5C"))
    assert texts(after) == []
    assert after.only_home(Card.parse("9C"))
    with pytest.raises(IllegalMoveError, match="may only go to its foundation") as refused:
        apply(after, Move.parse("9C>TC"))
    assert refused.value.code == "moved_once"
    assert after.outcome() is not None
    assert not after.outcome().won  # type: ignore[union-attr]


def test_under_once_deal_3s_merci_card_has_only_its_foundation() -> None:
    free = apply(first_moves_until_the_merci(3, "lucie-free"), Move.parse("*3S>8H"))
    once = apply(first_moves_until_the_merci(3, "lucie-free-once"), Move.parse("*3S>8H"))
    assert texts(free) == ["3S>F", "3S>4S"]
    assert texts(once) == ["3S>F"]


def test_a_redeal_frees_a_moved_card() -> None:
    rules = Rules.parse("lucie-free-once")
    position = Position.start(1, rules)
    build = next(move for move in card_moves(position) if move.onto is not None)
    after = apply(position, build)
    assert after.moved == {build.card}
    redealt = apply(after, REDEAL)
    assert redealt.moved == frozenset()
    plain = apply(apply(Position.start(1, Rules.parse("lucie-free")), build), REDEAL)
    assert redealt.fans == plain.fans
    assert texts(redealt) == texts(plain)


def test_under_once_a_card_whose_successor_the_merci_drew_out_stays_put() -> None:
    """The Six of Clubs was built on the Seven; the merci draws the Seven out onto the Eight.
    Without `once` the Six could follow it; with `once` it may only go home.

        fan 0: 9C 7C 6C      fan 1: 8C      fan 2: 5C TC JC QC KC
    """
    text = "lucie{} 1 2/0 9C7C6C,8C,5CTCJCQCKC"
    plain = apply(Position.parse(text.format("")), Move.parse("*7C>8C"))
    once = apply(Position.parse(text.format("-once") + " moved=6C"), Move.parse("*7C>8C"))
    assert "6C>7C" in texts(plain)
    assert "6C>7C" not in texts(once)


def test_a_king_moved_into_an_empty_fan_stays_there_under_once() -> None:
    rules = Rules.parse("lucie-once-kings")
    position = Position.parse(f"{rules.name} 1 0/0 QCKC,,,KD")
    after = apply(position, Move.parse("KC>@1"))
    assert after.only_home(Card.parse("KC"))
    assert [move for move in legal_moves(after) if move.card == Card.parse("KC")] == []
    assert Position.parse(after.text) == after


@pytest.mark.parametrize("name", ["lucie-free-once", "lucie-once-stuck-kings", "trefoil-once"])
def test_the_moved_cards_are_part_of_the_positions_text(name: str) -> None:
    position = first_moves_until_the_merci(2, name)
    assert position.moved
    assert " moved=" in position.text
    assert Position.parse(position.text) == position


def test_a_moved_card_needs_the_once_option_in_the_text() -> None:
    with pytest.raises(ValueError, match="once"):
        Position.parse("lucie 1 2/0 9C7C6C,8C,5CTCJCQCKC moved=6C")


def test_without_once_nothing_is_remembered_as_moved() -> None:
    assert first_moves_until_the_merci(1, "lucie-free").moved == frozenset()


def test_under_stuck_no_merci_is_listed_while_a_card_move_is_left() -> None:
    position = Position.start(1, Rules.parse("lucie-r0-stuck"))
    assert card_moves(position)
    assert not any(move.merci for move in legal_moves(position))
    assert position.merci_waits
    assert not position.merci_open
    plain = Position.start(1, Rules.parse("lucie-r0"))
    merci = next(move for move in legal_moves(plain) if move.merci)
    with pytest.raises(IllegalMoveError, match="only when no other move") as refused:
        apply(position, merci)
    assert refused.value.code == "merci_not_stuck"


def test_under_stuck_the_merci_is_listed_once_no_card_moves() -> None:
    position = first_moves_until_the_merci(1, "lucie-stuck")
    assert not card_moves(position)
    assert position.merci_open
    assert not position.merci_waits
    plain = first_moves_until_the_merci(1, "lucie")
    assert texts(position) == texts(plain)
    assert any(move.merci for move in legal_moves(position))


def test_the_apps_game_is_the_free_merci_with_once() -> None:
    assert Rules.parse("lucie-free-once") == APP_RULES
    game = Play(1, APP_RULES)
    game.play(Move.parse("AS>F"))
    assert game.position.rules.name == "lucie-free-once"


@pytest.mark.parametrize("name", ["lucie-free-once", "lucie-stuck", "lucie-free-once-stuck"])
@pytest.mark.parametrize("number", [1, 3])
def test_the_solver_and_the_fair_player_play_only_legal_moves_under_the_options(
    name: str, number: int
) -> None:
    position = first_moves_until_the_merci(number, name)
    found = fair_move(position)
    assert found is not None
    assert found.move in legal_moves(position)
    solution = solve(position)
    assert solution.proven
    for move in solution.moves:
        assert move in legal_moves(position)
        position = apply(position, move)
    assert (position.cards_home == 52) == solution.won


def test_the_search_lists_no_move_for_a_moved_card() -> None:
    after = apply(first_moves_until_the_merci(1, "lucie-free-once"), Move.parse("*9C>5C"))
    deal = search.DealSearch.from_position(after)
    assert list(deal.steps()) == []
    plain = apply(first_moves_until_the_merci(1, "lucie-free"), Move.parse("*9C>5C"))
    assert [search_state.to_move(step, plain_fans(plain)) for step in steps_of(plain)] == [
        Move.parse("9C>TC")
    ]


def plain_fans(position: Position) -> list[list[int]]:
    return [[card.index for card in fan] for fan in position.fans]


def steps_of(position: Position) -> list[search_state.Step]:
    return list(search.DealSearch.from_position(position).steps())


def test_a_snapshot_under_once_keeps_the_moved_cards() -> None:
    rules = APP_RULES
    game = Play(1, rules)
    while plays := card_moves(game.position) or ([REDEAL] if game.position.can_redeal else []):
        game.play(plays[0])
    game.play(Move.parse("*9C>5C"))
    text = snapshot_text(game.position, game.moves)
    resumed = snapshot_position(text, game.moves, rules, 1)
    assert resumed == game.position
    assert resumed is not None
    assert resumed.only_home(Card.parse("9C"))
    assert Play.from_record(game.record.text).position == game.position
