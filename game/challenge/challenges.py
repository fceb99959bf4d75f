"""Challenges as actions on domain values (no request): make a finished game's challenge, take
one up as a game of one's own, and read what its page and a game's panel show.

A challenge is a finished game offered by a link: whoever opens it plays the same deal under the
same rules, in a game of their own session. Everything a challenge stores is bounded: one
Challenge row per game, at most MAX_ENTRIES friends' games per challenge, one per session.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from game import engine
from game.board import store
from game.models import Challenge, ChallengeEntry, Game
from game.result import FIELDS, Result, of_game

MAX_ENTRIES = 20
"""Friends' games one challenge takes: its list of results never grows past it."""

MAX_LISTED = 10
"""Challenges the statistics page lists, the latest first."""


class ChallengeFullError(Exception):
    """The challenge has taken MAX_ENTRIES games already."""


def make(game: Game) -> Challenge:
    """The finished game's challenge: its own if made already, else a new one."""
    found = Challenge.objects.filter(game=game).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Challenge.objects.create(game=game)
    except IntegrityError:
        # Made by a request beside this one.
        return Challenge.objects.get(game=game)


def find(token: str) -> Challenge | None:
    """The challenge its link names, with the challenger's game."""
    return Challenge.objects.select_related("game").filter(token=token).first()


def taken_up(challenge: Challenge, session_key: str) -> Game | None:
    """This session's game of the challenge, if it took it up (or made it)."""
    if challenge.game.session_key and challenge.game.session_key == session_key:
        return challenge.game
    entry = (
        ChallengeEntry.objects.select_related("game")
        .filter(challenge=challenge, game__session_key=session_key)
        .first()
    )
    return entry.game if entry is not None else None


def take_up(challenge: Challenge, session_key: str) -> Game:
    """A game of the challenge's deal and rules for this session (its own if it has one): a new
    game like any other (a game of the same kind left under way is abandoned), listed on the
    challenge. Raises ChallengeFullError past MAX_ENTRIES."""
    rules = engine.Rules.parse(challenge.game.rules)
    with transaction.atomic():
        # The challenge's row lock lines up two friends taking the last place.
        locked = Challenge.objects.select_for_update().select_related("game").get(pk=challenge.pk)
        mine = taken_up(locked, session_key)
        if mine is not None:
            return mine
        if ChallengeEntry.objects.filter(challenge=locked).count() >= MAX_ENTRIES:
            raise ChallengeFullError
        game = store.start(session_key, locked.game.deal_number, rules)
        ChallengeEntry.objects.create(challenge=locked, game=game)
        return game


# ---------------------------------------------------------------- results


def result(game: Game) -> Result:
    """One side of a challenge: the game's result as it stands (game.result)."""
    return of_game(game)


def verdict(mine: Result, theirs: Result) -> str:
    """Who won a challenge between two finished results: "mine", "theirs" or "tie" (the daily
    rank's order, game.status.rank_key: a win beats a loss, wins by the server's clock then
    moves, losses by cards home, and a game helped by "Show a win" or played faster than a
    person can below every honest game)."""
    if mine.key is None or theirs.key is None or mine.key == theirs.key:
        return "tie"
    return "mine" if mine.key > theirs.key else "theirs"


def friends_results(challenge_id: int) -> list[Result]:
    """The finished games of a challenge's friends, in the order they were taken up (one
    query, at most MAX_ENTRIES rows)."""
    rows = (
        Game.objects.filter(challenge_entry__challenge_id=challenge_id)
        .exclude(status=Game.Status.PLAYING)
        .order_by("challenge_entry__pk")
        .values_list(*FIELDS)[:MAX_ENTRIES]
    )
    return [Result.build(*row) for row in rows]


@dataclass(frozen=True)
class Made:
    """A challenge this session made, with its friends' finished results (statistics page)."""

    challenge: Challenge
    mine: Result
    friends: list[Result]


def made_by(session_key: str) -> list[Made]:
    """The session's latest MAX_LISTED challenges that a friend took up, with every friend's
    finished result: two queries, bounded rows."""
    if not session_key:
        return []
    challenges = list(
        Challenge.objects.select_related("game")
        .filter(game__session_key=session_key, entries__isnull=False)
        .distinct()
        .order_by("-created_at")[:MAX_LISTED]
    )
    if not challenges:
        return []
    rows = (
        Game.objects.filter(challenge_entry__challenge__in=challenges)
        .exclude(status=Game.Status.PLAYING)
        .order_by("challenge_entry__pk")
        .values_list("challenge_entry__challenge_id", *FIELDS)
    )
    friends: dict[int, list[Result]] = {}
    for challenge_id, *fields in rows:
        friends.setdefault(challenge_id, []).append(Result.build(*fields))
    return [Made(c, result(c.game), friends.get(c.pk, [])) for c in challenges]
