"""The engine is plain Python: a fresh interpreter imports all of it without loading Django."""

from __future__ import annotations

import json
import os

from tests.helpers.processes import ROOT, run_python

PROBE = """
import importlib, json, pkgutil, sys
import game.engine
names = sorted(
    "game.engine." + info.name for info in pkgutil.iter_modules(game.engine.__path__)
)
for name in names:
    importlib.import_module(name)
loaded = sorted(name for name in sys.modules if name == "django" or name.startswith("django."))
print(json.dumps({"submodules": names, "django": loaded}))
"""


def probe() -> dict[str, list[str]]:
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    result = run_python(
        "-I", "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r})\n{PROBE}", env=env, timeout=60
    )
    assert result.returncode == 0, result.stderr
    found: dict[str, list[str]] = json.loads(result.stdout)
    return found


def test_importing_the_whole_engine_loads_no_django() -> None:
    found = probe()
    expected = {
        f"game.engine.{name}"
        for name in ("cards", "rules", "deal", "moves", "position", "notation", "play", "hint")
    }
    assert expected <= set(found["submodules"])
    assert found["django"] == []


def test_the_engine_source_names_no_django() -> None:
    for path in (ROOT / "game" / "engine").rglob("*.py"):
        source = path.read_text()
        assert "import django" not in source, path
        assert "from django" not in source, path
