from django.contrib import admin
from django.urls import include, path

from lucie import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("ping", views.ping, name="ping"),
    path("", include("game.urls")),
]
