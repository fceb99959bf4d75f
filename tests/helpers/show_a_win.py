"""Show a win through the test client, and its search on as a job on the task queue
(game/board/show_a_win_job.py): asking, the panel's polls, what the panel says, a request's search
cut short, and the job held back as a queue with no worker holds it, then run."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client

from game.board import show_a_win
from game.engine import solver
from game.models import Game

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as Response

HX = {"HX-Request": "true"}
WON = "This game can still be won from here"
STILL_LOOKING = "Still looking for a win from here…"


def ask(client: Client, game: Game, *, htmx: bool = True, prefix: str = "") -> Response:
    """Show a win, confirmed, on `game`'s board as it stands."""
    game.refresh_from_db()
    return client.post(
        f"{prefix}/game/{game.pk}/show-a-win/", {"n": game.move_count}, headers=HX if htmx else {}
    )


def poll(client: Client, game: Game, *, htmx: bool = True, prefix: str = "") -> Response:
    """What the panel's poll asks while the search on goes on."""
    return client.get(f"{prefix}/game/{game.pk}/show-a-win/wait/", headers=HX if htmx else {})


def search_on(html: str) -> str | None:
    """How the search on stands, as the panel says (`data-search-on`), or None."""
    found = re.search(r'id="show-a-win"[^>]*data-search-on="(\w+)"', html)
    return None if found is None else found[1]


def panel(html: str) -> str:
    """The Show a win panel's markup alone."""
    found = re.search(r'<section id="show-a-win".*?</section>', html, re.S)
    assert found is not None, html[:500]
    return found[0]


def request_gives_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """A request's own search far too short to decide anything; the job's is untouched."""
    monkeypatch.setattr(show_a_win, "TIME_LIMIT", 0.001)
    monkeypatch.setattr(show_a_win, "NODE_CAP", 10)


def searches(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every search the real solver is asked for, by its budget (`time_limit`, `max_nodes`)."""
    calls: list[dict[str, Any]] = []
    real = solver.solve

    def counting(position: Any, **kwargs: Any) -> solver.Solution:
        calls.append(kwargs)
        return real(position, **kwargs)

    monkeypatch.setattr(solver, "solve", counting)
    return calls


class HeldJobs:
    """The search on's jobs asked for and not taken yet (a queue whose worker is busy): each
    wake-up's record text; `work()` runs them as a worker would (game/ops/queue.py: run)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from game.ops import leases

        self.keys: list[str] = []
        real = leases.wake

        def wake(key: str, kind: str, *, behind: int = 0, priority: int | None = None) -> bool:
            if kind != "show_a_win":
                return real(key, kind, behind=behind, priority=priority)
            self.keys.append(key)
            return True

        monkeypatch.setattr(leases, "wake", wake)

    @property
    def asked(self) -> list[str]:
        from game.ops.jobs import Job

        return [Job.objects.get(key=key).argument for key in self.keys]

    def work(self) -> None:
        from game.ops import leases

        for key in self.keys:
            leases.run.call_local(key)
