from django.conf import settings
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path

from game import limits
from lucie import metrics, views

handler500 = "lucie.views.server_error"

urlpatterns: list[URLPattern | URLResolver] = [
    path("healthz", views.healthz, name="healthz"),
    path("ping", views.ping, name="ping"),
    path("metrics", metrics.metrics, name="metrics"),
    path("", include("game.urls")),
]

if settings.ADMIN_ENABLED:
    # Before the admin's own URLs: its login form, counted per client address.
    urlpatterns[:0] = [
        path("admin/login/", limits.rate_limited(limits.ADMIN_LOGIN, "POST")(admin.site.login)),
        path("admin/", admin.site.urls),
    ]
