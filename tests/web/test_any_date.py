"""The tests that deal with days pass on any day: run at the 1st of a month and at the 15th
(with the whole run's clock moved there, tests/conftest.py's LUCIE_TEST_CLOCK), they give the
same results, every one a pass. A test that reads the real clock where it meant a fixed date
(a month page "as of today", a session read outside its frozen time) passes on some days and
fails on others: one of the two runs catches it.

The suite was run whole at each of these moments when this test was written (the 1st, the 15th
and the last of a month, 31 December into 1 January, 28 and 29 February of a leap year:
docs/testing.md); this test keeps the modules that read the clock honest from
then on, at a cost CI can pay on every run. It runs once, on SQLite: the clock is the database's
no more than it is the test's.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

# The modules that read today's date, directly or through the pages they test.
DATE_MINDED = (
    "tests/web/daily/test_daily.py",
    "tests/web/daily/test_result_box.py",
    "tests/web/players/test_remembered.py",
    "tests/web/players/test_sessions.py",
    "tests/web/stats/test_stats.py",
    "tests/browser/test_daily.py",
)

# The 1st of a month, and the 15th after two unplayed weeks: the pair that found the calendar's
# clipped "Not playe" (a day not played shows only after the 1st).
MOMENTS = ("2027-03-01T10:00:00Z", "2027-03-15T10:00:00Z")

pytestmark = [
    pytest.mark.slow,
    # It drives Chromium (tests/browser/test_daily.py, in both runs): CI runs it with the browser
    # tests, which wait more than they compute, not in the part without a browser.
    pytest.mark.browser,
    pytest.mark.skipif(
        connection.vendor != "sqlite", reason="once per CI run: the SQLite pass runs it"
    ),
    pytest.mark.skipif(
        bool(os.environ.get("LUCIE_TEST_CLOCK")), reason="this test moves the clock itself"
    ),
]


def outcomes(moment: str, folder: Path) -> dict[str, str]:
    """Each test's outcome ("passed", "failed", "error", "skipped") in a run at `moment`."""
    report = folder / f"{moment[:10]}.xml"
    environment = {**os.environ, "LUCIE_TEST_CLOCK": moment}
    environment.pop("DATABASE_URL", None)
    environment.pop("PYTEST_XDIST_WORKER", None)
    command = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
        "-o", "addopts=--strict-markers", f"--junitxml={report}", *DATE_MINDED,
    ]  # fmt: skip
    subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, timeout=1800)
    found: dict[str, str] = {}
    for case in ET.parse(report).getroot().iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        kinds = [child.tag for child in case if child.tag in ("failure", "error", "skipped")]
        found[name] = kinds[0] if kinds else "passed"
    return found


def test_the_date_minded_tests_pass_alike_on_the_1st_and_the_15th(tmp_path: Path) -> None:
    # The two runs at once: each waits on its browser and its pages more than on a core, and
    # one after the other they made this the suite's longest test (166 s under load).
    with ThreadPoolExecutor(max_workers=len(MOMENTS)) as pool:
        first, fifteenth = pool.map(lambda moment: outcomes(moment, tmp_path), MOMENTS)
    assert first, "no test ran"
    assert first.keys() == fifteenth.keys()
    differ = {
        name: (first[name], fifteenth[name]) for name in first if first[name] != fifteenth[name]
    }
    assert differ == {}
    unpassed = {name: kind for name, kind in first.items() if kind not in ("passed", "skipped")}
    assert unpassed == {}
