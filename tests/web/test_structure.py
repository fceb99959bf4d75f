"""The shape of the code: no import circle between packages, none between the modules of one
package, and no test file that imports another.

The packages are `lucie` (the project: settings, middleware, sessions, metrics, the cache) and the
app's parts: each subpackage of `game` (`game.engine`, `game.board`, `game.daily`, ...), each of its
top-level modules (`game.models`, `game.deals`, ...) and each module of `game/ops/`
(`game.ops.limits`, `game.ops.leases`, ...). None of them may reach itself again through the others'
imports. `game/ops/` is a folder that groups the operations' modules for a reader, not one part: the
board takes its limits from it and the schedule takes the board's job from the board, as they did
when those modules sat at `game/`'s top level. And the project sits under the app: game imports
lucie, so lucie imports nothing from game (it names the app by dotted path only, in settings and the
root URLconf, as Django wires an app in).

Inside a package the same holds for its modules: position.py and legal.py in the engine, say, may
not import each other, directly or round a longer circle. A package's `__init__` counts as one of
its modules when a module takes a name from it (`from game.engine import Move`), not when it only
names a sibling module through it (`from . import legal`).

Every import counts, wherever it is written: at module level, under `if TYPE_CHECKING:`, or
inside a function. An import moved into a function only puts a circle off until it runs; it is
still a dependency a reader has to hold in mind.

Tests share helpers through `tests/helpers/` and fixtures through `conftest.py`; no file under
`tests/` imports a test file (`test_*.py`), so changing one test module never breaks others.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("game", "lucie")


def sources() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = frozenset(module_name(path) for path in sources())


def imported(path: Path, modules: frozenset[str] = MODULES) -> Iterator[tuple[str, int]]:
    """Each module `path` imports, with the line that imports it. `from game import engine`
    imports game.engine, and `from .legal import apply` the sibling module; `from game.engine
    import Move` imports game.engine itself (its `__init__`)."""
    here = module_name(path)
    yield from imports_in(path.read_text(), here, path.name == "__init__.py", modules, str(path))


def imports_in(
    source: str, here: str, is_package: bool, modules: frozenset[str], filename: str = "<source>"
) -> Iterator[tuple[str, int]]:
    """The modules a module named `here` imports in `source` (see `imported`); `modules` are
    the names that are modules rather than names inside one."""
    package = here if is_package else here.rpartition(".")[0]
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            if not all(name in modules for name in submodules):
                yield base, node.lineno
            for name in submodules:
                if name in modules:
                    yield name, node.lineno


def part_of(module: str) -> str | None:
    """The package a module belongs to for this check: `lucie`, a subpackage or top-level module
    of game (`game.engine`, `game.models`), a module of game/ops/ (`game.ops.leases`), or None
    for anything else (Django, the stdlib)."""
    parts = module.split(".")
    if parts[0] == "lucie":
        return "lucie"
    if parts[:2] == ["game", "ops"] and len(parts) > 2:
        return ".".join(parts[:3])
    if parts[0] == "game":
        return ".".join(parts[:2])
    return None


Edges = dict[str, dict[str, list[str]]]


def edges(merge_game: bool = False) -> Edges:
    """part -> the parts it imports -> where ("game/play/site.py:24"). With `merge_game`, all of
    game is one part."""
    graph: Edges = {}
    for path in sources():
        source = part_of(module_name(path))
        for name, line in imported(path):
            target = part_of(name)
            if merge_game:
                source, target = (part.split(".")[0] if part else None for part in (source, target))
            if source is None or target is None or source == target:
                continue
            where = f"{path.relative_to(ROOT)}:{line}"
            places = graph.setdefault(source, {}).setdefault(target, [])
            if where not in places:
                places.append(where)
    return graph


def circles(graph: Edges) -> list[list[str]]:
    """The strongly connected parts of more than one node (Tarjan's algorithm): each is a set of
    packages that import one another round in a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in graph.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def explain(graph: Edges, circle: list[str]) -> str:
    lines = [" <-> ".join(circle)]
    for source in circle:
        for target, places in sorted(graph.get(source, {}).items()):
            if target in circle:
                lines.append(f"  {source} -> {target}: {', '.join(places[:3])}")
    return "\n".join(lines)


def test_the_packages_import_one_another_without_a_circle() -> None:
    graph = edges()
    assert not [explain(graph, circle) for circle in circles(graph)]


def test_lucie_imports_nothing_from_game() -> None:
    graph = edges(merge_game=True)
    assert "lucie" in graph.get("game", {}), "the check would not see game importing lucie"
    assert "game" not in graph.get("lucie", {}), graph.get("lucie", {}).get("game")


def test_the_check_sees_a_circle() -> None:
    graph: Edges = {
        "game.a": {"game.b": ["a.py:1"]},
        "game.b": {"game.c": ["b.py:1"]},
        "game.c": {"game.a": ["c.py:1"], "lucie": ["c.py:2"]},
    }
    assert circles(graph) == [["game.a", "game.b", "game.c"]]


def test_each_module_of_ops_is_a_part_of_its_own() -> None:
    assert part_of("game.ops.leases") == "game.ops.leases"
    assert part_of("game.ops.leases.Job") == "game.ops.leases"
    assert part_of("game.board.changes") == "game.board"
    assert "game.ops.queue" in edges().get("game.ops.leases", {})


def test_the_check_reads_imports_inside_functions_and_relative_ones() -> None:
    names = dict(imported(ROOT / "game" / "engine" / "hint.py"))
    assert "game.engine.fair" in names  # under `if TYPE_CHECKING:`, relative
    assert "game.engine.position" in names
    names = dict(imported(ROOT / "game" / "tally.py"))
    assert "game.deals" in names  # imported inside a function


def module_edges() -> Edges:
    """module -> the modules of its own package it imports -> where ("game/engine/hint.py:19").
    A name that is not a module itself (`import game.engine.position.x`) counts as the module
    that holds it."""
    graph: Edges = {}
    for path in sources():
        source = module_name(path)
        for name, line in imported(path):
            target = name
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if not target or target == source or part_of(target) != part_of(source):
                continue
            where = f"{path.relative_to(ROOT)}:{line}"
            places = graph.setdefault(source, {}).setdefault(target, [])
            if where not in places:
                places.append(where)
    return graph


def test_the_module_graph_keeps_a_package_to_itself() -> None:
    graph = module_edges()
    assert all(
        part_of(source) == part_of(target)
        for source, targets in graph.items()
        for target in targets
    )
    # play.py takes Position from position.py: an edge inside game.engine.
    assert "game.engine.position" in graph.get("game.engine.play", {})


def test_the_modules_of_a_package_import_one_another_without_a_circle() -> None:
    graph = module_edges()
    assert not [explain(graph, circle) for circle in circles(graph)]


# ---------------------------------------------------------------- one name per module and class

# Django's names for a package's parts, which each package of an app repeats by design.
CONVENTIONAL = frozenset({"__init__.py", "views.py", "urls.py", "forms.py"})


def game_sources() -> list[Path]:
    """game/'s modules, its migrations left out (Django numbers and names them)."""
    return [path for path in sources() if path.parts[len(ROOT.parts)] == "game"
            and "migrations" not in path.parts]  # fmt: skip


def test_no_two_modules_of_game_share_a_name() -> None:
    """A module's name says what it holds, so no two modules of game/ share one, but for Django's
    names of a package's parts and its management commands: a command's module is named after
    the command (`manage.py backup` is game/management/commands/backup.py), and those that
    share a name with a module of game/ (`backup`, `restore`, `prune`) are that module's
    command line."""
    named: dict[str, list[str]] = {}
    for path in game_sources():
        if path.name not in CONVENTIONAL and path.parent.name != "commands":
            named.setdefault(path.name, []).append(str(path.relative_to(ROOT)))
    assert not {name: paths for name, paths in named.items() if len(paths) > 1}
    assert "show_a_win.py" in named


def test_no_two_classes_of_game_share_a_name() -> None:
    """A class's name says its thing: no two classes of game/ share one, at a module's top level
    (a model's own `Status` or `Kind` is read as `Game.Status`, `Job.Kind`), but for Django's
    `Command` of each management command."""
    defined: dict[str, list[str]] = {}
    for path in game_sources():
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef) and node.name != "Command":
                defined.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    assert not {name: paths for name, paths in defined.items() if len(paths) > 1}
    assert "OnShow" in defined


