from __future__ import annotations

from pathlib import Path

from playwright.sync_api import ConsoleMessage, Page, Response, expect
from pytest_django.live_server_helper import LiveServer

from tests.helpers.browser import screenshot


def test_home_page_loads_with_htmx_and_no_csp_violations(
    page: Page, live_server: LiveServer, artifact_dir: Path
) -> None:
    problems: list[str] = []

    def remember_console_error(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(message.text)

    def remember_failed_response(response: Response) -> None:
        if response.status >= 400:
            problems.append(f"{response.status} {response.url}")

    page.on("console", remember_console_error)
    page.on("response", remember_failed_response)
    page.goto(f"{live_server.url}/")

    expect(page).to_have_title("La Belle Lucie")
    expect(page.get_by_role("heading", level=1)).to_have_text("La Belle Lucie")
    assert page.evaluate("typeof window.htmx") == "object"
    screenshot(page, artifact_dir / "home.png")
    assert problems == []
