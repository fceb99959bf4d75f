"""Games in the database: start them, read one under its row lock for a change, check the
change may be made to it, and save it (log, snapshot, counters, status and clock) with one
`save(update_fields=...)`. Which game a request names is game.board.find's.

A change is one transaction (game.board.changes.run opens it): the row read with
`select_for_update()` (on SQLite the transaction is BEGIN IMMEDIATE, which holds the one write
lock from its start: lucie/settings.py), changed through the engine, saved. Engine errors
(IllegalMoveError, InvalidMoveError) come before the save, and roll the transaction back, so a
refused request saves nothing.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.utils import timezone

from game import ending, engine
from game.board import clock, find
from game.models import Game
from game.ops import limits
from game.status import PAUSE_MS

logger = logging.getLogger(__name__)

# Random deals are drawn from 1..RANDOM_DEALS: any number names a deal, but a short one is easy to
# read aloud, type and share. Deals above it (today's deal is YYYYMMDD, well inside) are still
# playable by number.
RANDOM_DEALS = 10**9


class StaleBoardError(Exception):
    """The request named a move count that is not the game's: the board it came from is old."""

    def __init__(self, game: Game) -> None:
        super().__init__("that board was out of date")
        self.game = game


class GameOverError(engine.IllegalMoveError):
    """A change asked of a game that is won or abandoned."""


class GameTooLongError(engine.IllegalMoveError):
    """A change that would take the game's log past limits.MAX_GAME_MOVES."""


def session_key(request: HttpRequest) -> str:
    """This browser's session key, creating the session (and its cookie) if need be: in the
    transaction of the change that stores its first game, so a refused change stores none."""
    if not request.session.session_key:
        limits.check(request, limits.SESSION)
        request.session["player"] = True
        request.session.save()
    key = request.session.session_key
    assert key is not None
    return key


def random_deal_number() -> int:
    return 1 + secrets.randbelow(RANDOM_DEALS)


def start(
    session_key: str,
    deal_number: int,
    rules: engine.Rules,
    *,
    daily: bool = False,
    network: str = "",
    hints: int = 0,
    hint_places: int = 0,
    strict: bool = False,
) -> Game:
    """A new game for the session; a game of the same kind left in progress is abandoned (a loss,
    once begun). A daily game and the other game are of different kinds: starting one never
    touches the other.

    `daily`: begun from a daily page. The session's first such game of the deal is its entry
    in everyone's daily figures (Game.daily_entry), unless its client network (`network`, a
    game.ops.limits.network_tag) has made one for the deal already; a later try is not. A daily
    game of the deal already in play is the answer itself: the database holds one per session
    and deal (game_one_daily_in_play), so first moves sent at once all meet the one game, and
    none leaves the counted entry abandoned. `hints`: the hints already shown on the deal's
    first board, before it was stored (`hint_places`: those shown to their second stage).
    `strict`: the player's strict mode as it stands now, kept for the whole game (Game.strict).
    """
    engine.check_deal_number(deal_number)
    now = timezone.now()
    with transaction.atomic():
        game = Game(
            session_key=session_key,
            deal_number=deal_number,
            rules=rules.name,
            created_at=now,
            snapshot=opening_snapshot(deal_number, rules),
            daily=daily and bool(session_key),
            hints=hints,
            hint_places=hint_places,
            strict=strict,
        )
        if game.daily:
            return _start_daily(game, network)
        for left in find.same_kind(game).select_for_update().filter(status=Game.Status.PLAYING):
            leave(left, now)
        game.save()
        return game


def _daily_starts_one_at_a_time(game: Game, network: str) -> None:
    """On PostgreSQL, the daily starts of one deal by one session, and by one client network,
    wait for each other (advisory locks to the end of the transaction), so the second sees the
    first's game rather than meeting it in a unique constraint: a conflict's error would write
    the session key into the server's log (its DETAIL line, and the statement's text, which
    holds every value of the row). The session's lock is always taken first, so two starts never
    wait for each other round a circle. SQLite takes one writer at a time already."""
    if connection.vendor != "postgresql":
        return
    names = [f"daily-start:{game.session_key}:{game.deal_number}"]
    if network:
        names.append(f"daily-network:{network}:{game.deal_number}")
    with connection.cursor() as cursor:
        for name in names:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [name])


