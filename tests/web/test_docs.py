"""What README.md and docs/ say of the code, checked against it where a test can: every path
they name exists, the module count and the byte budget they quote are the code's, the code map
names every module of the board, the site and the embed, and the glossary lists each name once."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TOP = ("game/", "lucie/", "bench/", "tests/", "docs/", "templates/", "static/", "scripts/",
       "locale/", ".ci/")  # fmt: skip
# A path in backquotes, as the docs write one (`game/board/changes.py`, `game/play/`,
# `game/board/store.py:save`, `tests/helpers/browser.screenshot`).
QUOTED = re.compile(r"`([^`\s]+)`")
# Examples of what is not there yet (how to add a language) and benchmarks.md's history of runs,
# which names what the code was then: true of the code at the commit each run names.
NOT_PATHS = {"locale/it/", "locale/it/LC_MESSAGES/django.po"}
HISTORY = {"benchmarks.md"}


def named_paths(text: str) -> set[str]:
    found = set()
    for quoted in QUOTED.findall(text):
        path = quoted.rstrip(".,:;)").split(":")[0].split("#")[0]
        if path.startswith(TOP) and not re.search(r"[<>*{}$…]", path) and path not in NOT_PATHS:
            found.add(path)
    return found


def exists(path: str) -> bool:
    if (ROOT / path).exists():
        return True
    # `module.function`: the module's file.
    module, dot, _name = path.rpartition(".")
    return bool(dot) and (ROOT / f"{module}.py").exists()


@pytest.mark.parametrize("doc", [d for d in DOCS if d.name not in HISTORY], ids=lambda d: d.name)
def test_every_path_a_doc_names_exists(doc: Path) -> None:
    missing = sorted(path for path in named_paths(doc.read_text()) if not exists(path))
    assert not missing, f"{doc.name} names what is not there: {missing}"


def test_every_benchmark_the_benchmarks_doc_names_exists() -> None:
    named = set(
        re.findall(r"(?<![\w/])bench/(\w+)\.py", (ROOT / "docs" / "benchmarks.md").read_text())
    )
    gone = {"jinja_board"}  # a prototype measured once, removed with its figures kept
    assert named - gone <= {path.stem for path in (ROOT / "bench").glob("*.py")}


def test_the_code_map_names_every_module_of_the_board_the_site_and_the_embed() -> None:
    readme = (ROOT / "README.md").read_text()
    for folder in ("game/board", "game/play", "game/embed"):
        for module in sorted((ROOT / folder).glob("*.py")):
            if module.name != "__init__.py":
                lacks = f"README's code map lacks {folder}/{module.name}"
                assert f"`{module.name}`" in readme, lacks


def test_the_byte_budget_the_docs_quote_is_the_tests() -> None:
    weight = (ROOT / "tests" / "web" / "board" / "test_weight.py").read_text()
    goal = int(re.search(r"^GOAL = ([\d_]+)", weight, re.M)[1].replace("_", ""))  # type: ignore[index]
    text = (ROOT / "docs" / "architecture.md").read_text()
    quoted = re.findall(r"the (\d+) kB budget of\s+`tests/web/board/test_weight.py`", text)
    assert quoted
    assert all(int(kb) * 1000 == goal for kb in quoted)


def test_the_glossary_lists_each_name_once() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    section = text.split("## Names in the code", 1)[1].split("\n## ", 1)[0]
    names = re.findall(r"^\| ([^|]+?) \|", section, re.M)
    names = [n for n in names if n not in ("name", "---")]
    assert len(names) == len(set(names))
    assert len(names) > 30
    assert "Show a win, `show_a_win`" in names


@pytest.mark.slow
def test_the_module_count_the_docs_quote_is_the_benchmarks() -> None:
    done = subprocess.run(
        [sys.executable, "bench/modules.py", "--smoke"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={"PATH": "/usr/bin:/bin", "DJANGO_LOG_LEVEL": "WARNING"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    count = int(re.search(r"runs code in (\d+) modules", done.stdout)[1])  # type: ignore[index]
    text = (ROOT / "docs" / "architecture.md").read_text()
    quoted = re.search(r"runs code in\s+(\d+) Python modules", text)
    assert quoted is not None
    assert int(quoted[1]) == count