# ---------------------------------------------------------------- tests import helpers, not tests

TESTS = ROOT / "tests"


def imported_tests_by(path: Path) -> list[str]:
    """The test modules (`test_*`) that the file at `path` imports, wherever it imports them."""
    return imported_tests_in(path.read_text(), module_name(path), path.name == "__init__.py")


def imported_tests_in(source: str, here: str, is_package: bool = False) -> list[str]:
    """Each test module `source` imports, with its line: `from tests.web import test_embed`
    names one as surely as `from tests.web.test_embed import start` does."""
    package = here if is_package else here.rpartition(".")[0]
    named = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        else:
            continue
        named += [
            f"{name}:{node.lineno}"
            for name in names
            if any(part.startswith("test_") for part in name.split("."))
        ]
    return sorted(set(named))


def test_no_test_file_imports_another_test_file() -> None:
    # Helpers and conftest files are held to it too: a test module is never a library.
    files = sorted(TESTS.rglob("*.py"))
    assert len([path for path in files if path.name.startswith("test_")]) > 50, files
    found = {
        str(path.relative_to(ROOT)): named for path in files if (named := imported_tests_by(path))
    }
    assert not found


def test_the_test_import_check_sees_every_form() -> None:
    here = "tests.web.play.test_x"
    assert imported_tests_in("from tests.web.play.test_play import start", here)
    assert imported_tests_in("from tests.web.embed import test_embed", here)
    assert imported_tests_in("import tests.browser.test_play", here)
    assert imported_tests_in("def f():\n    from .test_play import post\n", here)
    assert imported_tests_in("from . import test_play", here)
    assert not imported_tests_in("from tests.helpers.play import start", here)
    assert not imported_tests_in("from tests.web.live_gunicorn import serving", here)


