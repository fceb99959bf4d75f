"""Write tests/data/deals.json from the engine. Run it only for a new shuffle version:
the file exists to catch a silent change, so never regenerate it to make a test pass.
"""

import json
from pathlib import Path

from game.engine.cards import DECK
from game.engine.deal import (
    MAX_DEAL,
    SHUFFLE_VERSION,
    SplitMix64,
    first_layout,
    redeal,
    stream_seed,
)
from game.engine.rules import Layout


def fans_text(fans):
    return [" ".join(card.code for card in fan) for fan in fans]


def main() -> None:
    rng = SplitMix64(stream_seed(1, 0))
    vectors = {
        "shuffle_version": SHUFFLE_VERSION,
        "splitmix64_seed_1_first_outputs": [rng.next() for _ in range(4)],
        "deals": [],
        "redeals": [],
    }
    for number in (1, 2, 20260726, MAX_DEAL):
        for layout in Layout:
            fans, foundations = first_layout(number, layout)
            vectors["deals"].append(
                {
                    "number": number,
                    "layout": layout.value,
                    "fans": fans_text(fans),
                    "foundations": list(foundations),
                }
            )
    odd_cards = [card for card in DECK if card.index % 2 == 1]  # 26 cards: every other one
    for number in (1, 20260726):
        for index in (1, 2):
            for name, cards in (
                ("all 52", DECK),
                ("odd indexes", odd_cards),
                ("first 50", DECK[:50]),
            ):
                vectors["redeals"].append(
                    {
                        "number": number,
                        "redeal": index,
                        "cards": name,
                        "fans": fans_text(redeal(cards, number, index)),
                    }
                )
    path = Path(__file__).with_name("deals.json")
    path.write_text(json.dumps(vectors, indent=1) + "\n")


if __name__ == "__main__":
    main()
