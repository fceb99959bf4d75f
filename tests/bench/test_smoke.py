"""Every benchmark still starts: each `bench/*.py` is run with `--smoke`, a short run (seconds of
CPU) that goes through what the full run does (docs/benchmarks.md). A benchmark nobody runs is
dead; this makes CI run all of them, so one that no longer starts fails the build."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(path.name for path in (ROOT / "bench").glob("*.py"))
# The longest smoke seen on the shared 2-core machine, at a load average of 17, was attack.py's
# (about 3 minutes, most of it starting five gunicorn servers); the limit is there so that a
# benchmark that hangs fails instead of holding CI.
TIMEOUT = 600
# docs/benchmarks.md quotes each smoke's CPU time (its table "Smoke runs": the script's and every
# process it started and waited for), which this test measures the same way. A smoke's wall time
# on a shared machine is mostly what runs beside it (attack.py's took 105 s in one rehearsal and
# 279 and 347 s in a CI run, for the same work); its CPU is what it costs. Past LOOSE times the
# quoted CPU and SLACK seconds (a machine twice as slow, a busy one's dearer caches), the docs no
# longer say what it costs.
LOOSE, SLACK = 3, 5
QUOTED = re.compile(r"^\| `([\w-]+\.py)` \| [^|\n]* \| ([\d.]+) s\b", re.M)


def quoted_seconds() -> dict[str, float]:
    text = (ROOT / "docs" / "benchmarks.md").read_text()
    return {script: float(seconds) for script, seconds in QUOTED.findall(text)}


def run_smoke(script: str, environ: dict[str, str]) -> tuple[int, str, str, float]:
    """`bench/<script> --smoke`, killed past TIMEOUT: its exit code, its output and errors, and
    its CPU time, os.wait4's account of the smoke's process and every process it waited for (a
    gunicorn master counts the workers it reaped), whatever else this test process started."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(
            [sys.executable, f"bench/{script}", "--smoke"],
            cwd=ROOT,
            env=environ,
            stdout=out,
            stderr=err,
            text=True,
        )
        deadline = threading.Timer(TIMEOUT, process.kill)
        deadline.start()
        try:
            _, status, used = os.wait4(process.pid, 0)
        finally:
            hung = deadline.finished.is_set()
            deadline.cancel()
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        errors = err.read() + (f"\nkilled after {TIMEOUT} s" if hung else "")
        return process.returncode, out.read(), errors, used.ru_utime + used.ru_stime


def test_the_docs_quote_each_smokes_time() -> None:
    assert set(quoted_seconds()) == set(SCRIPTS)


def test_every_benchmark_is_run_here() -> None:
    assert "load.py" in SCRIPTS
    assert "modules.py" in SCRIPTS


# The attack's smoke takes the longest (about 30 s alone: two floods, a Redis stopped, a rate
# limit's window waited out): it starts first (tests/helpers/order.py).
LONGEST = {"attack.py": 30}


@pytest.mark.parametrize(
    "script",
    [pytest.param(name, marks=pytest.mark.slow(seconds=LONGEST.get(name, 10))) for name in SCRIPTS],
)
def test_the_benchmark_starts_and_ends_with_smoke(script: str) -> None:
    environ = {**os.environ, "DJANGO_LOG_LEVEL": "WARNING"}
    # The test run's own settings module and database are not the benchmark's: each makes its
    # own scratch database (or uses DATABASE_URL's server, as CI's PostgreSQL pass sets it).
    environ.pop("DJANGO_SETTINGS_MODULE", None)
    code, printed, errors, cost = run_smoke(script, environ)
    said = f"{printed[-3000:]}\n{errors[-3000:]}"
    assert code == 0, f"{script} --smoke failed:\n{said}"
    assert printed.strip(), f"{script} --smoke printed nothing"
    quoted = quoted_seconds()[script]
    assert cost <= LOOSE * quoted + SLACK, (
        f"{script} --smoke cost {cost:.1f} s of CPU; docs/benchmarks.md says {quoted} s"
    )
