"""HEAD answers like GET, without a body, on every URL of the site that answers GET (issue 19):
monitors and link checkers probe with HEAD, and a 405 there reads as "the site is down".

The test walks every URL pattern the resolver knows, so a new page cannot be left out: one with
no example below fails the test until it gets one.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from game.models import Challenge, Game
from tests.helpers.embed import start as embed_start
from tests.helpers.play import a_card_move, post, start

pytestmark = pytest.mark.django_db

TODAY = dt.datetime.now(dt.UTC).date()


def pattern_names(patterns: list[URLPattern | URLResolver] | None = None) -> set[str]:
    found: set[str] = set()
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(entry, URLResolver):
            prefix = f"{entry.namespace}:" if entry.namespace else ""
            found |= {prefix + name for name in pattern_names(entry.url_patterns)}
        elif entry.name:
            found.add(entry.name)
    return found


def examples(client: Client) -> dict[str, str]:
    """A URL for every named pattern, for a browser that has a game under way (and an embed
    game, and a replay link)."""
    game = start(client, 5)
    post(client, game, "move", move=a_card_move(game).text)
    embed = embed_start(Client())
    imported = client.post("/import/", {"record": "lucie 9", "then": "replay"})
    assert imported.status_code == 303, imported.content[:300]
    replay = imported["Location"].strip("/").split("/")[-1]
    day = f"{TODAY:%Y/%m/%d}"
    challenge = Challenge.objects.create(game=game)
    return {
        "healthz": "/healthz",
        "ping": "/ping",
        "metrics": "/metrics",
        "home": "/",
        "deal_lookup": "/deal/?number=7",
        "deal": "/deal/7/",
        "deal_hint": "/deal/7/hint/",
        "deal_show_a_win": "/deal/7/show-a-win/",
        **{f"deal_{a}": f"/deal/7/{a}/" for a in ("move", "undo", "redo", "redeal", "auto")},
        "new": "/new/",
        "game": f"/game/{game.pk}/",
        "move": f"/game/{game.pk}/move/",
        "undo": f"/game/{game.pk}/undo/",
        "redo": f"/game/{game.pk}/redo/",
        "redeal": f"/game/{game.pk}/redeal/",
        "auto": f"/game/{game.pk}/auto/",
        "hint": f"/game/{game.pk}/hint/",
        "show_a_win": f"/game/{game.pk}/show-a-win/",
        "show_a_win_wait": f"/game/{game.pk}/show-a-win/wait/",
        "show_a_win_next": f"/game/{game.pk}/show-a-win/next/",
        "show_a_win_out": f"/game/{game.pk}/show-a-win/out/",
        "game_clock": f"/game/{game.pk}/clock/",
        "record": f"/game/{game.pk}/record/",
        "record_txt": f"/game/{game.pk}/record.txt",
        "import": "/import/",
        "replay": f"/replay/{replay}/",
        "replay_record_txt": f"/replay/{replay}/record.txt",
        "settings": "/settings/",
        "settings_strict": "/settings/strict/",
        "stats": "/stats/",
        "stats_reset": "/stats/reset/",
        "transfer": "/stats/transfer/",
        "transfer_code": "/stats/transfer/code/",
        "transfer_redeem": "/stats/transfer/use/",
        "rules": "/rules/",
        "daily": "/daily/",
        "daily_month": f"/daily/{TODAY:%Y/%m}/",
        "daily_day": f"/daily/{day}/",
        "daily_result": f"/daily/{day}/result/",
        "challenge": f"/challenge/{challenge.token}/",
        "challenge_make": f"/game/{game.pk}/challenge/",
        "embed:today": "/embed/",
        "embed:another": "/embed/another/",
        "embed:deal": "/embed/deal/7/",
        "embed:deal_hint": "/embed/deal/7/hint/",
        **{f"embed:deal_{a}": f"/embed/deal/7/{a}/" for a in ("move", "undo", "redo", "redeal")},
        "embed:deal_auto": "/embed/deal/7/auto/",
        "embed:game": f"/embed/g/{embed.token}/",
        "embed:game_hint": f"/embed/g/{embed.token}/hint/",
        "embed:game_clock": f"/embed/g/{embed.token}/clock/",
        **{
            f"embed:game_{a}": f"/embed/g/{embed.token}/{a}/"
            for a in ("move", "undo", "redo", "redeal", "auto")
        },
        "embed:not_found": "/embed/nothing-here/",
        "embed:snippet": "/embed-this/",
        "review": f"/game/{game.pk}/review/",
        "review_try": f"/game/{game.pk}/review/try/",
        "review_ask": f"/game/{game.pk}/review/ask/",
        "daily_difficulty": f"/daily/{day}/difficulty/",
        "service_worker": "/sw.js",
        "choose_language": "/language/",
        "manifest": "/manifest.webmanifest",
        "offline": "/offline/",
    }


def test_every_url_that_answers_get_answers_head_alike_without_a_body() -> None:
    client = Client()
    urls = examples(client)
    missing = pattern_names() - set(urls)
    assert not missing, f"add an example URL for {sorted(missing)}"

    answered_get = []
    for name, url in sorted(urls.items()):
        got = client.get(url)
        head = client.head(url)
        if got.status_code == 405:
            assert head.status_code == 405, name
            continue
        answered_get.append(name)
        assert head.status_code == got.status_code, (name, url, head.status_code)
        assert head.content == b"", name
        assert head.get("Content-Type") == got.get("Content-Type"), name

    assert {"healthz", "home", "deal", "daily", "daily_month", "stats", "rules"} <= set(
        answered_get
    )
    assert {"settings", "replay", "embed:today", "ping", "game", "record_txt"} <= set(answered_get)


def test_head_on_a_stranger_s_first_board_stores_nothing() -> None:
    client = Client()
    for url in ("/", "/deal/7/", "/daily/", f"/daily/{TODAY:%Y/%m/%d}/"):
        assert client.head(url).status_code == 200, url
    assert not Game.objects.exists()
    assert "sessionid" not in client.cookies
