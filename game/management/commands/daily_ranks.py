"""`manage.py daily_ranks [--days N]`: keep each finished daily entry's "better than P %" of the
days that are over (the last N before today, UTC; default 2), for the calendar's cells. Run it
daily after midnight UTC; running it again keeps nothing twice."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game import deals, rank


class Command(BaseCommand):
    help = "Keep the daily ranks of the days that are over, for the calendar."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=2, help="days before today (default 2)")

    def handle(self, *args: Any, **options: Any) -> None:
        days = options["days"]
        if not 1 <= days <= 400:
            raise CommandError("--days must be between 1 and 400.")
        today = deals.today_utc()
        for back in range(1, days + 1):
            day = today - dt.timedelta(days=back)
            if day < deals.site_start():
                break
            kept = rank.keep_day(deals.deal_number_for(day))
            self.stdout.write(f"{day:%Y-%m-%d}: kept {kept} ranks")
