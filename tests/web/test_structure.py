"""The shape of the code: no import circle between packages, and no module too long to read in
one sitting.

The packages are `lucie` (the project: settings, middleware, sessions, metrics, the cache) and the
app's parts: each subpackage of `game` (`game.engine`, `game.board`, `game.daily`, ...) and each of
its top-level modules (`game.models`, `game.limits`, ...). None of them may reach itself again
through the others' imports. And the project sits under the app: game imports lucie, so lucie
imports nothing from game (it names the app by dotted path only, in settings and the root
URLconf, as Django wires an app in).

Every import counts, wherever it is written: at module level, under `if TYPE_CHECKING:`, or
inside a function. An import moved into a function only puts a circle off until it runs; it is
still a dependency a reader has to hold in mind. Imports within one package (position.py and
legal.py in the engine, say) are the package's own business and are not checked here.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("game", "lucie")
MAX_LINES = 300

# Modules over MAX_LINES: the search alone, the documented exception (one algorithm,
# docs/architecture.md). This list should only ever shrink; none joins it.
LONG_MODULES = frozenset({"game/engine/search.py"})


def sources() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = frozenset(module_name(path) for path in sources())


def imported(path: Path) -> Iterator[tuple[str, int]]:
    """Each module `path` imports, with the line that imports it. `from game import engine`
    imports game.engine, and `from .legal import apply` the sibling module."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            yield base, node.lineno
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:
                    yield f"{base}.{alias.name}", node.lineno


def part_of(module: str) -> str | None:
    """The package a module belongs to for this check: `lucie`, a subpackage or top-level module
    of game (`game.engine`, `game.models`), or None for anything else (Django, the stdlib)."""
    parts = module.split(".")
    if parts[0] == "lucie":
        return "lucie"
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


def test_the_check_reads_imports_inside_functions_and_relative_ones() -> None:
    names = dict(imported(ROOT / "game" / "engine" / "legal.py"))
    assert "game.engine.position" in names  # under `if TYPE_CHECKING:`, relative
    assert "game.engine.moves" in names
    names = dict(imported(ROOT / "game" / "tally.py"))
    assert "game.deals" in names  # imported inside a function


def test_no_module_is_longer_than_the_limit() -> None:
    long = {
        str(path.relative_to(ROOT)): length
        for path in sources()
        if (length := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert not {path: length for path, length in long.items() if path not in LONG_MODULES}


def test_the_long_modules_named_still_exist() -> None:
    assert all((ROOT / path).is_file() for path in LONG_MODULES)
