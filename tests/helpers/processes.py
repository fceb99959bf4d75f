"""A fresh Python process started from the project's root, for the tests of what happens when a
process starts: the settings it refuses, gunicorn's config, what importing the engine loads."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_python(
    *args: str, env: Mapping[str, str], timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """`python ARGS` from the project's root with exactly `env`; its output as text, and its exit
    code left for the test to judge."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
