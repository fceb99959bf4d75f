"""tests/helpers/cpu_report.py: the CPU each test costs, summed over a run's workers."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers.cpu_report import running_below, running_spent, summary
from tests.helpers.inner_pytest import inner_pytest


def test_the_summary_puts_the_costliest_file_and_test_first() -> None:
    lines = summary(
        [
            ("tests/a.py::test_cheap", 0.25, 0.0),
            ("tests/b.py::test_dear", 1.0, 3.0),
            ("tests/a.py::test_middling", 2.0, 0.0),
        ]
    )
    assert lines[0] == "3 tests: 6 s of CPU (3 s in pytest, 3 s in the processes below it)"
    files = lines[2:4]
    assert files[0].split() == ["4.0", "s", "tests/b.py", "(1", "tests)"]
    assert files[1].split() == ["2.2", "s", "tests/a.py", "(2", "tests)"]
    tests = lines[5:]
    assert [line.split()[-1] for line in tests] == [
        "tests/b.py::test_dear",
        "tests/a.py::test_middling",
        "tests/a.py::test_cheap",
    ]


@pytest.mark.slow
def test_a_run_on_two_workers_reports_the_cpu_a_child_process_spent(tmp_path: Path) -> None:
    (tmp_path / "test_spend.py").write_text(
        "import subprocess, sys\n"
        "def test_child():\n"
        "    subprocess.run([sys.executable, '-c', 'sum(range(30_000_000))'], check=True)\n"
        "def test_idle():\n"
        "    pass\n"
    )
    done = inner_pytest(
        tmp_path,
        tmp_path / "test_spend.py",
        "-p",
        "tests.helpers.cpu_report",
        env={"LUCIE_CPU_REPORT_DIR": str(tmp_path / "report")},
    )
    assert done.returncode == 0, done.stdout[-2000:]
    report = done.stdout[done.stdout.index("CPU per test") :].splitlines()
    assert report[1].startswith("2 tests: ")
    costliest = report[report.index("the 20 tests that cost the most:") + 1].split()
    assert costliest[-1].endswith("test_spend.py::test_child")
    assert float(costliest[0]) > 0.2
    # Each process's rows are read once, then gone.
    assert list((tmp_path / "report" / "lucie-cpu-report").iterdir()) == []


def test_a_process_still_running_is_counted_from_proc() -> None:
    """What a browser costs: a child that keeps running past the test, counted from /proc."""
    before = running_below(os.getpid())
    child = subprocess.Popen(
        [sys.executable, "-c", "import sys; sum(range(30_000_000)); sys.stdin.read()"],
        stdin=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 60
        while running_spent(before, running_below(os.getpid())) < 0.3:
            assert child.poll() is None
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert child.pid in running_below(os.getpid())
    finally:
        child.communicate(b"")
