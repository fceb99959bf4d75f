"""Games kept in the database: who plays, which deal under which rules, and the move log.

The log (`moves`) is the truth: the position is the deal replayed through it, so a game can be
resumed, audited and replayed. Beside it the row keeps a snapshot of the current position
(`snapshot`, bound to the log by a checksum: engine.Play.snapshot) so that a move need not replay
the log, and counters (`cards_home`, `redeals_used`, ...) kept for statistics and the admin;
game.board.store writes them all in the same save as the log, and only the columns that changed.
"""

from __future__ import annotations

import functools
import secrets

from django.db import models
from django.utils import timezone

from game import engine
from game.querysets import GameQuerySet
from game.status import Status, is_clean_win

# ---------------------------------------------------------------- a game's text columns, read back


@functools.lru_cache(maxsize=256)
def rules_named(name: str) -> engine.Rules:
    """The rule set a game's `rules` column names, parsed once per process per name (a move
    loads its game's rules on every request; engine.Rules is an immutable value)."""
    return engine.Rules.parse(name)


def parse_moves(text: str) -> list[engine.Move]:
    """A stored log's moves. Each request loads its game's whole log, so a move's text is read
    once per process (engine.Move is an immutable value; the texts of moves are few)."""
    return [_stored_move(token) for token in text.split()]


@functools.lru_cache(maxsize=8192)
def _stored_move(token: str) -> engine.Move:
    return engine.Move.parse(token)


def new_token() -> str:
    """An unguessable name for a game, for links that cannot rest on the session (embed, replay)."""
    return secrets.token_urlsafe(24)