def _start_daily(game: Game, network: str) -> Game:
    """Store `game`, a session's daily game, unless the session has one of its deal in play:
    then that one. In the caller's transaction."""
    _daily_starts_one_at_a_time(game, network)
    in_play = find.same_kind(game).filter(status=Game.Status.PLAYING)
    existing = in_play.first()
    if existing is not None:
        return existing
    entries = Game.objects.daily_entries().filter(deal_number=game.deal_number)
    mine = entries.filter(session_key=game.session_key)
    theirs = entries.filter(network=network) if network else Game.objects.none()
    game.daily_entry = not mine.exists() and not theirs.exists()
    game.network = network if game.daily_entry else ""
    try:
        with transaction.atomic():
            game.save()
        return game
    except IntegrityError:
        # Another request of this session stored its game in play meanwhile
        # (game_one_daily_in_play), or one of this session or network its entry
        # (game_one_daily_entry, game_one_daily_entry_per_network).
        game.pk = None
    existing = in_play.first()
    if existing is not None:
        return existing
    # Only the entry was taken: this game is a later try.
    game.daily_entry = False
    game.network = ""
    try:
        with transaction.atomic():
            game.save()
    except IntegrityError:
        game.pk = None
        return in_play.get()
    return game


def start_from_record(session_key: str, record: engine.Record) -> Game:
    """A new game of the record's deal for the session, going on from the record's last move.

    Its opening was not played here, so it is marked assisted: it counts as played, never won.
    """
    played = engine.Play(record.deal_number, record.rules, record.moves)
    with transaction.atomic():
        game = start(session_key, record.deal_number, record.rules)
        if record.moves:
            game.assisted = True
            save(game, played)
        return game


def store_import(record: engine.Record) -> Game:
    """An imported record kept to be watched: no session, never begun, so it counts nowhere and
    only its replay link (not the embed's token URLs) opens it."""
    played = engine.Play.from_record(record)
    position = played.position
    outcome = position.outcome()
    status = Game.Status.PLAYING if outcome is None else Game.Status(outcome.name)
    game = Game.objects.create(
        session_key="",
        imported=True,
        deal_number=record.deal_number,
        rules=record.rules.name,
        moves=" ".join(move.text for move in record.moves),
        snapshot=played.snapshot,
        auto_flags="0" * len(record.moves),
        move_count=len(record.moves),
        status=status,
        cards_home=position.cards_home,
        redeals_used=position.redeals_used,
        mercis_used=position.mercis_used,
    )
    ending.saved(game, ending.FRESH)
    return game


def start_unattached(deal_number: int, rules: engine.Rules) -> Game:
    """A new game with no session (the embed's), found again by its token alone."""
    engine.check_deal_number(deal_number)
    return Game.objects.create(
        session_key="",
        deal_number=deal_number,
        rules=rules.name,
        snapshot=opening_snapshot(deal_number, rules),
    )


def opening_snapshot(deal_number: int, rules: engine.Rules) -> str:
    """The snapshot of a game with no move yet: its deal's first layout."""
    return engine.snapshot_text(engine.Position.start(deal_number, rules), ())


@contextmanager
def saving() -> Iterator[None]:
    """Around a transaction that writes: a write the database refuses (a full disk, a read-only
    database) rolls back and becomes limits.Unsaved, which the player sees as "could not be
    saved, try again" (a 503), not a 500."""
    try:
        yield
    except DatabaseError as error:
        logger.error("could not save: %s: %s", type(error).__name__, error)
        raise limits.Unsaved() from error


def locked(games: QuerySet[Game]) -> Game:
    """The game `games` names, read under its row lock in the caller's transaction, or 404."""
    game = games.select_for_update().first()
    if game is None:
        raise Http404("no such game")
    return game


def check(game: Game, seen_moves: int) -> None:
    """Refuse a change to `game` made on a board of another move count (a stale board, or a
    double submit: StaleBoardError), or to a game that is over."""
    if seen_moves != game.move_count:
        raise StaleBoardError(game)
    if game.status == Game.Status.WON:
        raise GameOverError("this game is won: start a new one")
    if game.status == Game.Status.ABANDONED:
        raise GameOverError("this game was left for another one and is over")
    if game.status == Game.Status.LOST and _has_newer_game(game):
        # Undo may revive a lost game, but not once the player has moved on: two games in
        # progress at once would make the home page and the statistics ambiguous.
        raise GameOverError("this game is over and a newer one has been dealt since")


