"""The app's paths outside the language prefixes, included at the root by lucie/urls.py: the
service worker, at the root so that its scope is the whole site, and with the admin on, the
admin's login form counted per client address (before the admin's own URLs, which lucie/urls.py
adds after this list).

They are here rather than in lucie/urls.py because they need the app's views and limits, and
the project package imports nothing from the app.
"""

from django.conf import settings
from django.contrib import admin
from django.urls import URLPattern, path

from game.install import views as install
from game.ops import limits

urlpatterns: list[URLPattern] = [
    path("sw.js", install.service_worker, name="service_worker"),
]

if settings.ADMIN_ENABLED:
    urlpatterns.append(
        path("admin/login/", limits.rate_limited(limits.ADMIN_LOGIN, "POST")(admin.site.login))
    )
