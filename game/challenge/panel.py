"""What a finished game's panel shows of challenges (board/challenge.jinja), on the site and in
the embed: the link to challenge a friend, the two results side by side when the game was a
challenge taken up, and the challenger's result beside each friend's when it was challenged.
Three short queries, only for a finished game, and no write: the challenge is made by the
change that ends the game (game/counters.py) or by the player's POST (game/challenge/views.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext, pgettext

from game.board.clock import format_ms
from game.challenge import challenges
from game.models import Challenge, ChallengeEntry, Game
from game.result import Result


@dataclass(frozen=True)
class Shown:
    """One result as a row or a column of the panel's tables, in the page's language."""

    who: str
    state: str
    result: str
    time: str
    moves: int
    cards_home: int
    help: str
    clean: bool


def shown(who: str, result: Result) -> Shown:
    return Shown(
        who=who,
        state=result.state,
        result=result.label,
        time=format_ms(result.elapsed_ms),
        moves=result.move_count,
        cards_home=result.cards_home,
        help=(
            pgettext("a challenge's result", "With help")
            if result.helped
            else pgettext("a challenge's result", "No help")
        ),
        clean=result.clean,
    )


def verdict_sentence(verdict: str) -> str:
    return {
        "mine": gettext("You won the challenge."),
        "theirs": gettext("Your friend won the challenge."),
        "tie": gettext("A tie: the same result."),
    }[verdict]


def link(request: HttpRequest, challenge: Challenge) -> str:
    return request.build_absolute_uri(reverse("challenge", args=[challenge.token]))


def offered(game: Game) -> Challenge | None:
    """The finished game's challenge, made by the change that ended it (game/counters.py) or
    by its player's POST; a page only reads it."""
    if game.pk is None:
        return None
    return Challenge.objects.filter(game_id=game.pk).first()


SIDE_BY_SIDE = 5
"""Friends' results the challenger's panel shows side by side with their own, the latest
first; the statistics page lists them all."""


def versus(mine: Result, theirs: Result, who: str) -> dict[str, Any]:
    """Two results side by side: theirs first, then this player's, and who won."""
    outcome = challenges.verdict(mine, theirs)
    return {
        "theirs": shown(who, theirs),
        "mine": shown(gettext("You"), mine),
        "verdict": outcome,
        "sentence": verdict_sentence(outcome),
    }


def context(request: HttpRequest, game: Game, *, sessions: bool = True) -> dict[str, Any] | None:
    """The panel's challenge part for a finished stored game; None for any other. Reads only:
    `sessions` is kept for the embed's call."""
    if game.pk is None or game.status == Game.Status.PLAYING:
        return None
    found: dict[str, Any] = {"make_url": reverse("challenge_make", args=[game.pk])}
    mine = challenges.result(game)
    entry = ChallengeEntry.objects.select_related("challenge__game").filter(game_id=game.pk).first()
    if entry is not None:
        found["versus"] = versus(
            mine, challenges.result(entry.challenge.game), gettext("Your friend")
        )
    challenge = offered(game)
    if challenge is not None:
        found["url"] = link(request, challenge)
        friends = challenges.friends_results(challenge.pk)
        numbered = list(enumerate(friends, 1))[::-1]
        found["friends"] = [
            versus(mine, friend, gettext("Friend %(number)s") % {"number": number})
            for number, friend in numbered[:SIDE_BY_SIDE]
        ]
        found["more_friends"] = max(0, len(friends) - SIDE_BY_SIDE)
    return found


def made(session_key: str | None) -> list[dict[str, Any]]:
    """The statistics page's challenges: the session's latest ones that a friend took up, each
    with this player's result and every friend's (two queries, bounded rows)."""
    shown_made = []
    for found in challenges.made_by(session_key or ""):
        game = found.challenge.game
        shown_made.append(
            {
                "game": game,
                "me": shown(gettext("You"), found.mine),
                "friends": [
                    (
                        shown(gettext("Friend %(number)s") % {"number": number}, friend),
                        challenges.verdict(found.mine, friend),
                    )
                    for number, friend in enumerate(found.friends, 1)
                ],
            }
        )
    return shown_made
