"""The board's scripts are ES modules (static/js/board/, docs/frontend.md): small, without
cycles, loaded as one module script, with their imports rewritten to hashed names by
collectstatic; and htmx is configured in one place, the meta tag of templates/_htmx_config.html."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings

MODULES = Path(settings.BASE_DIR) / "static" / "js" / "board"
# The two forms the modules use: `import { say } from "./page.js";`, `import * as x from "./x.js";`.
IMPORT = re.compile(r'^import (?:\{[^}]*\}|\* as \w+) from "\./([\w.-]+\.js)";', re.MULTILINE)
# The same once collected, minified (lucie/storage.py): `import{say}from"./page.1a2b3c4d5e6f.js";`.
COLLECTED_IMPORT = re.compile(r'import\s*(?:\{[^}]*\}|\*\s*as\s+\w+)\s*from\s*"\./([\w.-]+\.js)";')
MODULE_SCRIPT = '<script type="module" src="/static/js/board/main.js"></script>'
BOARD_ANSWERS = '{"code":"40[09]|429|503","swap":true,"error":false}'


def imports() -> dict[str, list[str]]:
    return {
        path.stem: [file.removesuffix(".js") for file in IMPORT.findall(path.read_text())]
        for path in sorted(MODULES.glob("*.js"))
    }


def test_each_module_is_short_and_imports_only_modules_that_exist() -> None:
    graph = imports()

    assert "main" in graph
    assert len(graph) > 4
    for name in graph:
        lines = (MODULES / f"{name}.js").read_text().count("\n")
        assert lines <= 300, f"{name}.js has {lines} lines"
    for name, needs in graph.items():
        assert set(needs) <= set(graph), f"{name}.js imports a module that is not there"
    # Everything is reached from main.js, which only a page loads.
    reached, todo = set(), ["main"]
    while todo:
        name = todo.pop()
        if name not in reached:
            reached.add(name)
            todo += graph[name]
    assert reached == set(graph)
    assert not any("main" in needs for needs in graph.values())


def test_the_modules_import_each_other_without_a_cycle() -> None:
    # A cycle would keep collectstatic's hashes from settling ("Max post-process passes").
    graph = imports()
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for needed in graph[name]:
            visit(needed, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())


def test_no_script_sets_htmx_config() -> None:
    scripts = Path(settings.BASE_DIR) / "static" / "js"
    for path in scripts.rglob("*.js"):
        assert "htmx.config" not in path.read_text(), path


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/deal/5/", "/embed/deal/5/"])
def test_a_board_page_loads_the_board_as_one_module_with_its_answers_swapped(
    client: Client, url: str
) -> None:
    page = client.get(url).content.decode()

    assert page.count(MODULE_SCRIPT) == 1
    assert "js/board.js" not in page
    configs = re.findall(r"<meta name=\"htmx-config\" content='([^']*)'>", page)
    assert len(configs) == 1
    config = json.loads(configs[0])
    assert config["attributesToSettle"] == []
    assert config["defaultSettleDelay"] == 0
    assert config["includeIndicatorStyles"] is False
    # A refused move, a stale board, a rate limit or a busy site carry the board: swapped in.
    assert BOARD_ANSWERS in configs[0]
    assert config["responseHandling"][-1] == {"code": "[45]..", "swap": False, "error": True}


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/rules/", "/stats/", "/embed-this/"])
def test_a_page_without_a_board_keeps_htmx_default_answers(client: Client, url: str) -> None:
    response = client.get(url)
    page = response.content.decode()

    assert response.status_code == 200
    configs = re.findall(r"<meta name=\"htmx-config\" content='([^']*)'>", page)
    assert len(configs) == 1
    config = json.loads(configs[0])
    assert config["includeIndicatorStyles"] is False
    # The review's poll, for one, counts on a refusal not being swapped in.
    assert "responseHandling" not in config
    assert MODULE_SCRIPT not in page


def test_collectstatic_names_the_hashed_modules_in_each_import(tmp_path: Path) -> None:
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "lucie.storage.ManifestStaticFilesStorage"},
    }
    with override_settings(STORAGES=storages, STATIC_ROOT=tmp_path):
        call_command("collectstatic", interactive=False, verbosity=0)

    hashed = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    graph = imports()
    for name, needs in graph.items():
        collected = (tmp_path / hashed[f"js/board/{name}.js"]).read_text()
        named = COLLECTED_IMPORT.findall(collected)
        assert named == [Path(hashed[f"js/board/{needed}.js"]).name for needed in needs]
        for file in named:
            assert re.fullmatch(r"[\w-]+\.[0-9a-f]{12}\.js", file), file
            assert (tmp_path / "js" / "board" / file).is_file()
