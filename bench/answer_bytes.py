"""How many bytes a move's answer sends, keyed (the server leaves out what the browser holds) or
whole (what a client-side morph such as idiomorph would need every time).

    .venv/bin/python bench/answer_bytes.py [--moves 30]

It plays the first `--moves` moves of deal 5 through Django's test client on a fresh SQLite file
with production-like settings (as bench/render.py does), each posted with the key of the board on
show, and for each compares the answer with the whole board at the same position. It prints one
line:

    30 moves: keyed answer 7002 B (1505 B gzipped), whole board 32075 B (3568 B gzipped), ratio 2.37

Bytes do not depend on the machine's load; the CPU side of the same choice is bench/render.py's.
docs/architecture.md says what was decided from these figures.
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.render import set_up


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="a few seconds: 3 moves")
    args = parser.parse_args()
    if args.smoke:
        args.moves = 3
    with tempfile.TemporaryDirectory() as workdir:
        set_up(Path(workdir))
        from django.test import Client

        from game import engine

        client = Client()
        client.get("/deal/5/")
        token = client.cookies["csrftoken"].value
        dealt = client.post("/deal/5/", headers={"X-CSRFToken": token})
        found = re.search(r"/game/(\d+)/", dealt["Location"])
        assert found is not None, dealt["Location"]
        url = f"/game/{found[1]}/"
        htmx = {"HX-Request": "true"}
        mirror = engine.Play(5)
        keyed: list[tuple[int, int]] = []
        whole: list[tuple[int, int]] = []
        for _ in range(args.moves):
            moves = engine.legal_moves(mirror.position)
            cards = [move for move in moves if not move.is_redeal and not move.merci]
            if not moves:
                break
            move = (cards or moves)[0]
            shown = client.get(url, headers=htmx).content.decode()
            key = re.search(r'data-position="(\w+)"', shown)
            posted = {"n": len(mirror.moves), "move": move.text, "auto": "0"}
            posted["v"] = key[1] if key else ""
            answer = client.post(url + "move/", posted, headers={"X-CSRFToken": token, **htmx})
            assert answer.status_code == 200, answer.status_code
            mirror.play(move)
            board = client.get(url, headers=htmx).content
            keyed.append((len(answer.content), len(gzip.compress(answer.content))))
            whole.append((len(board), len(gzip.compress(board))))
    count = len(keyed)

    def mean(values: list[tuple[int, int]], index: int) -> float:
        return sum(value[index] for value in values) / count

    print(
        f"{count} moves: keyed answer {mean(keyed, 0):.0f} B ({mean(keyed, 1):.0f} B gzipped), "
        f"whole board {mean(whole, 0):.0f} B ({mean(whole, 1):.0f} B gzipped), "
        f"ratio {mean(whole, 1) / mean(keyed, 1):.2f}"
    )


if __name__ == "__main__":
    main()
