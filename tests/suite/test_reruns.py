"""tests/helpers/reruns.py: a rerun says why its first run failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.inner_pytest import inner_pytest


@pytest.mark.slow
def test_a_test_that_passes_on_its_rerun_says_why_its_first_run_failed(tmp_path: Path) -> None:
    flag = tmp_path / "ran"
    (tmp_path / "test_flake.py").write_text(
        "from pathlib import Path\n"
        "def test_flake():\n"
        f"    flag = Path({str(flag)!r})\n"
        "    if not flag.exists():\n"
        "        flag.write_text('once')\n"
        "        assert 2 + 2 == 5, 'starved past its deadline'\n"
        "def test_steady():\n"
        "    pass\n"
    )
    done = inner_pytest(
        tmp_path, tmp_path / "test_flake.py", "-p", "tests.helpers.reruns", "--reruns", "1"
    )
    assert done.returncode == 0, done.stdout[-2000:]
    why = done.stdout[done.stdout.index("why each rerun's first run failed") :].splitlines()
    assert why[1] == "RERUN-WHY test_flake.py::test_flake (call):"
    assert why[2].strip().endswith("test_flake.py:6: AssertionError: starved past its deadline")
    assert "test_steady" not in "\n".join(why)
