"""tests/helpers/cpu_report.py: the CPU each test costs, summed over a run's workers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.cpu_report import summary
from tests.helpers.inner_pytest import inner_pytest


def test_the_summary_puts_the_costliest_file_and_test_first() -> None:
    lines = summary(
        [
            ("tests/a.py::test_cheap", 0.25, 0.0),
            ("tests/b.py::test_dear", 1.0, 3.0),
            ("tests/a.py::test_middling", 2.0, 0.0),
        ]
    )
    assert (
        lines[0]
        == "3 tests: 6 s of CPU (3 s in pytest, 3 s in the processes they started and waited for)"
    )
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
