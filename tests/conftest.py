"""Fixtures and hooks shared by every test folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings

TESTS_DIR = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    # Tests never run collectstatic: use plain static names and let WhiteNoise
    # find files in the source folders, whatever DJANGO_STATIC_MANIFEST says.
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    override_settings(
        STORAGES=storages, WHITENOISE_USE_FINDERS=True, WHITENOISE_AUTOREFRESH=True
    ).enable()


def pytest_report_header(config: pytest.Config) -> str:
    host = connection.settings_dict.get("HOST") or "local file or memory"
    return f"database: {connection.vendor} ({host})"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    browser_dir = TESTS_DIR / "browser"
    for item in items:
        if item.path.is_relative_to(browser_dir):
            item.add_marker(pytest.mark.browser)
