from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from lucie import languages, metrics, views

# The app's pages are named by dotted path, never imported: lucie imports nothing from game.
handler500 = "game.ops.refusal_pages.server_error"

urlpatterns: list[URLPattern | URLResolver] = [
    # The service worker at the root, and the admin's rate-limited login form when it is on.
    path("", include("game.root_urls")),
    path("healthz", views.healthz, name="healthz"),
    path("ping", views.ping, name="ping"),
    path("metrics", metrics.metrics, name="metrics"),
    path("language/", languages.choose_language, name="choose_language"),
    # English with no prefix, French and German under /fr/ and /de/ (lucie/languages.py).
    *i18n_patterns(
        path("", include("game.urls")),
        prefix_default_language=False,
    ),
]

if settings.ADMIN_ENABLED:
    # After game.root_urls, whose login form (counted per client address) comes first.
    urlpatterns.insert(1, path("admin/", admin.site.urls))
