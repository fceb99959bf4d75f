from django.urls import include, path

from game import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("deal/", views.deal_lookup, name="deal_lookup"),
    path("deal/<str:number>/", views.deal, name="deal"),
    path("new/", views.new_game, name="new"),
    path("game/<int:game_id>/", views.game_page, name="game"),
    path("game/<int:game_id>/move/", views.move, name="move"),
    path("game/<int:game_id>/undo/", views.undo, name="undo"),
    path("game/<int:game_id>/redo/", views.redo, name="redo"),
    path("game/<int:game_id>/redeal/", views.redeal, name="redeal"),
    path("game/<int:game_id>/auto/", views.auto_finish, name="auto"),
    path("game/<int:game_id>/hint/", views.hint, name="hint"),
    path("stats/", views.stats_page, name="stats"),
    path("rules/", views.rules_page, name="rules"),
    # The embed (/embed/..., framed by other sites, no cookies) and its snippet page.
    path("", include("game.embed_urls")),
]
