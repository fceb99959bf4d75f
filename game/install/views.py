"""The manifest (/manifest.webmanifest, per language), the service worker (/sw.js) and the offline
page (/offline/, per language)."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# The colours of the page behind the app's title bar (base.html repeats them as theme-color
# metas, for light and dark) and of the splash screen: site.css's --surface and --bg.
THEME_LIGHT = "#ffffff"
THEME_DARK = "#22252a"
BACKGROUND = "#f5f3ee"

ICON_SIZES = (192, 512)

WORKER_TEMPLATE = Path(settings.BASE_DIR) / "templates" / "install" / "sw.js"

# Static files the offline page needs, cached when the service worker installs.
OFFLINE_STATIC = ("css/site.css", "css/pages.css", "favicon.svg")


def icons() -> list[dict[str, str]]:
    """The manifest's icons: each size once as drawn (rounded felt) and once maskable (the felt to
    the edges, the fan inside the safe zone)."""
    return [
        {
            "src": static(f"icons/{name}-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": purpose,
        }
        for name, purpose in (("icon", "any"), ("icon-maskable", "maskable"))
        for size in ICON_SIZES
    ]


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest in the language of its URL: /manifest.webmanifest, /fr/...."""
    data: dict[str, Any] = {
        # One app whatever the language it was installed from.
        "id": "/",
        "name": "La Belle Lucie",
        "short_name": "Belle Lucie",
        "description": site_description(),
        "lang": translation.get_language(),
        "dir": "rtl" if translation.get_language_bidi() else "ltr",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_LIGHT,
        "background_color": BACKGROUND,
        "categories": ["games"],
        "icons": icons(),
    }
    return JsonResponse(
        data,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False, "indent": 1},
    )


def site_description() -> str:
    return _(
        "Play La Belle Lucie, the classic solitaire of eighteen fans, three deals and one merci, "
        "free in your browser: today's deal, any deal by number, hints and statistics."
    )


def in_each_language(name: str) -> dict[str, str]:
    """A URL in each language the site speaks: {"en": "/offline/", "fr": "/fr/offline/", ...}."""
    urls = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            urls[code] = reverse(name)
    return urls


def hashed_static() -> bool:
    """Whether static URLs carry a hash of their content (collectstatic with the manifest
    storage, as in production). Only then may the worker keep a static file for good."""
    return isinstance(staticfiles_storage, ManifestFilesMixin)


def worker_config() -> dict[str, Any]:
    hashed = hashed_static()
    offline = in_each_language("offline")
    precache = list(offline.values())
    if hashed:
        precache += [static(name) for name in OFFLINE_STATIC]
    return {
        "static": settings.STATIC_URL,
        "hashed": hashed,
        "offline": offline,
        "precache": precache,
        # Navigations the worker leaves alone: the embed, framed by other sites, never cached.
        "embed": list(in_each_language("embed:today").values()),
    }


def worker_version(config: dict[str, Any]) -> str:
    """Changes whenever the worker or what it caches changes, so that browsers install the new
    worker (they compare its bytes) and it drops the old cache."""
    digest = hashlib.sha256(json.dumps(config, sort_keys=True).encode())
    digest.update(WORKER_TEMPLATE.read_bytes())
    for code in config["offline"]:
        with translation.override(code):
            digest.update(render_to_string("install/offline.html", offline_context()).encode())
    return digest.hexdigest()[:16]


@cache
def _cached_script() -> str:
    return worker_script()


def worker_script() -> str:
    """The worker's source with its CONFIG: what it keeps, and the name of its cache."""
    config = worker_config()
    config["cache"] = f"lucie-{worker_version(config)}"
    return render_to_string("install/sw.js", {"config": json.dumps(config, sort_keys=True)})


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, from the site's root so that its scope is the whole site. Browsers
    compare it with the one they have at their next navigation; no-cache keeps any cache on the
    way (theirs, a proxy's) from answering with an old one, so a deploy reaches them at once.
    Outside DEBUG each process builds it once: it changes only with a deploy."""
    script = worker_script() if settings.DEBUG else _cached_script()
    response = HttpResponse(script, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response


def offline_context() -> dict[str, Any]:
    return {"description": site_description()}


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when a navigation finds no network. It sets no cookie
    and reads no session, since it is fetched and kept by the worker."""
    return render(request, "install/offline.html", offline_context())


def context(request: HttpRequest) -> dict[str, Any]:
    """What base.html's head needs on every page: the description (a page may give its own) and
    the theme colours."""
    return {
        "site_description": site_description(),
        "theme_light": THEME_LIGHT,
        "theme_dark": THEME_DARK,
    }
