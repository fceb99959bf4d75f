"""`manage.py backup PATH`: a consistent copy of the database while the site runs (SQLite's
online backup API, or pg_dump's custom format on PostgreSQL), written beside PATH and renamed
into place once whole and checked. Prints its size, games and sessions; exits non-zero, leaving
nothing half-written at PATH, on any failure (game/backup.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game import backup


class Command(BaseCommand):
    help = "Write a consistent copy of the database to PATH while the site runs."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="where the copy goes (replaced when whole)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            copy = backup.backup(options["path"])
        except backup.BackupError as error:
            raise CommandError(f"backup failed: {error}") from None
        self.stdout.write(f"backup written to {copy.describe()}")
