"""How many of the project's modules an htmx move runs code in.

    .venv/bin/python bench/modules.py [--smoke]

Sets up a scratch SQLite database, deals a game through the site's own URLs with Django's test
client, plays one move, then traces a second move (an htmx post on the stored game) with
`sys.setprofile` and counts the distinct Python modules of `game/` and `lucie/` whose code ran
(the board's compiled Jinja2 templates are not modules), and the queries it made. Prints
`an htmx move runs code in N modules of game/ and lucie/ (Q queries)`, then the modules and
the queries, one a line. The limit: at most 39 (GOAL), and with `--smoke` (the same run, a few
seconds) it exits 1 past it. With CACHE_URL (a shared Redis) the session is
read from the cache, as production's servers read it; without it from the database (each
process's own memory would go stale beside the others: lucie/settings.py).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# 19 at 6a20ba9; each module added since runs on every move by design: the early refusal's
# check (game/ops/early_refusal.py, every request), the log mask (lucie/logmask.py, every log
# line), and the hint each board carries ready for its first press (game/board/hints.py,
# game/engine/hint.py and notation.py for its words, lucie/metrics.py for the hint cache's
# figures, game/ops/limits.py for its compute slot): 26, and 27 with CACHE_URL (lucie/cache.py).
# Then issue 47 split the board's 838-line pipeline by job (fronts, changes, answers, drawn,
# kept) and made a game's end an explicit call (game/ending.py, which reads game/tally.py on
# every save): 31, and 32 with CACHE_URL. Then the board's words (one 930-line module holding
# seven jobs) became a package of a module per job, six of which every board reads, and the
# controls, timer and places left drawn.py for a module of their own, and the engine's apply
# left position.py for transition.py: 38, and 39 with CACHE_URL. Then the early refusal's check
# moved in front of Django's handler (lucie/wsgi.py; every request still passes it, but Django's
# test client, which this traces, does not): 37, and 38 with CACHE_URL.
# More modules on the path is the price of modules small enough to read; the limit still
# catches a module that creeps onto the path unasked.
GOAL = 39


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="lucie-modules-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lucie.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment

    from game import engine
    from game.models import Game
    from game.ops import searches

    searches.start_computing()  # as each gunicorn worker does as it starts (gunicorn.conf.py)
    # The path counted is the one where the board's hint is found: on a loaded machine a board
    # that waited its quarter of a second goes without it, and runs fewer modules.
    searches.BOARD_HINT_GRACE_SECONDS = 60.0
    setup_test_environment()
    call_command("migrate", verbosity=0)
    client = Client()
    client.get("/")
    dealt = client.post("/deal/7/", headers={"X-CSRFToken": client.cookies["csrftoken"].value})
    game_id = int(dealt["Location"].strip("/").split("/")[-1])

    def legal_move(row: Game) -> str:
        position = row.resume().position
        return next(m for m in engine.legal_moves(position) if not m.is_redeal and not m.merci).text

    def move(row: Game) -> object:
        data = {"n": row.move_count, "move": legal_move(row), "auto": "0"}
        return client.post(f"/game/{row.pk}/move/", data, headers={"HX-Request": "true"})

    first = move(Game.objects.get(pk=game_id))
    assert first.status_code == 200, first.status_code  # type: ignore[attr-defined]
    row = Game.objects.get(pk=game_id)
    data = {"n": row.move_count, "move": legal_move(row), "auto": "0"}

    seen: set[str] = set()
    prefixes = (str(ROOT / "game") + os.sep, str(ROOT / "lucie") + os.sep)

    def profile(frame, event, arg):  # type: ignore[no-untyped-def]
        if event == "call":
            filename = frame.f_code.co_filename
            if filename.startswith(prefixes) and filename.endswith(".py"):
                seen.add(str(Path(filename).relative_to(ROOT)))

    with CaptureQueriesContext(connection) as queries:
        sys.setprofile(profile)
        try:
            answer = client.post(f"/game/{row.pk}/move/", data, headers={"HX-Request": "true"})
        finally:
            sys.setprofile(None)
    assert answer.status_code == 200, answer.status_code
    print(
        f"an htmx move runs code in {len(seen)} modules of game/ and lucie/ "
        f"({len(queries.captured_queries)} queries)"
    )
    for name in sorted(seen):
        print(f"  {name}")
    for query in queries.captured_queries:
        print(f"  query: {query['sql'][:100]}")
    if "--smoke" in sys.argv[1:] and len(seen) > GOAL:
        sys.exit(f"more than {GOAL} modules")


if __name__ == "__main__":
    main()
