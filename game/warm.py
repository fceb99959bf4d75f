"""Work a server process does once, before it serves: the board's templates compiled, every
view module imported (the URL patterns), and each language's catalogue and card words loaded.

gunicorn loads the app in its master and forks the workers from it (preload_app,
gunicorn.conf.py calls `warm` then), so each worker starts with all of this in memory, shared
with the others until written. Without it each worker paid for it on its first requests, in
the middle of serving players: compiling the board's nine templates alone is some 0.1 s of CPU
a worker. It imports the whole site, so it sits above game/ops/.
"""

from __future__ import annotations

from django.conf import settings
from django.template import engines
from django.urls import get_resolver
from django.utils import translation

from game.board import table
from game.board.answers import BOARD_TEMPLATE


def warm() -> None:
    environment = engines["jinja2"].env  # type: ignore[attr-defined]
    for name in environment.list_templates(filter_func=lambda name: name.startswith("board/")):
        environment.get_template(name)
    environment.get_template(BOARD_TEMPLATE)
    get_resolver().url_patterns  # noqa: B018 (imports every view)
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            table.rank_labels()
