"""The embed's URLs (all under /embed/, each frameable and cookie-free) and the main site's page
that offers the snippet. Included at the root by game/urls.py."""

from django.urls import path, register_converter

from game.embed import views as embed
from game.embed.front import ACTIONS


class TokenConverter:
    """The form of token that models.new_token issues (URL-safe base64). Anything else (a NUL
    byte, say, which PostgreSQL refuses in text) falls through to the embed's 404 without
    reaching the database."""

    regex = r"[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(TokenConverter, "token")

app_name = "embed"

urlpatterns = [
    path("embed/", embed.today, name="today"),
    path("embed/another/", embed.another, name="another"),
    path("embed/deal/<str:number>/", embed.deal, name="deal"),
    path("embed/deal/<str:number>/hint/", embed.deal_hint, name="deal_hint"),
    *(
        path(
            f"embed/deal/<str:number>/{action}/",
            embed.start_action,
            {"action": action},
            name=f"deal_{action}",
        )
        for action in ACTIONS
    ),
    path("embed/g/<token:token>/", embed.game_page, name="game"),
    path("embed/g/<token:token>/hint/", embed.game_hint, name="game_hint"),
    path("embed/g/<token:token>/clock/", embed.game_clock, name="game_clock"),
    *(
        path(
            f"embed/g/<token:token>/{action}/",
            embed.game_action,
            {"action": action},
            name=f"game_{action}",
        )
        for action in ACTIONS
    ),
    # Last: anything else under /embed/ gets the embed's own cookie-free 404.
    path("embed/<path:rest>", embed.not_found, name="not_found"),
    path("embed-this/", embed.snippet, name="snippet"),
]
