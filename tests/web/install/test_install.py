"""The site installs as an app: a valid manifest with reachable icons, a service worker served from
the root with the right headers, and an offline page that keeps its promise."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.test import Client

from game.install import views as install

pytestmark = pytest.mark.django_db

# What Chromium asks of a manifest before it offers to install a site.
REQUIRED = ("name", "short_name", "start_url", "display", "icons", "id")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def fetch(client: Client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, url
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_every_page_links_the_manifest_and_the_manifest_is_complete(client: Client) -> None:
    page = client.get("/rules/").content.decode()
    found = re.search(r'<link rel="manifest" href="([^"]+)">', page)
    assert found is not None

    response = client.get(found[1])
    manifest = json.loads(response.content)

    assert response["Content-Type"] == "application/manifest+json"
    for field in REQUIRED:
        assert manifest.get(field), field
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["lang"] == "en"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    assert len(manifest["short_name"]) <= 12  # what a home screen shows whole


def test_the_manifest_icons_are_reachable_pngs_of_their_stated_size(client: Client) -> None:
    icons = json.loads(client.get("/manifest.webmanifest").content)["icons"]
    seen = set()

    for icon in icons:
        width, height = png_size(fetch(client, icon["src"]))
        assert icon["sizes"] == f"{width}x{height}"
        assert icon["type"] == "image/png"
        seen.add((icon["purpose"], width))

    assert seen == {("any", 192), ("any", 512), ("maskable", 192), ("maskable", 512)}


def test_a_maskable_icon_has_no_transparent_corner(client: Client) -> None:
    # A maskable icon is cut by the launcher's own shape: its felt must reach every edge.
    for icon in json.loads(client.get("/manifest.webmanifest").content)["icons"]:
        data = fetch(client, icon["src"])
        # An alpha channel (RGBA, colour type 6) or a palette's transparency chunk (tRNS: the
        # icons are quantized to a palette, colour type 3) is what can leave a corner see-through.
        see_through = data[25] in (4, 6) or b"tRNS" in data
        if icon["purpose"] == "maskable":
            assert not see_through, f"{icon['src']} has transparency"
        else:
            assert see_through  # the rounded corners are transparent


def test_pages_name_the_theme_colours_for_light_and_dark(client: Client) -> None:
    page = client.get("/").content.decode()

    light = re.search(
        r'<meta name="theme-color" content="(#\w+)" media="\(prefers-color-scheme: light\)">', page
    )
    dark = re.search(
        r'<meta name="theme-color" content="(#\w+)" media="\(prefers-color-scheme: dark\)">', page
    )
    assert light is not None
    assert dark is not None
    assert light[1] != dark[1]


def test_the_service_worker_is_served_from_the_root_as_a_script(client: Client) -> None:
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    policy = response["Content-Security-Policy"]
    assert "worker-src 'self'" in policy
    assert "manifest-src 'self'" in policy
    assert not response.cookies


def worker_config(client: Client | None) -> dict[str, object]:
    """The worker's CONFIG as served, or (client None) as built afresh: outside DEBUG each process
    builds the script once."""
    script = client.get("/sw.js").content.decode() if client else install.worker_script()
    found = re.search(r"^const CONFIG = (\{.*\});$", script, re.M)
    assert found is not None
    config: dict[str, object] = json.loads(found[1])
    return config


def test_the_worker_keeps_the_offline_pages_and_leaves_the_embed_alone(client: Client) -> None:
    config = worker_config(client)

    assert config["offline"] == {"en": "/offline/", "fr": "/fr/offline/", "de": "/de/offline/"}
    assert set(config["precache"]) >= set(config["offline"].values())  # type: ignore[attr-defined]
    assert "/embed/" in config["embed"]  # type: ignore[operator]
    assert "/fr/embed/" in config["embed"]  # type: ignore[operator]


def test_unhashed_static_files_are_never_kept() -> None:
    # The tests' static files have plain names, which change content under the same URL.
    config = worker_config(None)

    assert config["hashed"] is False
    assert not any(str(url).startswith("/static/") for url in config["precache"])  # type: ignore[attr-defined]


def test_with_hashed_names_the_offline_page_static_files_are_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(install, "hashed_static", lambda: True)

    config = worker_config(None)

    assert config["hashed"] is True
    assert "/static/css/site.css" in config["precache"]  # type: ignore[operator]


def test_the_worker_changes_when_the_offline_page_does(monkeypatch: pytest.MonkeyPatch) -> None:
    before = worker_config(None)["cache"]
    monkeypatch.setattr(install, "offline_context", lambda: {"description": "changed"})

    assert worker_config(None)["cache"] != before


def test_the_offline_page_keeps_its_promise_and_sets_no_cookie(client: Client) -> None:
    response = client.get("/offline/")
    page = response.content.decode()

    assert response.status_code == 200
    assert not response.cookies
    assert "Your game is kept: it will be here when you are back online." in page
    assert page.count("<li>") == 6
    assert '<meta name="robots" content="noindex">' in page
    assert "<script" not in page


def test_a_page_registers_the_worker_from_a_static_script(client: Client) -> None:
    page = client.get("/").content.decode()

    assert re.search(r'<script src="/static/js/install.js" data-worker="/sw.js" defer>', page)


def test_pages_offer_a_back_button_for_standalone_mode_except_home(client: Client) -> None:
    assert "data-app-back" in client.get("/rules/").content.decode()
    assert "data-app-back" not in client.get("/").content.decode()


@pytest.mark.parametrize(("code", "word"), [("fr", "éventails"), ("de", "Fächern")])
def test_each_language_has_its_manifest(client: Client, code: str, word: str) -> None:
    page = client.get(f"/{code}/rules/").content.decode()
    assert f'<link rel="manifest" href="/{code}/manifest.webmanifest">' in page

    manifest = json.loads(client.get(f"/{code}/manifest.webmanifest").content)

    assert manifest["lang"] == code
    assert manifest["start_url"] == f"/{code}/"
    assert manifest["id"] == "/"  # one app, whichever language installed it
    assert word in manifest["description"]
