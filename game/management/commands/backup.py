"""`manage.py backup PATH`: a consistent copy of the database while the site runs (SQLite's
online backup API, or pg_dump's custom format on PostgreSQL), written beside PATH and renamed
into place once whole and checked. Prints its size, games and sessions; exits non-zero, leaving
nothing half-written at PATH, on any failure, and refuses a PATH that is one of the live
database's own files (game/ops/backup.py, game/ops/backup_folder.py).

`manage.py backup --verify PATH` writes nothing at PATH: it restores the backup there into a
throwaway database and replays every game in it, and exits non-zero if any is not whole
(game/ops/backup_verify.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.ops import backup, backup_verify
from game.ops.backup_error import BackupError


class Command(BaseCommand):
    help = "Write a consistent copy of the database to PATH while the site runs, or --verify one."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="where the copy goes (replaced when whole)")
        parser.add_argument(
            "--verify",
            action="store_true",
            help="restore the backup at PATH into a throwaway database and replay every game",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["verify"]:
            try:
                verified = backup_verify.verify(options["path"])
            except BackupError as error:
                raise CommandError(f"verify failed: {error}") from None
            self.stdout.write(f"backup verified: {verified.describe()}")
            return
        try:
            copy = backup.backup(options["path"])
        except BackupError as error:
            raise CommandError(f"backup failed: {error}") from None
        self.stdout.write(f"backup written to {copy.describe()}")
