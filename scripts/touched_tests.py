"""The tests a change most likely breaks, for `make check`: printed as pytest paths.

Always the engine's and the board's (every move goes through both), then the tests of each folder
the change touched, read from git: the files changed since the branch left main, and those not
committed yet. A test file that changed runs itself. `make test` runs everything; this is the
lane that answers in under a minute (29 s on the 2-core development machine, quiet).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALWAYS = ("tests/engine", "tests/web/board")
# Where a change outside game/<folder>/ is tested.
ELSEWHERE = {
    "game/jinja2/board": ("tests/web/board",),
    "static/js/board": ("tests/web/board",),
    "game/models.py": ("tests/web/board", "tests/web/play"),
    "game/status.py": ("tests/web/daily", "tests/web/play"),
    "game/result.py": ("tests/web/daily", "tests/web/play"),
    "game/rank.py": ("tests/web/daily",),
    "game/tally.py": ("tests/web/daily",),
    "game/streaks.py": ("tests/web/daily",),
    "game/deals.py": ("tests/web/daily",),
    "game/players.py": ("tests/web/players",),
    "game/ops": ("tests/web/ops", "tests/web/test_limits.py", "tests/web/test_health.py"),
    "lucie": (
        "tests/web/test_settings.py",
        "tests/web/test_headers.py",
        "tests/web/test_health.py",
    ),
    "locale": ("tests/web/i18n",),
}


def changed_files() -> set[str]:
    def git(*args: str) -> list[str]:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.split() if done.returncode == 0 else []

    base = git("merge-base", "HEAD", "main")
    committed = git("diff", "--name-only", f"{base[0]}...HEAD") if base else []
    return {
        *committed,
        *git("diff", "--name-only", "HEAD"),
        *git("ls-files", "--others", "--exclude-standard"),
    }


def tests_for(path: str) -> list[str]:
    parts = Path(path).parts
    if parts[0] == "tests" and Path(path).name.startswith("test_"):
        return [path]
    found = [tests for prefix, tests in ELSEWHERE.items() if path.startswith(prefix)]
    if found:
        return [test for tests in found for test in tests]
    if parts[0] in ("game", "templates") and len(parts) > 2:
        return [f"tests/web/{parts[1]}"]
    return []


def main() -> None:
    paths = dict.fromkeys(ALWAYS)
    for path in sorted(changed_files()):
        paths.update(dict.fromkeys(tests_for(path)))
    print(" ".join(path for path in paths if (ROOT / path).exists()))


if __name__ == "__main__":
    sys.exit(main())
