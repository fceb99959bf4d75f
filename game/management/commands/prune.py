"""`manage.py prune [--unplayed-hours H] [--embed-days D]`: remove expired sessions (idle 400
days), games never moved in, embed games left alone, games in progress whose session is gone and
spent transfer codes (see game/prune.py for what is kept). Run it daily."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from game import prune


class Command(BaseCommand):
    help = "Remove expired sessions, games never moved in, and embed games untouched for long."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--unplayed-hours",
            type=float,
            default=prune.UNPLAYED_HOURS,
            help=f"age of a game never moved in before it goes (default {prune.UNPLAYED_HOURS})",
        )
        parser.add_argument(
            "--embed-days",
            type=float,
            default=prune.EMBED_DAYS,
            help=f"days an embed game may go untouched (default {prune.EMBED_DAYS})",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        done = prune.prune(
            unplayed_hours=options["unplayed_hours"], embed_days=options["embed_days"]
        )
        self.stdout.write(
            f"removed {done.sessions} expired sessions, {done.unplayed_games} games never "
            f"moved in, {done.embed_games} embed games left alone, {done.orphan_games} games "
            f"in progress of sessions that are gone, {done.transfers} spent transfer codes"
        )
