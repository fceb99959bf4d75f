"""Engine benchmark: raw move speed, rebuilding a long game, and the hints' win rates.

    .venv/bin/python bench/engine.py [--deals N]

Prints, among others, the line `hint wins: N/300`: following the hint the site serves
(game.engine.hint.hint, the fair hint) on deals 1-300 under the default rules, taking its move
every time, redealing when it says so, taking the merci when it says so. The fair hint never
looks at the real redeal shuffles (bench/strength.py proves it with hidden seeds), so playing
with the real ones here is fair too. `greedy hint wins` is the same for the plain heuristic.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine import (
    Hint,
    Move,
    Play,
    Position,
    Record,
    Rules,
    apply,
    greedy_hint,
    hint,
    legal_moves,
)


def play_out(number: int, advise: Callable[[Position], Hint | None] = greedy_hint) -> Play:
    """Follow a hint to the end of the game."""
    game = Play(number)
    while (advice := advise(game.position)) is not None:
        game.play(advice.move)
    return game


def moves_per_second(games: list[Play]) -> float:
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
        game = Play(number, Rules.parse("lucie-ru"))
        while len(game.moves) < length and (moves := legal_moves(game.position)):
            game.play(min(moves, key=lambda m: (m.is_redeal, m.merci, m.text)))
        if len(game.moves) >= length:
            return game.record
        number += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--smoke", action="store_true", help="a few seconds: 3 deals")
    options = parser.parse_args()
    count = 3 if options.smoke else options.deals

    started = time.perf_counter()
    games = [play_out(number) for number in range(1, count + 1)]
    greedy_seconds = time.perf_counter() - started
    greedy_wins = sum(game.position.cards_home == 52 for game in games)
    started = time.perf_counter()
    fair_wins = sum(play_out(n, hint).position.cards_home == 52 for n in range(1, count + 1))
    fair_seconds = time.perf_counter() - started

    rates = [moves_per_second(games) for _ in range(5)]
    record = long_record()
    text = record.text
    rebuilds = []
    for _ in range(21):
        started = time.perf_counter()
        Play.from_record(text)
        rebuilds.append(time.perf_counter() - started)
    # What a stored game's snapshot buys a request: the same game started from its position.
    played = Play.from_record(text)
    resumes = []
    for _ in range(21):
        started = time.perf_counter()
        resumed = Play.resume(
            record.deal_number, record.rules, record.moves, snapshot=played.snapshot
        )
        assert resumed.position == played.position
        resumes.append(time.perf_counter() - started)

    print(f"moves applied per second: {statistics.median(rates):,.0f} (median of 5 runs)")
    print(
        f"rebuild a {len(record.moves)}-move game from its record: "
        f"{statistics.median(rebuilds) * 1000:.2f} ms (median of 21); from its snapshot "
        f"{statistics.median(resumes) * 1000:.2f} ms"
    )
    print(f"{count} games played out: hint {fair_seconds:.1f} s, greedy {greedy_seconds:.1f} s")
    print(f"hint wins: {fair_wins}/{count}")
    print(f"greedy hint wins: {greedy_wins}/{count}")


if __name__ == "__main__":
    main()
