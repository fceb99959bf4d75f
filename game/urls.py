from django.urls import include, path, re_path

from game.board.urls import change_urls
from game.challenge import views as challenge_views
from game.daily import views as daily_views
from game.install import views as install
from game.play import first, prefs, show_a_win_views, views
from game.records import views as records
from game.review import views as review
from game.stats import views as stats_views
from lucie import languages

urlpatterns = [
    # The install's manifest and offline page, per language (the service worker is at the root:
    # game/root_urls.py).
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("offline/", install.offline, name="offline"),
    # A first visit from a French or German browser goes to /fr/ or /de/ once.
    path("", languages.first_visit(views.home), name="home"),
    path("deal/", views.deal_lookup, name="deal_lookup"),
    path("deal/<str:number>/", views.deal, name="deal"),
    # A deal's first board, not stored yet: its hint, Show a win, and its first change (which
    # stores the session and the game).
    path("deal/<str:number>/hint/", first.deal_hint, name="deal_hint"),
    path("deal/<str:number>/show-a-win/", first.deal_show_a_win, name="deal_show_a_win"),
    # The changes, and Show a win's steps, can end a game: on the daily page their answers then
    # carry the result box under the board too (their views call game/daily/result_box.py).
    path("deal/<str:number>/", include(change_urls(first.deal_start, "deal_"))),
    path("new/", views.new_game, name="new"),
    path("game/<int:game_id>/", views.game_page, name="game"),
    path("game/<int:game_id>/", include(change_urls(views.game_change))),
    path("game/<int:game_id>/hint/", views.hint, name="hint"),
    path("game/<int:game_id>/show-a-win/", show_a_win_views.show_a_win_ask, name="show_a_win"),
    path(
        "game/<int:game_id>/show-a-win/wait/",
        show_a_win_views.show_a_win_wait,
        name="show_a_win_wait",
    ),
    path(
        "game/<int:game_id>/show-a-win/next/",
        show_a_win_views.show_a_win_next,
        name="show_a_win_next",
    ),
    path(
        "game/<int:game_id>/show-a-win/out/",
        show_a_win_views.show_a_win_out,
        name="show_a_win_out",
    ),
    path("game/<int:game_id>/clock/", views.game_clock, name="game_clock"),
    path("game/<int:game_id>/review/", review.review, name="review"),
    path("game/<int:game_id>/review/ask/", review.review_ask, name="review_ask"),
    path("game/<int:game_id>/review/try/", review.review_try, name="review_try"),
    path("game/<int:game_id>/record/", records.record_page, name="record"),
    path("game/<int:game_id>/record.txt", records.record_txt, name="record_txt"),
    path("import/", records.import_page, name="import"),
    path("replay/<str:replay_token>/", records.replay, name="replay"),
    path(
        "replay/<str:replay_token>/record.txt",
        records.replay_record_txt,
        name="replay_record_txt",
    ),
    path("settings/", prefs.settings_page, name="settings"),
    path("settings/strict/", prefs.strict_page, name="settings_strict"),
    path("stats/", stats_views.stats_page, name="stats"),
    path("stats/reset/", stats_views.stats_reset, name="stats_reset"),
    path("stats/transfer/", stats_views.transfer_page, name="transfer"),
    path("stats/transfer/code/", stats_views.transfer_code, name="transfer_code"),
    path("stats/transfer/use/", stats_views.transfer_redeem, name="transfer_redeem"),
    path("rules/", views.rules_page, name="rules"),
    # Today's deal and the daily calendar (game/daily/views.py).
    path("daily/", daily_views.today, name="daily"),
    path("daily/<str:year>/<str:month>/", daily_views.month, name="daily_month"),
    path("daily/<str:year>/<str:month>/<str:day>/", daily_views.day, name="daily_day"),
    path(
        "daily/<str:year>/<str:month>/<str:day>/difficulty/",
        daily_views.day_difficulty,
        name="daily_difficulty",
    ),
    path("daily/<str:year>/<str:month>/<str:day>/result/", daily_views.result, name="daily_result"),
    # A finished game offered to friends (game/challenge/): its link's page and form.
    re_path(
        r"^challenge/(?P<token>[A-Za-z0-9_-]{1,64})/$",
        # A link opened by a French or German browser answers in its language.
        languages.first_visit(challenge_views.challenge_page),
        name="challenge",
    ),
    path("game/<int:game_id>/challenge/", challenge_views.make, name="challenge_make"),
    # The embed (/embed/..., framed by other sites, no cookies) and its snippet page.
    path("", include("game.embed.urls")),
]
