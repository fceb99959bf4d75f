"""tests/helpers/forked.py: a forked command exits, reads its environment and times out as a
process of its own started with `python` would."""

from __future__ import annotations

import os
import subprocess

import pytest

from tests.helpers import forked
from tests.helpers.processes import ROOT

BARE = {"PATH": os.environ.get("PATH", ""), "ONLY_THIS": "yes"}


def test_exit_codes_output_and_the_environment_are_the_commands_own() -> None:
    done = forked.run(
        "-c", "import os, sys; print(sorted(os.environ), os.getcwd(), sys.argv[1:]); sys.exit(3)",
        "a", "b", env=BARE,
    )  # fmt: skip
    assert done.returncode == 3
    assert done.stdout.strip() == f"['ONLY_THIS', 'PATH'] {ROOT} ['a', 'b']"

    crashed = forked.run("-c", "1 / 0", env=BARE)
    assert crashed.returncode == 1
    assert "ZeroDivisionError" in crashed.stderr

    said = forked.run("-c", "raise SystemExit('no such backup')", env=BARE)
    assert (said.returncode, said.stderr.strip()) == (1, "no such backup")


def test_a_command_past_its_timeout_is_killed_and_the_next_one_runs() -> None:
    with pytest.raises(subprocess.TimeoutExpired):
        forked.run("-c", "import time; time.sleep(60)", env=BARE, timeout=0.5)
    assert forked.run("-c", "print('next')", env=BARE).stdout == "next\n"


def test_a_manage_py_command_reads_the_settings_from_its_environment() -> None:
    refused = forked.run("manage.py", "check", env={**BARE, "DJANGO_DEBUG": "0"})
    assert refused.returncode != 0
    assert "SECRET_KEY" in refused.stderr or "ALLOWED_HOSTS" in refused.stderr
