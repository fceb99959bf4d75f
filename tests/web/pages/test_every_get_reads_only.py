"""Every GET reads only (issue 47): each URL pattern of the site and the embed, taken from the
URLconf itself in each language, is asked with GET, plain and by htmx, by a browser in each state
a player can be in: new (no session), back with a game over, with a game under way, on a
challenge link it took up, and with an assisted game whose Show a win search was lost. None may
send an INSERT, an UPDATE or a DELETE, the session's own table aside (its once-a-day renewal),
and none may answer with a 500.

The URLs are resolved from `lucie.urls` at run time, so a pattern added later is asked too: a
pattern with no name, or with an argument this file cannot fill, fails the test rather than
being skipped."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.urls.resolvers import RegexPattern, RoutePattern
from django.utils import translation
from pytest_django.fixtures import Settings

from game import engine
from game.board import store
from game.models import Challenge, Game
from game.ops.jobs import Job
from tests.helpers.daily import site_at
from tests.helpers.daily_loop import finished, session_of
from tests.helpers.play import a_card_move, post, start
from tests.helpers.show_a_win import ask, request_gives_up, search_on
from tests.helpers.writes import Writes

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2027, 3, 1, 12, 0, tzinfo=dt.UTC)
TODAY = 20270301
LANGUAGES = ("en", "fr", "de")

# The known exceptions, each with its reason, and nothing else. None now: the hint's GETs count
# nothing since the count moved to the POST that presses Hint.
STILL_WRITING: frozenset[str] = frozenset()


@pytest.fixture(autouse=True)
def _clock(settings: Settings) -> Iterator[None]:
    with site_at(settings, NOW):
        yield


# ---------------------------------------------------------------- every URL pattern


def _named(
    patterns: list[Any],
    namespace: str = "",
    prefix: str = "",
    inherited: frozenset[str] = frozenset(),
) -> Iterator[tuple[str, set[str], str]]:
    """Each pattern's full name, the arguments its path takes (its includers' too), and its
    route (for messages)."""
    for each in patterns:
        route = prefix + str(each.pattern)
        arguments = inherited | _arguments(each)
        if isinstance(each, URLResolver):
            inner = f"{namespace}{each.namespace}:" if each.namespace else namespace
            if route.startswith("admin/"):
                continue  # Django's own admin, off in the tests (settings.ADMIN_ENABLED)
            yield from _named(each.url_patterns, inner, route, arguments)
            continue
        assert isinstance(each, URLPattern)
        assert each.name, f"the pattern {route!r} has no name, so this test cannot ask it"
        yield namespace + each.name, set(arguments - set(each.default_args)), route


def _arguments(each: URLPattern | URLResolver) -> frozenset[str]:
    if isinstance(each.pattern, RoutePattern):
        return frozenset(each.pattern.converters)
    if isinstance(each.pattern, RegexPattern):
        return frozenset(each.pattern.regex.groupindex)
    return frozenset()  # the language prefix


def every_pattern() -> list[tuple[str, set[str], str]]:
    """The site's URL patterns (the included lists' too), with the arguments of their paths."""
    collected: dict[str, tuple[str, set[str], str]] = {}
    for name, arguments, route in _named(get_resolver().url_patterns):
        # A pattern included under several places (a board's changes) is named per place.
        assert name not in collected, f"two patterns named {name!r}"
        collected[name] = (name, arguments, route)
    return sorted(collected.values())


# ---------------------------------------------------------------- the players


def _player(client: Client, state: str, world: dict[str, Any], monkeypatch: Any) -> Game:
    """Put `client` in `state`; the game its URLs name."""
    if state == "new browser":
        return world["someone's game"]
    if state == "game over":
        key = session_of(client)
        return finished(key, 77, started=NOW - dt.timedelta(hours=1), entry=False)
    if state == "game under way":
        game = start(client, 9)
        assert post(client, game, "move", move=a_card_move(game).text).status_code == 303
        return game
    if state == "on a challenge link":
        challenge = world["challenge"]
        assert client.get(f"/challenge/{challenge.token}/").status_code == 200
        taken = client.post(f"/challenge/{challenge.token}/")
        assert taken.status_code in (302, 303), taken.status_code
        return Game.objects.exclude(pk=challenge.game_id).get(
            deal_number=challenge.game.deal_number
        )
    assert state == "assisted game"
    request_gives_up(monkeypatch)
    game = start(client, 11)
    assert ask(client, game, htmx=True).status_code == 200
    # The search on was lost: no row of its job is left, and the board still shows the panel.
    Job.objects.all().delete()
    game.refresh_from_db()
    assert game.assisted
    return game


STATES = ["new browser", "game over", "game under way", "on a challenge link", "assisted game"]


@pytest.fixture
def world() -> dict[str, Any]:
    """Someone else's finished game and its challenge, and an embed game under way."""
    theirs = finished("someone", 78, Game.Status.LOST, started=NOW - dt.timedelta(hours=2))
    embedded = store.start_unattached(5, engine.DEFAULT_RULES)
    played = embedded.resume()
    played.play(next(m for m in played.legal_moves() if m.card is not None))
    store.save(embedded, played)
    challenge = Challenge.objects.get_or_create(game=theirs)[0]
    return {"someone's game": theirs, "embed game": embedded, "challenge": challenge}


