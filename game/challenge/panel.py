"""What a finished game's panel shows of challenges (board/challenge.jinja), on the site and in
the embed: the link to challenge a friend, the two results side by side when the game was a
challenge taken up, and every friend's result when it was challenged. Three short queries, and
only for a finished game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext, pgettext

from game import limits
from game.board.clock import format_ms
from game.challenge import actions
from game.challenge.actions import Result
from game.models import Challenge, ChallengeEntry, Game


def state_label(result: Result) -> str:
    return {
        "won": pgettext("a challenge's result", "Won"),
        "assisted": pgettext("a challenge's result", "Won with “Show a win”"),
        "lost": pgettext("a challenge's result", "Lost"),
        "abandoned": pgettext("a challenge's result", "Left unfinished"),
        "playing": pgettext("a challenge's result", "Still playing"),
    }[result.state]


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
        result=state_label(result),
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


def offered(request: HttpRequest, game: Game, *, sessions: bool = True) -> Challenge | None:
    """The finished game's challenge, made now if it has none yet and the rate limit allows
    (CHALLENGE, per network and session); None when it does not."""
    found = Challenge.objects.filter(game_id=game.pk).first()
    if found is not None:
        return found
    try:
        limits.check(request, limits.CHALLENGE, session=sessions)
    except limits.Limited:
        return None
    return actions.make(game)


def context(request: HttpRequest, game: Game, *, sessions: bool = True) -> dict[str, Any] | None:
    """The panel's challenge part for a finished stored game; None for any other."""
    if game.pk is None or game.status == Game.Status.PLAYING:
        return None
    found: dict[str, Any] = {}
    mine = actions.result(game)
    entry = ChallengeEntry.objects.select_related("challenge__game").filter(game_id=game.pk).first()
    if entry is not None:
        theirs = actions.result(entry.challenge.game)
        found["versus"] = {
            "theirs": shown(gettext("Your friend"), theirs),
            "mine": shown(gettext("You"), mine),
            "verdict": actions.verdict(mine, theirs),
            "sentence": verdict_sentence(actions.verdict(mine, theirs)),
        }
    challenge = offered(request, game, sessions=sessions)
    if challenge is None:
        found["limited"] = True
    else:
        found["url"] = link(request, challenge)
        friends = actions.friends_results(challenge.pk)
        if friends:
            found["me"] = shown(gettext("You"), mine)
            found["friends"] = [
                (
                    shown(gettext("Friend %(number)s") % {"number": number}, friend),
                    actions.verdict(mine, friend),
                )
                for number, friend in enumerate(friends, 1)
            ]
    return found


def made(session_key: str | None) -> list[dict[str, Any]]:
    """The statistics page's challenges: the session's latest ones that a friend took up, each
    with this player's result and every friend's (two queries, bounded rows)."""
    shown_made = []
    for found in actions.made_by(session_key or ""):
        game = found.challenge.game
        shown_made.append(
            {
                "game": game,
                "me": shown(gettext("You"), found.mine),
                "friends": [
                    (
                        shown(gettext("Friend %(number)s") % {"number": number}, friend),
                        actions.verdict(found.mine, friend),
                    )
                    for number, friend in enumerate(found.friends, 1)
                ],
            }
        )
    return shown_made
