"""Fixtures shared by the web tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.test import override_settings
from django.utils import timezone

from game import engine
from game.engine import solver
from game.ops import searches
from tests.helpers.slots import every_slot_held


@pytest.fixture
def solver_calls(monkeypatch: pytest.MonkeyPatch) -> list[engine.Position]:
    """Every position the real solver is asked about, in order."""
    calls: list[engine.Position] = []
    real = solver.solve

    def counting(position: engine.Position, **kwargs: Any) -> solver.Solution:
        calls.append(position)
        return real(position, **kwargs)

    monkeypatch.setattr(solver, "solve", counting)
    return calls


@pytest.fixture
def rate_limits() -> Iterator[None]:
    """Rate limits on (the suite runs with them off), counting from zero, with the clock stopped
    so that no counting window closes during a slow test."""
    cache.clear()
    with override_settings(RATELIMIT_ENABLE=True), time_machine.travel(timezone.now(), tick=False):
        yield
    cache.clear()


@pytest.fixture
def slots_taken(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every compute slot of this process held, the hints' too, as by searches running in other
    threads (a hint waits for its slot only briefly here)."""
    monkeypatch.setattr(searches, "HINT_WAIT_SECONDS", 0.05)
    with every_slot_held(searches._slots, searches._hint_slots):
        yield
