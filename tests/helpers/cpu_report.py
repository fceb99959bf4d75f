"""The CPU each test costs, for finding where a CPU-bound run's time goes (docs/testing.md).

    make test PYTEST_ARGS="-m 'not browser and not timed' -p tests.helpers.cpu_report"

`--durations` gives wall-clock times, which on a saturated machine say more about what ran
beside a test than about the test. This plugin counts, for each test (setup, call and teardown),
the CPU of the pytest process running it and of the child processes that ended meanwhile (a
`manage.py` run, a gunicorn the test started and stopped), and prints the files and the tests
that cost the most at the end of the run, each worker's figures added up.

What it cannot see: a child still running when the test ends (a server a module's fixture keeps
is counted in the test whose teardown waits for it), processes that are not waited for (the
compute processes of the test process's own search pool), and the commands
tests/helpers/forked.py runs: they are its fork server's children, whose CPU reaches the
pytest process only when that server ends with the run.
"""

from __future__ import annotations

import json
import os
import resource
import tempfile
from collections import defaultdict
from collections.abc import Generator
from pathlib import Path

import pytest

SHOWN = 20
# Each process of the run (an xdist worker, or the run itself without xdist) writes its rows
# here; the run's own process reads them all once the workers are done.
FOLDER = Path(os.environ.get("LUCIE_CPU_REPORT_DIR") or tempfile.gettempdir()) / "lucie-cpu-report"

Row = tuple[str, float, float]  # test id, CPU of the pytest process, CPU of ended children


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


class CpuReport:
    def __init__(self, run: str, *, reports: bool) -> None:
        self.run = run
        self.reports = reports  # the run's own process, not an xdist worker
        self.rows: list[Row] = []

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, None, None]:
        own, children = _cpu()
        yield
        own_after, children_after = _cpu()
        self.rows.append((item.nodeid, own_after - own, children_after - children))

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        FOLDER.mkdir(parents=True, exist_ok=True)
        (FOLDER / f"{self.run}-{worker}.json").write_text(json.dumps(self.rows))

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.reports:
            return
        rows: list[Row] = []
        for path in sorted(FOLDER.glob(f"{self.run}-*.json")):
            rows.extend(tuple(row) for row in json.loads(path.read_text()))
            path.unlink()
        write = terminalreporter.write_line
        terminalreporter.section("CPU per test (tests/helpers/cpu_report.py)")
        for line in summary(rows):
            write(line)


def summary(rows: list[Row]) -> list[str]:
    """The run's CPU, then the files and the tests that cost the most, most first."""
    own = sum(row[1] for row in rows)
    children = sum(row[2] for row in rows)
    lines = [f"{len(rows)} tests: {own + children:.0f} s of CPU ({own:.0f} s in pytest, "
             f"{children:.0f} s in the processes they started and waited for)"]  # fmt: skip
    by_file: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for test, own_cpu, children_cpu in rows:
        totals = by_file[test.split("::")[0]]
        totals[0] += own_cpu + children_cpu
        totals[1] += 1
    lines.append(f"the {SHOWN} files that cost the most:")
    for path, (cpu, count) in sorted(by_file.items(), key=lambda item: -item[1][0])[:SHOWN]:
        lines.append(f"  {cpu:7.1f} s  {path} ({count:.0f} tests)")
    lines.append(f"the {SHOWN} tests that cost the most:")
    for test, own_cpu, children_cpu in sorted(rows, key=lambda row: -(row[1] + row[2]))[:SHOWN]:
        lines.append(f"  {own_cpu + children_cpu:7.1f} s  {test}")
    return lines


def pytest_configure(config: pytest.Config) -> None:
    # An xdist worker is a child of the run's own process: both name the run by that process's
    # id, so that two runs at once do not read each other's rows.
    worker = hasattr(config, "workerinput")
    run = os.getppid() if worker else os.getpid()
    config.pluginmanager.register(CpuReport(f"run{run}", reports=not worker), "lucie-cpu-report")
