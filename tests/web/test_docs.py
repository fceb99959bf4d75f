"""What README.md and docs/ say of the code, checked against it where a test can: every path
they name exists, the module count and the byte budget they quote are the code's, the code map
names every module of the board, the site and the embed, and the glossary lists each name once."""

from __future__ import annotations

import ast
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


# ---------------------------------------------------------------- claims over the code

# The docs say: the wall clock is read as Django's `timezone.now()` alone (aware, in UTC, and
# moved by time-machine and LUCIE_TEST_CLOCK), today's date is taken from it in game/deals.py,
# and the engine reads no clock. Durations are another matter: a monotonic clock measures them
# wherever one is timed.
WALL_CLOCK = "django.utils.timezone.now"
OTHER_WALL_CLOCKS = {
    "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today",
    "datetime.date.today", "time.time", "time.time_ns", "time.gmtime", "time.localtime",
    "time.ctime", "time.asctime",
}  # fmt: skip
DURATION_CLOCKS = {
    "time.monotonic", "time.monotonic_ns", "time.perf_counter", "time.perf_counter_ns",
    "time.process_time",
}  # fmt: skip
# Each place a rule above has an exception, with its reason.
TODAY_READERS = {
    "game/deals.py": "which UTC day it is: the deal of the day, the calendar, the streaks",
    "lucie/middleware.py": "a session's renewal at most once a UTC day (lucie imports nothing "
    "from game, so it cannot ask game.deals)",
}
ENGINE_TIMERS = {
    "game/engine/solver.py": "the search's time limit and the seconds it took: a duration",
    "game/engine/budget.py": "the clock a search's deadline is read on: a duration",
}
# A game's status is written in game/board/store.py alone: `save` derives won or lost from the
# engine's outcome, and `finish` marks a game abandoned when a new game or a statistics transfer
# replaces it (both call store.finish).
STATUS_WRITERS = {"game/board/store.py"}
WRITING_CALLS = {"update", "create", "get_or_create", "update_or_create", "Game"}


def sources() -> list[Path]:
    return sorted(
        path
        for top in ("game", "lucie")
        for path in (ROOT / top).rglob("*.py")
        if "migrations" not in path.parts
    )


def imported_names(tree: ast.Module) -> dict[str, str]:
    """What each name a module imports stands for: `dt` for `datetime`, `timezone` for
    `django.utils.timezone`, `monotonic` for `time.monotonic`."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                names[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return names


def dotted(node: ast.expr, names: dict[str, str]) -> str | None:
    """`dt.datetime.now` as `datetime.datetime.now`, through the module's imports."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in names:
        return None
    return ".".join([names[node.id], *reversed(parts)])


def reads_now(func: ast.expr, names: dict[str, str]) -> bool:
    """Whether a call of `func` reads the wall clock: `timezone.now()`, or game.deals's
    `now_utc()` (named by its own module, or imported)."""
    if isinstance(func, ast.Name) and func.id == "now_utc":
        return True
    return dotted(func, names) in {WALL_CLOCK, "game.deals.now_utc"}


def clocks_read(text: str) -> list[tuple[str, int]]:
    """Each clock a module's source names (called, or handed over as `default=timezone.now`),
    with its line; `WALL_CLOCK + ".date"` where a date is taken from the wall clock."""
    tree = ast.parse(text)
    names = imported_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute | ast.Name):
            name = dotted(node, names)
            if name in {WALL_CLOCK, *OTHER_WALL_CLOCKS, *DURATION_CLOCKS}:
                found.append((name, node.lineno))
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "date"
            and any(
                isinstance(inner, ast.Call) and reads_now(inner.func, names)
                for inner in ast.walk(node.func.value)
            )
        ):
            found.append((WALL_CLOCK + ".date", node.lineno))
    return found


def status_written(text: str) -> list[int]:
    """The lines where a module sets a game's status: `x.status = …` (but `self.status`, an
    HTTP status of the object's own), or `status=` handed to update, create or `Game(…)`."""
    lines = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and target.attr == "status"
                    and not (isinstance(target.value, ast.Name) and target.value.id == "self")
                ):
                    lines.append(node.lineno)
        if isinstance(node, ast.Call) and any(k.arg == "status" for k in node.keywords):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in WRITING_CALLS:
                lines.append(node.lineno)
    return lines


def test_the_clock_checks_see_every_form() -> None:
    text = (
        "import datetime as dt\nimport time\nfrom time import monotonic\n"
        "from django.utils import timezone\nfrom django.db import models\n"
        "a = dt.datetime.now(dt.UTC)\nb = time.time()\nc = monotonic()\n"
        "d = models.DateTimeField(default=timezone.now)\n"
        "e = timezone.now().astimezone(dt.UTC).date()\n"
    )
    assert sorted(clocks_read(text)) == sorted(
        [
            ("datetime.datetime.now", 6),
            ("time.time", 7),
            ("time.monotonic", 8),
            (WALL_CLOCK, 9),
            (WALL_CLOCK, 10),
            (WALL_CLOCK + ".date", 10),
        ]
    )
    status = (
        "game.status = 'won'\nself.status = 429\nGame.objects.filter(pk=1).update(status='x')\n"
    )
    assert status_written(status) == [1, 3]
    assert status_written("Game.objects.filter(status='won')\n") == []


def test_the_wall_clock_is_read_as_timezone_now_alone() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} {name}"
        for path in sources()
        for name, line in clocks_read(path.read_text())
        if name in OTHER_WALL_CLOCKS
    ]
    assert not found, "read the wall clock as django.utils.timezone.now()"


def test_todays_date_is_taken_from_the_clock_only_where_listed() -> None:
    readers = {
        str(path.relative_to(ROOT))
        for path in sources()
        for name, _line in clocks_read(path.read_text())
        if name == WALL_CLOCK + ".date"
    }
    assert readers == set(TODAY_READERS)


def test_the_engine_reads_no_clock_but_its_listed_timers() -> None:
    readers = {
        str(path.relative_to(ROOT)): {name for name, _line in clocks_read(path.read_text())}
        for path in sorted((ROOT / "game" / "engine").rglob("*.py"))
    }
    readers = {path: names for path, names in readers.items() if names}
    assert set(readers) == set(ENGINE_TIMERS)
    assert all(names <= DURATION_CLOCKS for names in readers.values())


def test_a_games_status_is_written_in_one_module() -> None:
    writers = {
        str(path.relative_to(ROOT)) for path in sources() if status_written(path.read_text())
    }
    assert writers == STATUS_WRITERS
