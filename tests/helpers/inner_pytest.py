"""A pytest run inside a test, for the tests of the suite's own plugins (tests/suite/): two
xdist workers on one file of `folder`, with none of this project's settings, plugins or order."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def inner_pytest(
    folder: Path, test_file: Path, *options: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", *options, "-n", "2",
         "-p", "no:randomly", "-p", "no:django", "-p", "no:playwright", "-o", "addopts=",
         "--rootdir", str(folder), str(test_file)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **(env or {})},
    )  # fmt: skip
