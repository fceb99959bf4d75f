"""Why each rerun's first run failed. CI runs a failed test again (`--reruns`,
pytest-rerunfailures, docs/testing.md "Reruns"); the plugin's own summary ("-rR") names the test
but not what failed, and a flake is mended from what failed. This prints, at the end of the run,
each rerun's failure: where it was raised and its message, cut to a few lines."""

from __future__ import annotations

import pytest

LINES = 12


def _why(report: pytest.TestReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        said = f"{crash.path}:{crash.lineno}: {crash.message}"
    else:
        said = report.longreprtext
    lines = said.strip().splitlines()
    cut = lines[:LINES] + ([f"… ({len(lines) - LINES} more lines)"] if len(lines) > LINES else [])
    return "\n    ".join(cut)


class Reruns:
    def __init__(self) -> None:
        self.failures: list[tuple[str, str, str]] = []

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.outcome == "rerun":
            self.failures.append((report.nodeid, report.when, _why(report)))

    @pytest.hookimpl
    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if not self.failures:
            return
        terminalreporter.section("why each rerun's first run failed")
        for nodeid, when, why in self.failures:
            terminalreporter.line(f"RERUN-WHY {nodeid} ({when}):\n    {why}")


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(Reruns(), "lucie-reruns")
