"""CI's parts name the folders they run (.ci/run): a test that none of them names would run
nowhere, and no run would say so."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent


def test_the_only_browser_test_outside_tests_browser_is_one_the_foreground_names() -> None:
    # The background's browser part collects tests/browser alone; the tests without a browser
    # leave out every test marked `browser`. So a module marked `browser` outside tests/browser
    # runs only if .ci/run's foreground part names it.
    marked = {
        path.relative_to(ROOT).as_posix()
        for path in TESTS.rglob("test_*.py")
        if "mark.browser" in path.read_text()
        and not path.is_relative_to(TESTS / "browser")
        and path != Path(__file__).resolve()
    }
    run = (ROOT / ".ci" / "run").read_text()
    assert marked == {"tests/web/test_any_date.py"}
    assert all(path in run.split("foreground_browser=(", 1)[1].split(")", 1)[0] for path in marked)
