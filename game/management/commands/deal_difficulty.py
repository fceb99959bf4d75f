"""`manage.py deal_difficulty [--date YYYY-MM-DD] [--days N]`: how hard the coming daily deals
are, computed ahead of time and kept (game/daily/difficulties.py).

From the day given (default today, UTC) for N days (default 7): each deal's missing samples are
played out (about 5 s a deal on the 2-core development machine); a deal already complete costs
one query. Run it daily from a scheduler, before midnight UTC.
"""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game import deals
from game.daily import difficulties
from game.management.commands.daily_stats import parse_day

MAX_DAYS = 366


class Command(BaseCommand):
    help = "Compute how hard the coming daily deals are (default: today and the next 6 days)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--date", help="the first day, YYYY-MM-DD (default: today, UTC)")
        parser.add_argument("--days", type=int, default=7, help="how many days (default 7)")

    def handle(self, *args: Any, **options: Any) -> None:
        text = options.get("date")
        first = parse_day(text) if text is not None else deals.today_utc()
        days = options["days"]
        if not 1 <= days <= MAX_DAYS:
            raise CommandError(f"--days must be between 1 and {MAX_DAYS}.")
        for offset in range(days):
            day = first + dt.timedelta(days=offset)
            number = deals.deal_number_for(day)
            began = time.process_time()
            found = difficulties.compute(number)
            assert found is not None
            self.stdout.write(
                f"{day.isoformat()} #{number}: {found.rating}, {found.wins}/{found.played} "
                f"won ({found.sentence}; {time.process_time() - began:.1f} s of CPU)"
            )
