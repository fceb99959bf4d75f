"""The board fragment's render, in process: milliseconds per call of its two parts.

    .venv/bin/python bench/render.py [--renders 400] [--rounds 5] [--smoke]

It deals a game of deal 5 (`lucie-ru`) on a fresh SQLite file, plays a few moves, and captures
three answers as the site makes them, through Django's test client: a move's answer (made with
the board's key, so the fans and the menu the move left alone go out as hx-preserve
placeholders), the whole board (an htmx GET of the game page), and a cached hint (the same hint
asked twice, the second from the cache). For each it prints the milliseconds per call of:

- `context`: `drawn.board`, the one `Board` value the answer shows (everything the board
  template reads);
- `render`: the board's Jinja2 template (game/jinja2/board/board.jinja) with that board's
  context, as `answers.answer` renders an htmx answer (its output is checked against the
  answer's).

Each figure is this process's CPU time per call, the median over `--rounds` rounds of
`--renders` calls, the two taken in turn within a round so that a busy machine slows them
alike. Before the board moved to Jinja2 this script also rendered it through Django's template
engine, from which docs/architecture.md's figures ("The board's renderer") came.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEAL = 5
RULES = "lucie-ru"
OPENING = 6  # moves played before the captured answers


def set_up(workdir: Path) -> None:
    """Django in this process, on a fresh migrated SQLite file with production-like settings."""
    from tests.web.live_gunicorn import server_environment

    environ = server_environment(
        f"sqlite:///{workdir / 'render.sqlite3'}",
        ALLOWED_HOSTS="127.0.0.1,testserver",
        DJANGO_STATIC_ROOT=str(workdir),
    )
    os.environ.update(environ)
    import django

    django.setup()
    from django.core.management import call_command

    # Migrated in this process: `manage.py migrate` would start Django a second time. What the
    # migrations left is collected before anything is timed.
    call_command("migrate", interactive=False, verbosity=0)
    gc.collect()


class Captured:
    """The last board a view built (its request and context), and the last `drawn.board`
    call's arguments."""

    def __init__(self) -> None:
        self.render: tuple[Any, dict[str, Any]] | None = None
        self.context_call: tuple[tuple[Any, ...], dict[str, Any]] | None = None
        self.board_context: Callable[..., Any] | None = None


def capture(captured: Captured) -> None:
    from game.board import answers

    # The answer calls the board by the name it imported (game/board/answers.py).
    original = answers.board
    captured.board_context = original

    def board(*args: Any, **kwargs: Any) -> Any:
        captured.context_call = (args, kwargs)
        drawn = original(*args, **kwargs)
        captured.render = (args[0], drawn.context())
        return drawn

    answers.board = board  # type: ignore[assignment]


def board_key(html: str) -> str:
    found = re.search(r'data-position="(\w+)"', html)
    return found[1] if found else ""


def cases(captured: Captured) -> dict[str, tuple[Captured, str]]:
    """Each answer's render and `drawn.board` call, captured from a real request."""
    import copy

    from django.test import Client

    from game import engine
    from game.board import store
    from game.models import Game

    client = Client()
    response = client.post(f"/deal/{DEAL}/?rules={RULES}")
    game_id = int(response["Location"].split("/")[2])
    game = engine.Play(DEAL, engine.Rules.parse(RULES))
    for _ in range(OPENING):
        game.play(sorted(engine.legal_moves(game.position), key=lambda m: m.text)[0])
    store.save(Game.objects.get(pk=game_id), game)
    htmx = {"HX-Request": "true"}
    found: dict[str, tuple[Captured, str]] = {}

    def keep(name: str, response: Any) -> None:
        assert response.status_code == 200, (name, response.status_code)
        found[name] = (copy.copy(captured), response.content.decode())

    board = client.get(f"/game/{game_id}/", headers=htmx)
    keep("whole board", board)
    move = sorted(engine.legal_moves(game.position), key=lambda m: m.text)[0].text
    form = {"move": move, "n": OPENING, "auto": 0, "v": board_key(board.content.decode())}
    keep("move answer", client.post(f"/game/{game_id}/move/", form, headers=htmx))
    client.post(f"/game/{game_id}/undo/", {"n": OPENING + 1, "auto": 0}, headers=htmx)
    client.get(f"/game/{game_id}/hint/", headers=htmx)  # searched, then cached
    keep("cached hint", client.get(f"/game/{game_id}/hint/", headers=htmx))
    return found


def per_call(call: Callable[[], object], count: int) -> float:
    # CPU time, not the wall clock: on a shared machine a render waits for a core now and then.
    started = time.process_time()
    for _ in range(count):
        call()
    return (time.process_time() - started) * 1000 / count


def renderers() -> dict[str, Callable[[Captured], Callable[[], object]]]:
    from django.template import engines

    from game.board import answers

    def context(shot: Captured) -> Callable[[], object]:
        assert shot.context_call is not None
        args, kwargs = shot.context_call
        original = shot.board_context
        assert original is not None
        return lambda: original(*args, **kwargs)

    def render(shot: Captured) -> Callable[[], object]:
        assert shot.render is not None
        request, values = shot.render
        template = engines["jinja2"].get_template(answers.BOARD_TEMPLATE)
        return lambda: template.render(values, request)

    return {"context": context, "render": render}


def squeezed(html: str) -> str:
    """`html` with the timer's reading and the masked CSRF token (each changes from one render
    to the next) left out."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "", html)
    return re.sub(r'data-elapsed-ms="\d+"', "", html)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=400, help="calls per round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds (the median is printed)")
    parser.add_argument("--smoke", action="store_true", help="a few seconds: 5 calls, 1 round")
    options = parser.parse_args()
    if options.smoke:
        options.renders, options.rounds = 5, 1
    with tempfile.TemporaryDirectory(prefix="lucie-render-") as tmp:
        set_up(Path(tmp))
        captured = Captured()
        capture(captured)
        shots = cases(captured)
        makers = renderers()
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        print(f"{'':>12} " + " ".join(f"{name:>9}" for name in makers) + "   (ms per call)")
        for case, (shot, html) in shots.items():
            calls = {name: make(shot) for name, make in makers.items()}
            if squeezed(str(calls["render"]())) != squeezed(html):
                print(f"  {case}: the render differs from the answer")
            figures: dict[str, list[float]] = {name: [] for name in calls}
            for _ in range(options.rounds):
                for name, call in calls.items():
                    figures[name].append(per_call(call, options.renders))
            medians = {name: statistics.median(values) for name, values in figures.items()}
            line = " ".join(f"{medians[name]:>9.3f}" for name in calls)
            print(f"{case:>12} {line}   ({len(html)} bytes)")


if __name__ == "__main__":
    main()
