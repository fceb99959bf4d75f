"""Settings offer the language menu too (the footer has it on every page)."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/settings/", "/fr/settings/", "/de/deal/5/"])
def test_settings_offer_every_language(client: Client, url: str) -> None:
    html = client.get(url).content.decode()
    # Once in the footer, once in Settings (the page, or the board's Settings dialog).
    assert html.count('action="/language/"') == 2
    assert 'id="settings-languages-label"' in html
    for code in ("en", "fr", "de"):
        assert html.count(f'name="language" value="{code}"') == 2
