"""Games kept in the database: who plays, which deal under which rules, and the move log.

The position is never stored: it is the deal replayed through `moves`, so a game can be resumed,
audited and replayed. The counters beside the log (`cards_home`, `redeals_used`, ...) are copies
kept for statistics and the admin; game.play writes them in the same save as the log.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.utils import timezone

from game import engine
from game.played import Played


def new_token() -> str:
    """An unguessable name for a game, for links that cannot rest on the session (embed, replay)."""
    return secrets.token_urlsafe(24)


class Game(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", "Playing"
        WON = "won", "Won"
        LOST = "lost", "Lost"
        # Left in progress for another game: counts as a loss.
        ABANDONED = "abandoned", "Abandoned"

    token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    # The replay link's name (/replay/<replay_token>/): shared freely, it shows this game's moves
    # and nothing else. Separate from `token`, which authorizes moves on an embed game.
    replay_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    # Empty for a game with no session (the embed, identified by its token alone).
    session_key = models.CharField(max_length=40, db_index=True, blank=True)
    deal_number = models.BigIntegerField()
    rules = models.CharField(max_length=40, default=engine.DEFAULT_RULES.name)
    # The moves in engine notation separated by single spaces, oldest first: the record's text
    # without its "rules deal" prefix (see Game.record).
    moves = models.TextField(blank=True, default="")
    # The undone moves that redo would play again, next first, in the same notation.
    redo = models.TextField(blank=True, default="")
    move_count = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    cards_home = models.PositiveSmallIntegerField(default=0)
    redeals_used = models.PositiveSmallIntegerField(default=0)
    mercis_used = models.PositiveSmallIntegerField(default=0)
    # A peek at the solver was taken: the game counts as played, never won.
    assisted = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The fair timer (game/clock.py): the visible time banked so far, and since when the clock has
    # been running (null while paused: the page hidden, or the game not begun or over). Once the
    # game is over, elapsed_ms is its time.
    elapsed_ms = models.PositiveBigIntegerField(default=0)
    clock_since = models.DateTimeField(null=True, blank=True)
    # One flag per logged move, "1" where the move was played by the auto-move setting rather than
    # by the player: undo takes such moves back together with the move that caused them.
    auto_flags = models.TextField(blank=True, default="")
    # A record brought in through /import/ to be watched: not a game anyone played here, so it has
    # no session and is never begun (it counts nowhere), and only its replay link opens it.
    imported = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [  # noqa: RUF012 (Django reads it once)
            models.Index(fields=["session_key", "-created_at"], name="game_session_recent"),
            models.Index(fields=["deal_number", "rules"], name="game_deal_rules"),
            # Everyone's daily figures (game.daily_stats) group the started games of a range of
            # deals by deal number: this index holds every column they read, so the database
            # answers from the index alone instead of visiting each game's row.
            models.Index(
                fields=["rules", "deal_number", "status", "assisted", "elapsed_ms"],
                condition=models.Q(started_at__isnull=False),
                name="game_daily_figures",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.deal_number} {self.rules} ({self.status}, {self.move_count} moves)"

    @property
    def engine_rules(self) -> engine.Rules:
        return engine.Rules.parse(self.rules)

    @property
    def record(self) -> engine.Record:
        """The game record (`lucie 20260726 AS>F ...`) that replays this game."""
        return engine.Record.parse(f"{self.rules} {self.deal_number} {self.moves}")

    @property
    def is_finished(self) -> bool:
        return self.status != self.Status.PLAYING

    def replay(self) -> Played:
        """The engine game: the deal replayed through the log, with the redo list."""
        return Played(
            self.deal_number,
            self.engine_rules,
            _parse_moves(self.moves),
            redo=_parse_moves(self.redo),
            auto_flags=self.auto_flags,
        )


def _parse_moves(text: str) -> list[engine.Move]:
    return [engine.Move.parse(token) for token in text.split()]
