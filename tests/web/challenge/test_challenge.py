"""Challenge a friend, through the test client: the link on every finished game, the friend's
game of their own, both results side by side, the challenger's list, the caps and the rate
limit, the embed, the languages, and what a script sending it 1,000 times does."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from html import unescape

import pytest
import time_machine
from django.core.cache import cache
from django.test import Client, override_settings

from game.challenge import challenges
from game.models import Challenge, ChallengeEntry, Game
from game.ops import limits
from tests.helpers.daily_loop import challenge_links, finished, marked, session_of, text_of
from tests.helpers.ending import created, saved

pytestmark = pytest.mark.django_db

# The 1st of a month, at noon.
NOW = dt.datetime(2027, 3, 1, 12, 0, tzinfo=dt.UTC)
BEGUN = NOW - dt.timedelta(hours=1)


@pytest.fixture(autouse=True)
def _clock() -> Iterator[None]:
    cache.clear()
    with time_machine.travel(NOW, tick=False):
        yield


@pytest.fixture
def rate_limits() -> Iterator[None]:
    cache.clear()
    with override_settings(RATELIMIT_ENABLE=True):
        yield
    cache.clear()


def page(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, response.status_code
    return unescape(response.content.decode())


def challenged(client: Client, status: str = Game.Status.WON, **fields: object) -> Game:
    """A finished game of this client's, not a daily one (deal 77, the Trefoil rules unless
    told)."""
    fields.setdefault("rules", "trefoil")
    return finished(session_of(client), 77, status, started=BEGUN, entry=False, **fields)


def link_of(client: Client, game: Game) -> str:
    links = challenge_links(page(client, f"/game/{game.pk}/"))
    assert len(links) == 1
    return links[0]


def take_up(friend: Client, link: str) -> Game:
    response = friend.post(link.removeprefix("http://testserver"))
    assert response.status_code == 303, response.status_code
    found = re.fullmatch(r"/game/(\d+)/", response["Location"])
    assert found is not None
    return Game.objects.get(pk=int(found[1]))


def end(game: Game, status: str = Game.Status.WON, **fields: object) -> None:
    game.status = status
    game.started_at = BEGUN
    game.finished_at = NOW
    saved(game, **fields)


@pytest.mark.parametrize(
    ("status", "rules"),
    [
        (Game.Status.WON, "lucie"),
        (Game.Status.WON, "trefoil"),
        (Game.Status.LOST, "lucie-r0"),
        (Game.Status.ABANDONED, "lucie"),
    ],
)
def test_every_finished_game_offers_a_challenge_with_an_unguessable_link(
    client: Client, status: str, rules: str
) -> None:
    game = challenged(client, status, rules=rules)

    link = link_of(client, game)

    token = Challenge.objects.get(game=game).token
    assert link == f"http://testserver/challenge/{token}/"
    assert len(token) >= 32
    assert game.token not in link
    assert game.replay_token not in link


def test_a_game_under_way_offers_none(client: Client) -> None:
    game = challenged(client, Game.Status.PLAYING)

    assert challenge_links(page(client, f"/game/{game.pk}/")) == []
    assert not Challenge.objects.exists()


def test_a_daily_game_offers_one_too(client: Client, settings: object) -> None:
    finished(session_of(client), 20270301, started=BEGUN)

    html = page(client, "/daily/")

    assert len(challenge_links(html)) == 1
    assert Challenge.objects.count() == 1


def test_showing_the_panel_again_makes_no_second_challenge(client: Client) -> None:
    game = challenged(client)
    first = link_of(client, game)

    for _ in range(20):
        assert link_of(client, game) == first

    assert Challenge.objects.count() == 1


def test_opening_the_link_shows_the_deal_the_rules_and_the_result_and_stores_nothing(
    client: Client,
) -> None:
    game = challenged(client, elapsed_ms=252_000, move_count=93, undos=0, hints=0)
    link = link_of(client, game)
    friend = Client()
    games = Game.objects.count()

    html = page(friend, link)

    assert "A friend challenges you to deal #77" in html
    assert "Trefoil" in html
    assert "Your friend won it in 4:12 and 93 moves." in html
    assert "data-take-up" in html
    # Nothing of the challenger: not their game's number, record or links.
    assert f"/game/{game.pk}/" not in html
    assert game.replay_token not in html
    assert game.token not in html
    assert Game.objects.count() == games
    assert "sessionid" not in friend.cookies


def test_taking_it_up_plays_the_same_deal_under_the_same_rules_as_a_game_of_ones_own(
    client: Client,
) -> None:
    game = challenged(client)
    link = link_of(client, game)
    friend = Client()

    theirs = take_up(friend, link)

    assert (theirs.deal_number, theirs.rules) == (77, "trefoil")
    assert theirs.session_key == friend.session.session_key != game.session_key
    assert theirs.status == Game.Status.PLAYING
    assert not theirs.daily_entry
    assert ChallengeEntry.objects.get(game=theirs).challenge.game == game
    # Taken up again (a second press, a reload): the same game.
    assert take_up(friend, link).pk == theirs.pk
    assert "Back to your game of this challenge" in page(friend, link)
    # The friend's game page is theirs; the challenger's stays the challenger's.
    assert friend.get(f"/game/{game.pk}/").status_code == 404


def test_the_challenger_opening_their_own_link_is_sent_back_to_their_game(
    client: Client,
) -> None:
    game = challenged(client)
    link = link_of(client, game)

    assert "This is your own challenge" in page(client, link)
    assert take_up(client, link).pk == game.pk
    assert not ChallengeEntry.objects.exists()


# The friend's game against the challenger's win (250 s on the server's clock, 90 moves).
FASTER = {"wall_ms": 200_000, "elapsed_ms": 190_000, "move_count": 88}
SLOWER = {"wall_ms": 260_000, "elapsed_ms": 250_000, "move_count": 80}
SAME = {"wall_ms": 250_000, "elapsed_ms": 240_000, "move_count": 90}


@pytest.mark.parametrize(
    ("mine", "verdict", "sentence"),
    [
        (FASTER, "mine", "You won the challenge."),
        (SLOWER, "theirs", "Your friend won the challenge."),
        (SAME, "tie", "A tie: the same result."),
        (
            {"status": Game.Status.LOST, "cards_home": 41},
            "theirs",
            "Your friend won the challenge.",
        ),
        ({"assisted": True, "wall_ms": 1_000}, "theirs", "Your friend won the challenge."),
    ],
)
def test_when_the_friends_game_ends_both_results_show_side_by_side(
    client: Client, mine: dict[str, object], verdict: str, sentence: str
) -> None:
    game = challenged(client, wall_ms=250_000, elapsed_ms=240_000, move_count=90, undos=2)
    friend = Client()
    theirs = take_up(friend, link_of(client, game))
    status = mine.pop("status", Game.Status.WON)
    end(theirs, status, cards_home=mine.pop("cards_home", 52), **mine)

    html = page(friend, f"/game/{theirs.pk}/")

    result = marked(html, "data-challenge-result")
    assert f'data-verdict="{verdict}"' in result
    text = text_of(result)
    assert sentence in text
    assert "Your friend You" in text
    assert "Time 4:00" in text  # the challenger's time, then the friend's
    assert "Moves 90" in text
    assert "Help With help" in text  # the challenger undid twice
    # The friend's own game offers a challenge of its own.
    assert len(challenge_links(html)) == 1


def test_a_friends_game_under_way_shows_no_result_yet(client: Client) -> None:
    game = challenged(client)
    friend = Client()
    take_up(friend, link_of(client, game))

    assert "data-friend-result" not in page(client, f"/game/{game.pk}/")


def test_the_challenger_sees_every_friends_result_on_the_game_and_in_the_statistics(
    client: Client,
) -> None:
    game = challenged(client, wall_ms=250_000)
    link = link_of(client, game)
    for number, wall in enumerate((100_000, 400_000, None)):
        theirs = take_up(Client(), link)
        if wall is None:
            end(theirs, Game.Status.LOST, cards_home=17)
        else:
            end(theirs, wall_ms=wall, cards_home=52)
        assert number == number

    html = page(client, f"/game/{game.pk}/")
    stats = page(client, "/stats/")

    # Side by side with each friend's on the game's panel, the latest first; listed in the
    # statistics in the order they were taken up.
    sides = re.findall(
        r'<section class="challenge-result" data-friend-result data-verdict="(\w+)"', html
    )
    assert sides == ["mine", "mine", "theirs"]
    rows = re.findall(r'<tr data-friend-result data-verdict="(\w+)"', stats)
    assert rows == ["theirs", "mine", "mine"]
    assert "Friend 3" in stats


def test_the_challenges_list_is_capped(client: Client) -> None:
    game = challenged(client)
    link = link_of(client, game)
    for _ in range(challenges.MAX_ENTRIES):
        take_up(Client(), link)
    late = Client()

    response = late.post(link.removeprefix("http://testserver"))

    assert response.status_code == 409
    assert "all the players it can take" in unescape(response.content.decode())
    assert ChallengeEntry.objects.count() == challenges.MAX_ENTRIES
    assert "data-challenge-full" in page(late, link)


def test_a_game_that_ends_has_its_link_and_showing_it_makes_nothing(client: Client) -> None:
    games = [challenged(client) for _ in range(4)]
    assert Challenge.objects.count() == 4

    shown = [challenge_links(page(client, f"/game/{game.pk}/")) for game in games]

    assert [len(links) for links in shown] == [1, 1, 1, 1]
    assert Challenge.objects.count() == 4


def test_asking_for_links_is_rate_limited(
    client: Client, rate_limits: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Games that ended before a game's end made its challenge: the panel offers a POST.
    monkeypatch.setattr(limits, "CHALLENGE", limits.Rate("challenge", "3/m", "3/m"))
    games = [challenged(client) for _ in range(4)]
    Challenge.objects.all().delete()
    assert "data-challenge-make" in page(client, f"/game/{games[0].pk}/")

    answers = [client.post(f"/game/{game.pk}/challenge/").status_code for game in games]

    assert answers == [303, 303, 303, 429]
    assert Challenge.objects.count() == 3
    assert len(challenge_links(page(client, f"/game/{games[0].pk}/"))) == 1
    # Asking again for a link made already counts nothing and makes nothing.
    assert client.post(f"/game/{games[0].pk}/challenge/").status_code == 303
    assert Challenge.objects.count() == 3
    # Nobody else's game.
    assert Client().post(f"/game/{games[3].pk}/challenge/").status_code == 404


@pytest.mark.parametrize("token", ["nosuchchallengeatall", "a" * 64])
def test_an_unknown_challenge_is_a_404(client: Client, token: str) -> None:
    assert client.get(f"/challenge/{token}/").status_code == 404
    assert client.post(f"/challenge/{token}/").status_code == 404
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "path", ["/challenge/%00/", "/challenge/" + "a" * 65 + "/", "/challenge/a.b/"]
)
def test_a_malformed_challenge_link_is_a_404_that_reads_nothing(client: Client, path: str) -> None:
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ("On vous lance un défi sur la donne #77", "Relever le défi", "gagnée en 4:00")),
        (
            "de",
            ("Sie werden herausgefordert: Spiel Nr. 77", "Herausforderung annehmen", "90 Zügen"),
        ),
    ],
)
def test_the_challenge_speaks_french_and_german(
    client: Client, language: str, words: tuple[str, ...]
) -> None:
    game = challenged(client)
    token = Challenge.objects.get(game=game).token if link_of(client, game) else ""

    html = page(Client(), f"/{language}/challenge/{token}/")

    for word in words:
        assert word in html


def test_the_embed_offers_the_challenge_on_the_site_and_sets_no_cookie() -> None:
    embed = Client()
    game = created(
        session_key="", deal_number=77, rules="lucie", status=Game.Status.WON, started_at=BEGUN,
        finished_at=NOW, elapsed_ms=200_000, wall_ms=210_000, move_count=95, cards_home=52,
    )  # fmt: skip

    response = embed.get(f"/embed/g/{game.token}/")

    html = response.content.decode()
    token = Challenge.objects.get(game=game).token
    assert f'data-challenge href="http://testserver/challenge/{token}/" target="_blank"' in html
    assert not response.cookies
    friend = Client()
    theirs = take_up(friend, f"/challenge/{token}/")
    end(theirs, wall_ms=300_000)
    assert (
        'data-friend-result data-verdict="mine"'
        in embed.get(f"/embed/g/{game.token}/").content.decode()
    )


@pytest.mark.slow
def test_a_script_sending_it_a_thousand_times_stores_nothing_more(client: Client) -> None:
    """1,000 requests, a challenge's page and its form in turn, from one browser: no row after the
    friend's one game (each request a fixed handful of queries on an index)."""
    game = challenged(client)
    link = link_of(client, game).removeprefix("http://testserver")
    friend = Client()
    take_up(friend, link)
    rows = Game.objects.count(), ChallengeEntry.objects.count(), Challenge.objects.count()

    for _ in range(500):
        assert friend.get(link).status_code == 200
        assert friend.post(link).status_code == 303

    assert (Game.objects.count(), ChallengeEntry.objects.count(), Challenge.objects.count()) == rows


def test_taking_up_is_rate_limited_as_new_games_are(client: Client, rate_limits: None) -> None:
    game = challenged(client)
    link = link_of(client, game).removeprefix("http://testserver")
    statuses = [Client().post(link).status_code for _ in range(70)]

    # One address: the rate limit on new games (60 a minute) refuses the rest, with a 429.
    assert statuses.count(303) <= challenges.MAX_ENTRIES
    assert 429 in statuses
    assert ChallengeEntry.objects.count() <= challenges.MAX_ENTRIES
