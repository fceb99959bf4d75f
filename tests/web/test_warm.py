"""The work a server does once before it forks its workers (game/warm.py, gunicorn.conf.py)."""

from __future__ import annotations

from django.template import engines

from game.warm import warm


def test_warming_compiles_every_board_template() -> None:
    environment = engines["jinja2"].env  # type: ignore[attr-defined]
    environment.cache.clear()
    warm()
    board = set(environment.list_templates(filter_func=lambda name: name.startswith("board/")))
    compiled = {name for _loader, name in environment.cache}
    assert len(board) >= 8
    assert board <= compiled
