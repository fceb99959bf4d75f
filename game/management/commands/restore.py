"""`manage.py restore PATH [--force]`: put a backup made by `manage.py backup` back as the
database the settings name, which the site must not be serving meanwhile: a SQLite copy through
SQLite's backup API, a PostgreSQL one through pg_restore, each in one transaction. Refuses to
replace a database that holds games without --force (game/ops/restore.py; docs/operating.md,
"Backups")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game.ops import restore
from game.ops.backup_error import BackupError


class Command(BaseCommand):
    help = "Put a backup back as the database (stop the site first)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="a backup written by manage.py backup")
        parser.add_argument(
            "--force", action="store_true", help="replace a database that holds games"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            copy = restore.restore(options["path"], force=options["force"])
        except BackupError as error:
            raise CommandError(f"restore failed: {error}") from None
        self.stdout.write(f"restored {options['path']} into {copy.describe()}")