def _arguments_for(name: str, arguments: set[str], game: Game, world: dict[str, Any]) -> dict:
    values: dict[str, Any] = {
        "game_id": game.pk,
        "number": str(game.deal_number),
        "replay_token": game.replay_token,
        "year": "2027",
        "month": "03",
        "day": "01",
        "rest": "nothing-here/",
    }
    if "token" in arguments:
        if name.startswith("embed:"):
            values["token"] = world["embed game"].token
        else:
            values["token"] = world["challenge"].token
    unknown = arguments - set(values)
    assert not unknown, f"{name}: no value for {sorted(unknown)}: teach this test"
    return {key: values[key] for key in arguments}


def _urls(game: Game, world: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """Each URL to ask, and whether to ask it by htmx too (in English: the board's answers
    differ by htmx, not by language)."""
    urls = []
    for name, arguments, _route in every_pattern():
        kwargs = _arguments_for(name, arguments, game, world)
        for language in LANGUAGES:
            with translation.override(language):
                urls.append((name, reverse(name, kwargs=kwargs), language == "en"))
    # A few pages read their query too: another rule set, a daily first board, a picked card.
    urls += [
        ("deal", f"/deal/{game.deal_number}/?rules=trefoil", True),
        ("deal", f"/deal/{TODAY}/?daily=1", True),
        ("home", "/?sel=6C", True),
        ("embed:deal", "/embed/deal/5/?rules=trefoil", True),
    ]
    return sorted(set(urls))


@pytest.mark.parametrize("state", STATES)
def test_no_get_writes_in_any_state(
    client: Client, world: dict[str, Any], state: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _player(client, state, world, monkeypatch)
    writes = Writes()
    failures = []
    with connection.execute_wrapper(writes):
        for name, url, htmx in _urls(game, world):
            for headers in ({}, {"HX-Request": "true"}) if htmx else ({},):
                before = len(writes.seen)
                response = client.get(url, headers=headers)
                assert response.status_code < 500, (state, url, response.status_code)
                written = writes.seen[before:]
                if written and name not in STILL_WRITING:
                    failures.append((url, headers, written))
    assert failures == [], f"{state}: GETs that wrote: {failures}"


def test_the_list_of_patterns_is_the_sites() -> None:
    """The walk finds the site's and the embed's patterns, the included change lists too."""
    names = {name for name, _, _ in every_pattern()}
    assert {"home", "deal", "game", "move", "deal_move", "embed:game_move", "challenge"} <= names
    assert {"embed:today", "embed:not_found", "daily_day", "review", "service_worker"} <= names
    assert names >= STILL_WRITING


def test_the_writes_are_seen(client: Client) -> None:
    """The wrapper catches a write: the deal page's POST, which deals a game, shows up."""
    writes = Writes()
    session_of(client)
    with connection.execute_wrapper(writes):
        assert client.post("/deal/5/").status_code == 303
    assert any(sql.lstrip().upper().startswith("INSERT") for sql in writes.seen)


def test_the_assisted_board_follows_a_lost_search_without_asking_again(
    client: Client, world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state the read-only walk asks really is a Show a win on show whose search was lost."""
    game = _player(client, "assisted game", world, monkeypatch)
    page = client.get(f"/game/{game.pk}/").content.decode()
    assert 'id="show-a-win"' in page
    assert search_on(page) is None
    assert not Job.objects.exists()
