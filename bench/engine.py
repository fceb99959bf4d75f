"""Engine benchmark: raw move speed, rebuilding a long game, and the greedy hint's win rate.

    .venv/bin/python bench/engine.py [--deals N]

Prints, among others, the line `hint wins: N/300` (following the plain heuristic hint of
game.engine.hint.greedy_hint on deals 1-300 under the default rules: take its move every time,
redeal when it says so, take the merci when it says so).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine import Game, Move, Position, Record, Rules, apply, greedy_hint, legal_moves


def play_out(number: int) -> Game:
    """Follow the greedy hint to the end of the game."""
    game = Game(number)
    while (hint := greedy_hint(game.position)) is not None:
        game.play(hint.move)
    return game


def moves_per_second(games: list[Game]) -> float:
    """Replay the recorded moves position by position, counting apply() calls."""
    pairs: list[tuple[Position, Move]] = []
    for game in games:
        positions = game.positions()
        pairs += list(zip(positions, game.moves, strict=False))
    started = time.perf_counter()
    for position, move in pairs:
        apply(position, move)
    return len(pairs) / (time.perf_counter() - started)


def long_record(length: int = 150) -> Record:
    """A legal record of `length` moves. Games under the default rules rarely run that long, so
    this one uses unlimited redeals (`lucie-ru`) and plays the first legal move each time."""
    number = 1
    while True:
        game = Game(number, Rules.parse("lucie-ru"))
        while len(game.moves) < length and (moves := legal_moves(game.position)):
            game.play(min(moves, key=lambda m: (m.is_redeal, m.merci, m.text)))
        if len(game.moves) >= length:
            return game.record
        number += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    count = parser.parse_args().deals

    started = time.perf_counter()
    games = [play_out(number) for number in range(1, count + 1)]
    hint_seconds = time.perf_counter() - started
    wins = sum(game.position.cards_home == 52 for game in games)

    rates = [moves_per_second(games) for _ in range(5)]
    record = long_record()
    text = record.text
    rebuilds = []
    for _ in range(21):
        started = time.perf_counter()
        Game.from_record(text)
        rebuilds.append(time.perf_counter() - started)

    print(f"moves applied per second: {statistics.median(rates):,.0f} (median of 5 runs)")
    print(
        f"rebuild a {len(record.moves)}-move game from its record: "
        f"{statistics.median(rebuilds) * 1000:.2f} ms (median of 21)"
    )
    print(f"greedy hint, {count} games played out in {hint_seconds:.2f} s")
    print(f"hint wins: {wins}/{count}")


if __name__ == "__main__":
    main()
