"""`manage.py daily_stats [--date YYYY-MM-DD]`: how everyone did on one day's deal.

The day defaults to today (UTC). A malformed date is a CommandError that says how to write it.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from game import deals
from game.daily import figures as daily_figures

_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_day(text: str) -> dt.date:
    """A day written YYYY-MM-DD, strictly (fromisoformat alone also takes 20261129 and weeks)."""
    try:
        if _ISO_DATE.fullmatch(text):
            return dt.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"--date {text!r} is not a day of the calendar.") from None
    raise CommandError(f"--date {text!r} is not a date: write it as YYYY-MM-DD, e.g. 2026-11-29.")


class Command(BaseCommand):
    help = "Print how everyone did on one day's deal (default: today, UTC)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--date", help="the day, YYYY-MM-DD (default: today, UTC)")

    def handle(self, *args: Any, **options: Any) -> None:
        text = options.get("date")
        day = parse_day(text) if text is not None else deals.today_utc()
        breakdown = daily_figures.day_breakdown(day)
        figures = breakdown.figures
        lines = [
            f"Daily deal #{figures.deal_number} ({day:%A %d %B %Y}, rules {deals.DAILY_RULES})",
            f"players:      {figures.players}",
            f"winners:      {figures.winners}",
            f"win rate:     {figures.win_rate}",
            f"best time:    {figures.best_time}",
            f"on the day:   {breakdown.on_the_day}",
            f"played late:  {breakdown.late}",
            f"in progress:  {breakdown.in_progress}",
            f"lost:         {breakdown.lost}",
            f"left:         {breakdown.abandoned}",
            f"browsers:     {breakdown.sessions}",
        ]
        self.stdout.write("\n".join(lines))
