from django.urls import include, path

from game import daily_views, views

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
    # Today's deal and the daily calendar (game/daily_views.py).
    path("daily/", daily_views.today, name="daily"),
    path("daily/<str:year>/<str:month>/", daily_views.month, name="daily_month"),
    path("daily/<str:year>/<str:month>/<str:day>/", daily_views.day, name="daily_day"),
    path("daily/<str:year>/<str:month>/<str:day>/result/", daily_views.result, name="daily_result"),
    # The embed (/embed/..., framed by other sites, no cookies) and its snippet page.
    path("", include("game.embed_urls")),
]