class Game(models.Model):
    # game.status.Status, named Game.Status wherever a game is at hand.
    Status = Status

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    # The replay link's name (/replay/<replay_token>/): shared freely, it shows this game's moves
    # and nothing else. Separate from `token`, which authorizes moves on an embed game.
    replay_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    # Empty for a game with no session (the embed, identified by its token alone).
    session_key = models.CharField(max_length=40, db_index=True, blank=True)
    deal_number = models.BigIntegerField()
    rules = models.CharField(max_length=40, default=engine.DEFAULT_RULES.name)
    # The moves in engine notation, space-separated, oldest first: the record's text (Game.record).
    moves = models.TextField(blank=True, default="")
    # The undone moves that redo would play again, next first, in the same notation.
    redo = models.TextField(blank=True, default="")
    move_count = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    cards_home = models.PositiveSmallIntegerField(default=0)
    redeals_used = models.PositiveSmallIntegerField(default=0)
    mercis_used = models.PositiveSmallIntegerField(default=0)
    # Help that makes a game no win of the player's: "Show a win" was used, or the game went on
    # from an imported record. It counts as played, never won.
    assisted = models.BooleanField(default=False)
    # Undos asked (each press, redone or not) and hints used: none, unassisted, is CLEAN_WIN.
    # A hint comes in two stages (game/board/hint_answer.py): a first press shows the card to
    # play and counts in `hints`, a second press on the same board shows where it goes and
    # counts in `hint_places` too, so `hint_places` never exceeds `hints` on the site's pages.
    undos = models.PositiveIntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)
    hint_places = models.PositiveIntegerField(default=0)
    # Strict mode, as the player's setting stood when the game was stored (its first change):
    # no Undo, no Hint, no "Show a win", refused by game.board.actions; never changed after, so
    # the mode cannot be turned off in the middle of a game. Its result is counted apart.
    strict = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The fair timer (game/board/clock.py): the visible time banked so far, and since when the
    # clock has been running (null while paused: the page hidden, or the game not begun or
    # over). Once the game is over, elapsed_ms is its time.
    elapsed_ms = models.PositiveBigIntegerField(default=0)
    clock_since = models.DateTimeField(null=True, blank=True)
    # When the page last said it was hidden (`pause`), while the clock is stopped for it. A move
    # can only come from a visible page, so a move on a paused clock counts the time since the
    # pause (game/board/clock.py): pausing between moves cannot shrink a game's time.
    paused_at = models.DateTimeField(null=True, blank=True)
    # The current position, so that a move need not replay the log (engine.Play.snapshot): written
    # with the log it belongs to, and ignored (the log replayed instead) if it does not match it.
    snapshot = models.TextField(blank=True, default="")
    # One flag per logged move, "1" where the move was played by the auto-move setting rather than
    # by the player: undo takes such moves back together with the move that caused them.
    auto_flags = models.TextField(blank=True, default="")
    # A record brought in through /import/ to be watched: not a game anyone played here, so it has
    # no session and is never begun (it counts nowhere), and only its replay link opens it.
    imported = models.BooleanField(default=False)
    # The session's first game of this deal begun from the daily page: the one game per session
    # that everyone's daily figures count (game/daily/figures.py). Not an embed game, an imported
    # record played on, or a later try at the same deal.
    daily_entry = models.BooleanField(default=False)
    # Begun from a daily page: the day's game of its own, beside the player's other game (opening
    # a daily deal never abandons the random game in progress, nor the other way round).
    daily = models.BooleanField(default=False)
    # The client network (an IPv4 address, an IPv6 /64) the daily entry came from, as a keyed hash
    # (game.ops.limits.network_tag), never the address itself: one network adds at most one player a
    # day to everyone's figures, however many sessions it makes. Empty on every other game.
    network = models.CharField(max_length=16, blank=True, default="")
    # The server's own clock from the first move to the end (null before): the public best time
    # and the daily rank read it, not the fair timer (elapsed_ms) that the page pauses.
    wall_ms = models.PositiveBigIntegerField(null=True, blank=True)
    # The pace of play by the server's clock (game.status.too_fast reads it): when the last
    # change was saved, the changes after the first move that took the log further (turns), and
    # how many of them came a pause (status.PAUSE_MS) or more after the change before.
    last_change_at = models.DateTimeField(null=True, blank=True)
    turns = models.PositiveIntegerField(default=0)
    pauses = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    # Not a column: a deal's first board that is not stored yet was dealt by a daily page, so the
    # first move stores it as the session's daily entry (game.board.fronts.first_board).
    dealt_by_daily: bool = False

    class Meta:
        indexes = [  # noqa: RUF012 (Django reads it once)
            models.Index(fields=["session_key", "-created_at"], name="game_session_recent"),
            models.Index(fields=["deal_number", "rules"], name="game_deal_rules"),
            # prune: games of sessions that are gone, in the order they were left.
            models.Index(fields=["status", "updated_at"], name="game_status_updated"),
            # Everyone's daily figures (game.daily.figures) group the started games of a range of
            # deals by deal number: this index holds every column they read, so the database
            # answers from the index alone instead of visiting each game's row.
            models.Index(
                fields=["rules", "deal_number", "status", "assisted", "wall_ms", "move_count"],
                condition=models.Q(started_at__isnull=False, daily_entry=True),
                name="game_daily_entries",
            ),
        ]
        constraints = [  # noqa: RUF012 (Django reads it once)
            # One entry in the daily figures per session and deal.
            models.UniqueConstraint(
                fields=["session_key", "deal_number"],
                condition=models.Q(daily_entry=True),
                name="game_one_daily_entry",
            ),
            # One daily game in play per session and deal: simultaneous first moves on a day's
            # deal (several tabs, a script) meet here, and all but one take the stored game
            # (game.board.store.start) instead of leaving it abandoned for a game of their own.
            models.UniqueConstraint(
                fields=["session_key", "deal_number"],
                condition=models.Q(daily=True, status="playing"),
                name="game_one_daily_in_play",
            ),
            # One entry in the daily figures per client network and deal.
            models.UniqueConstraint(
                fields=["network", "deal_number"],
                condition=models.Q(daily_entry=True) & ~models.Q(network=""),
                name="game_one_daily_entry_per_network",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.deal_number} {self.rules} ({self.status}, {self.move_count} moves)"

    @property
    def engine_rules(self) -> engine.Rules:
        return rules_named(self.rules)

    @property
    def record(self) -> engine.Record:
        """The game record (`lucie 20260726 AS>F ...`) that replays this game."""
        return engine.Record.parse(f"{self.rules} {self.deal_number} {self.moves}")

    @property
    def is_finished(self) -> bool:
        return self.status != self.Status.PLAYING

    @property
    def is_clean_win(self) -> bool:
        """Won with no undo, no hint and no "Show a win" (the one definition: CLEAN_WIN)."""
        return is_clean_win(self.status, self.assisted, self.undos, self.hints)

    def replay(self) -> engine.Play:
        """The play (engine.Play): the deal replayed through the whole log, with the redo list."""
        return engine.Play(
            self.deal_number,
            self.engine_rules,
            parse_moves(self.moves),
            redo=parse_moves(self.redo),
            auto_flags=self.auto_flags,
        )

    def resume(self) -> engine.Play:
        """The play (engine.Play) from the row's snapshot of its position when that matches the log,
        else replayed (engine.Play.resume)."""
        return engine.Play.resume(
            self.deal_number,
            self.engine_rules,
            parse_moves(self.moves),
            snapshot=self.snapshot,
            redo=parse_moves(self.redo),
            auto_flags=self.auto_flags,
        )


class Transfer(models.Model):
    """A one-time code that moves one browser's games into another's (game/stats/transfer.py).

    Only a hash of the code is kept, so the table alone opens nothing. A session has at most one
    code at a time (asking again replaces it), a code lives TRANSFER_MINUTES, and it is spent by
    its first use; `manage.py prune` removes spent and expired ones.
    """

    code_hash = models.CharField(max_length=64, unique=True)
    # The browser whose games the code moves: the one that showed it.
    session_key = models.CharField(max_length=40, db_index=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"transfer from {self.session_key[:6]}… until {self.expires_at:%H:%M}"


class DailyTally(models.Model):
    """Everyone's figures for one day's deal, kept up to date as its daily entries change
    (game/tally.py), so that the month page reads a row a day instead of counting every
    entry: players (entries begun), winners (clean wins) and the best plausible time of a win
    (the server's clock, Game.wall_ms)."""

    deal_number = models.BigIntegerField(primary_key=True)
    players = models.PositiveIntegerField(default=0)
    winners = models.PositiveIntegerField(default=0)
    # Of the winners, those whose game was in strict mode (Game.strict).
    strict_winners = models.PositiveIntegerField(default=0)
    best_wall_ms = models.PositiveBigIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"#{self.deal_number}: {self.winners}/{self.players}"


class GameReview(models.Model):
    """What the review of a finished game found (game/review/), kept so that asking again is
    instant on every server. `moves` is the log it was found for: a lost game undone and played
    on is another game, and its old review is dropped. `found` holds the search's state and its
    results (bounded: a few numbers, a winning line, at most three moments)."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="review")
    moves = models.TextField(blank=True, default="")
    state = models.CharField(max_length=10, default="working")
    found = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"review of game {self.game_id} ({self.state})"


class DealDifficulty(models.Model):
    """How often a strong fair player wins a deal's layout over hidden redeal shuffles
    (game/daily/difficulties.py): `wins` of `played` sample games, `planned` the sample size."""

    deal_number = models.BigIntegerField()
    rules = models.CharField(max_length=40, default=engine.DEFAULT_RULES.name)
    wins = models.PositiveIntegerField(default=0)
    played = models.PositiveIntegerField(default=0)
    planned = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [  # noqa: RUF012 (Django reads it once)
            models.UniqueConstraint(fields=["deal_number", "rules"], name="difficulty_one_per_deal")
        ]

    def __str__(self) -> str:
        return f"#{self.deal_number} {self.rules}: {self.wins}/{self.played}"


class DailyRank(models.Model):
    """A counted daily entry's first end (game/tally.py writes it in the same transaction as
    the save that first ends the game, and never changes it after): the day's result of that
    game for the tally, the rank, the streak, the badge and the calendar, whatever undo and play
    do to the game afterwards (practice). Its columns are the game's as they stood then
    (game.result.FIELDS, read by game.result.of_entry); `key` orders the results, higher better
    (game.status.rank_key; a negative key is not ranked), so that the day's place and "better
    than P %" are counts over the index on (deal, key). Once the day is over `manage.py
    daily_ranks` keeps the figures (`percentile`, `place`, `of`, `tied`) for the calendar."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="daily_rank"
    )
    deal_number = models.BigIntegerField()
    key = models.BigIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOST)
    assisted = models.BooleanField(default=False)
    elapsed_ms = models.PositiveBigIntegerField(default=0)
    wall_ms = models.PositiveBigIntegerField(null=True, blank=True)
    move_count = models.PositiveIntegerField(default=0)
    cards_home = models.PositiveSmallIntegerField(default=0)
    redeals_used = models.PositiveSmallIntegerField(default=0)
    mercis_used = models.PositiveSmallIntegerField(default=0)
    undos = models.PositiveIntegerField(default=0)
    hints = models.PositiveIntegerField(default=0)
    strict = models.BooleanField(default=False)
    turns = models.PositiveIntegerField(default=0)
    pauses = models.PositiveIntegerField(default=0)
    ended_at = models.DateTimeField(null=True, blank=True)
    percentile = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveIntegerField(null=True, blank=True)
    of = models.PositiveIntegerField(null=True, blank=True)
    tied = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        indexes = [  # noqa: RUF012 (Django reads it once)
            models.Index(fields=["deal_number", "key"], name="daily_rank_deal_key"),
        ]

    def __str__(self) -> str:
        return f"#{self.deal_number}: game {self.game_id} ranked {self.key}"


class Challenge(models.Model):
    """A finished game offered to friends (game/challenge/): whoever opens its link plays the
    same deal under the same rules as a game of their own. Its token is the link's only key
    (unguessable, like Game.token); the page it opens shows the deal, the rules and the
    results, nothing of the player or their moves. One per game, made when its player asks for
    the link (a POST: game/challenge/views.py), never by showing a page."""

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="challenge_made")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"challenge on game {self.game_id}"


class ChallengeEntry(models.Model):
    """A friend's game taken up from a challenge's link: at most
    game.challenge.challenges.MAX_ENTRIES per challenge, one per session."""

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="entries")
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="challenge_entry")

    def __str__(self) -> str:
        return f"game {self.game_id} on challenge {self.challenge_id}"


# The queue's jobs and heartbeats live in a module of their own (game/ops/jobs.py). The module
# that runs them is loaded with the models, as it was when it held them: every process that sets
# Django up opens the queue (a SQLite queue's file is made by `migrate`, not by whichever command
# next touches the queue) and knows the queue's one task.
from game.ops import leases  # noqa: E402, F401 (the queue opened as the app loads)
from game.ops.jobs import Beat, Job  # noqa: E402, F401 (the queue's rows: game/ops/jobs.py)