# What game/ops/ may import of game: the engine, the models (whose Job is game/ops/jobs.py's)
# and its own modules. What needs the whole site (every job registered, every view imported)
# lives above it: game/schedule.py, game/warm.py.
OPS_MAY_IMPORT = {"game.engine", "game.models"}


def test_ops_imports_nothing_above_it() -> None:
    above = {
        source: {target: places for target, places in targets.items()
                 if target.startswith("game") and not target.startswith("game.ops.")
                 and target not in OPS_MAY_IMPORT}
        for source, targets in edges().items()
        if source.startswith("game.ops.")
    }  # fmt: skip
    assert {source: targets for source, targets in above.items() if targets} == {}


def test_the_ops_check_sees_an_import_back_up() -> None:
    """The moved scheduler imports the board, the daily pages and the review: the same check
    run on it names them."""
    targets = {part_of(name) for name, _ in imported(ROOT / "game" / "schedule.py")}
    assert {"game.board", "game.daily", "game.review"} <= targets


# ---------------------------------------------------------------- sizes a reader can hold

MODULE_LINES = 400
FUNCTION_LINES = 60


def long_functions(source: str, limit: int = FUNCTION_LINES) -> Iterator[tuple[str, int]]:
    """Each function of `source` longer than `limit` lines, from its `def` to its last line."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > limit:
                yield node.name, lines


def test_no_module_of_game_is_over_400_lines() -> None:
    """A module does one job and reads in one sitting: one that grows past this is split by job
    (never merged with another to make the count)."""
    long = {
        str(path.relative_to(ROOT)): count
        for path in game_sources()
        if (count := len(path.read_text().splitlines())) > MODULE_LINES
    }
    assert long == {}


def test_no_function_of_game_is_over_60_lines() -> None:
    long = {
        f"{path.relative_to(ROOT)}:{name}": lines
        for path in game_sources()
        for name, lines in long_functions(path.read_text())
    }
    assert long == {}


def test_the_size_checks_see_a_long_function_and_count_from_def_to_last_line() -> None:
    body = "".join(f"    x = {n}\n" for n in range(3))
    nested = f"class A:\n    def m(self):\n{body.replace('    ', '        ')}"
    assert list(long_functions(f"def short():\n{body}", 4)) == []
    assert list(long_functions(f"def four():\n{body}", 3)) == [("four", 4)]
    assert list(long_functions(nested, 3)) == [("m", 4)]
