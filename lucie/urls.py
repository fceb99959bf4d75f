from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from game import limits
from game.install import views as install
from lucie import languages, metrics, views

handler500 = "lucie.views.server_error"

urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", views.healthz, name="healthz"),
    path("ping", views.ping, name="ping"),
    path("metrics", metrics.metrics, name="metrics"),
    # At the root, so that the service worker's scope is the whole site.
    path("sw.js", install.service_worker, name="service_worker"),
    path("language/", languages.choose_language, name="choose_language"),
    # English with no prefix, French and German under /fr/ and /de/ (lucie/languages.py).
    *i18n_patterns(
        path("manifest.webmanifest", install.manifest, name="manifest"),
        path("offline/", install.offline, name="offline"),
        path("", include("game.urls")),
        prefix_default_language=False,
    ),
]

if settings.ADMIN_ENABLED:
    # Before the admin's own URLs: its login form, counted per client address.
    urlpatterns[:0] = [
        path("admin/login/", limits.rate_limited(limits.ADMIN_LOGIN, "POST")(admin.site.login)),
        path("admin/", admin.site.urls),
    ]
