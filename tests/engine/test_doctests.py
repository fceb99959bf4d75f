"""The examples in the engine's docstrings are run as tests, so they stay true."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import game.engine

MODULES = sorted(f"game.engine.{info.name}" for info in pkgutil.iter_modules(game.engine.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_public_names_have_examples() -> None:
    tried = sum(
        doctest.testmod(importlib.import_module(name), report=False).attempted for name in MODULES
    )
    assert tried >= 12
