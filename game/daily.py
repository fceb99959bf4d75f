"""Today's deal. Its number is the UTC date as YYYYMMDD, and it changes at midnight UTC."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone


def today_utc() -> dt.date:
    """The one place the site reads today's date; tests freeze it with time-machine."""
    return timezone.now().astimezone(dt.UTC).date()


def deal_number_for(day: dt.date) -> int:
    return day.year * 10_000 + day.month * 100 + day.day


def todays_deal_number() -> int:
    return deal_number_for(today_utc())