def _has_newer_game(game: Game) -> bool:
    if not game.session_key:
        return False
    return find.same_kind(game).filter(created_at__gt=game.created_at).exists()


# What a change writes: the log and what follows from it, the clock, the outcome, and the two
# marks an action may set (undos counted, "Show a win" asked).
CHANGED = (
    "moves", "snapshot", "redo", "auto_flags", "move_count", "cards_home", "redeals_used",
    "mercis_used", "started_at", "elapsed_ms", "clock_since", "paused_at", "status",
    "finished_at", "wall_ms", "undos", "assisted", "last_change_at", "turns", "pauses",
    "updated_at",
)  # fmt: skip
# What ending a game writes.
FINISHED = ("status", "finished_at", "wall_ms", "elapsed_ms", "clock_since", "paused_at",
            "updated_at")  # fmt: skip


def save(game: Game, played: engine.Play) -> None:
    """Copy the play's log, snapshot, counters and outcome onto the row and save it.
    Every change is a sign of life from the player, so it also runs the clock (which the first
    move starts); the end of the game stops it. What follows the save (the metrics, the daily
    tally, and a game's end: game/ending.py) is called here, in the caller's transaction."""
    if len(played.moves) > max(limits.MAX_GAME_MOVES, game.move_count):
        raise GameTooLongError(
            f"a game holds at most {limits.MAX_GAME_MOVES} moves: undo, or start a new game"
        )
    before = ending.seen(game) if game.pk is not None else ending.FRESH
    now = timezone.now()
    _pace(game, len(played.moves), now)
    position = played.position
    # Lists, not generators: a generator costs a Python call per move, on every move's save.
    game.moves = " ".join([move.text for move in played.moves])
    game.snapshot = played.snapshot
    game.redo = " ".join([move.text for move in played.redo_moves])
    game.auto_flags = played.auto_flags
    game.move_count = len(played.moves)
    game.cards_home = position.cards_home
    game.redeals_used = position.redeals_used
    game.mercis_used = position.mercis_used
    if game.started_at is None and played.moves:
        game.started_at = now
    if game.started_at is not None:
        clock.run(game, now)
    outcome = position.outcome()
    if outcome is not None and outcome.won:
        finish(game, Game.Status.WON, now)
    elif outcome is not None:
        if game.status != Game.Status.LOST:
            finish(game, Game.Status.LOST, now)
    elif game.status == Game.Status.LOST:
        # Undo out of a dead end: the game is alive again, and its clock goes on from where it
        # stopped (clock.run above).
        game.status = Game.Status.PLAYING
        game.finished_at = None
        game.wall_ms = None
    game.save(update_fields=None if game.pk is None else CHANGED)
    ending.saved(game, before)


def _pace(game: Game, moves: int, now: dt.datetime) -> None:
    """Time this change against the one before, by the server's clock: a change after the first
    move that takes the log further is a turn, and a pause when it comes status.PAUSE_MS or more
    after the change before (status.too_fast reads the two counts). Any change (an undo too)
    is the last change from now on."""
    if game.started_at is not None and game.last_change_at is not None and moves > game.move_count:
        game.turns += 1
        if now - game.last_change_at >= dt.timedelta(milliseconds=PAUSE_MS):
            game.pauses += 1
    if game.started_at is not None or moves:
        game.last_change_at = now


def leave(game: Game, now: dt.datetime) -> None:
    """End `game`, read under its lock in the caller's transaction, as left for another (a loss
    once begun): its end follows in the same transaction (game/ending.py)."""
    before = ending.seen(game)
    finish(game, Game.Status.ABANDONED, now)
    game.save(update_fields=FINISHED)
    ending.saved(game, before)


def finish(game: Game, status: str, now: dt.datetime) -> None:
    game.status = status
    game.finished_at = now
    if game.started_at is not None:
        game.wall_ms = max(0, int((now - game.started_at).total_seconds() * 1000))
    clock.stop(game, now)
