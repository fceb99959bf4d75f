"""Today's deal. Its number is the UTC date as YYYYMMDD, and it changes at midnight UTC.

`now_utc()` is the one place the daily pages read the clock (tests freeze it with time-machine);
everything else here is date arithmetic on what it returns. The engine never reads the clock: this
module turns a date into a deal number and back.

It sits beside the packages rather than in game/daily: the daily pages, the site's first board
(is this deal the daily one on offer?) and the embed all ask it, and game.daily itself draws its
board with game.play's, so a calendar inside game.daily made the two packages import each other.
"""

from __future__ import annotations

import datetime as dt
import re

from django.conf import settings
from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.translation import gettext

# Today's deal is always played under the default rules, whatever a player chose for random games.
DAILY_RULES = "lucie"

_YEAR = re.compile(r"[0-9]{4}")
_MONTH_OR_DAY = re.compile(r"[0-9]{1,2}")


class DailyDateError(ValueError):
    """A daily URL named a date that does not exist or has no deal to offer (a 404)."""


def now_utc() -> dt.datetime:
    return timezone.now().astimezone(dt.UTC)


def today_utc() -> dt.date:
    """Today's UTC date, for every page of the game (tests/web/test_docs.py checks that no other
    module of game/ takes a date from the clock); tests freeze it with time-machine."""
    return now_utc().date()


def deal_number_for(day: dt.date) -> int:
    return day.year * 10_000 + day.month * 100 + day.day


def todays_deal_number() -> int:
    return deal_number_for(today_utc())


def day_of_deal(number: int) -> dt.date | None:
    """The date whose daily deal is `number`, or None when the number is not a date."""
    year, rest = divmod(number, 10_000)
    month, day = divmod(rest, 100)
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def is_offered(number: int) -> bool:
    """Whether `number` is the deal of a day the daily pages offer: from the site's first month
    to today."""
    day = day_of_deal(number)
    return day is not None and site_start() <= day <= today_utc()


def next_rollover(now: dt.datetime | None = None) -> dt.datetime:
    """The next midnight UTC: when today's deal gives way to tomorrow's."""
    now = now or now_utc()
    tomorrow = now.astimezone(dt.UTC).date() + dt.timedelta(days=1)
    return dt.datetime.combine(tomorrow, dt.time(0), tzinfo=dt.UTC)


def site_start() -> dt.date:
    """The first day with a daily deal on offer: the first of settings.SITE_START_MONTH."""
    year, month = settings.SITE_START_MONTH.split("-")
    return dt.date(int(year), int(month), 1)


def month_bounds(first: dt.date) -> tuple[int, int]:
    """The deal numbers of the month's first and last possible day (YYYYMM01..YYYYMM31)."""
    base = first.year * 10_000 + first.month * 100
    return base + 1, base + 31


def add_months(first: dt.date, months: int) -> dt.date:
    index = first.year * 12 + first.month - 1 + months
    return dt.date(index // 12, index % 12 + 1, 1)


def parse_month(year: str, month: str) -> dt.date:
    """The first day of a month named in a URL, if the calendar offers it.

    Raises DailyDateError with a message a player can read: not a month, before the site's
    first month, or a month still to come.
    """
    if not (_YEAR.fullmatch(year) and _MONTH_OR_DAY.fullmatch(month)):
        raise DailyDateError(
            gettext("“%(text)s” is not a month: write it as YYYY/MM.") % {"text": f"{year}/{month}"}
        )
    if not 1 <= int(month) <= 12:
        raise DailyDateError(
            gettext("There is no month %(month)s: months run from 01 to 12.")
            % {"month": int(month)}
        )
    if int(year) < 1:
        raise DailyDateError(gettext("There is no year 0: the calendar starts at year 1."))
    first = dt.date(int(year), int(month), 1)
    _check_offered(first, first, "month")
    return first


def parse_day(year: str, month: str, day: str) -> dt.date:
    """A day named in a URL whose deal may be played: it exists, it has come, and it is not
    before the site's first month."""
    if not (
        _YEAR.fullmatch(year) and _MONTH_OR_DAY.fullmatch(month) and _MONTH_OR_DAY.fullmatch(day)
    ):
        raise DailyDateError(
            gettext("“%(text)s” is not a date: write it as YYYY/MM/DD.")
            % {"text": f"{year}/{month}/{day}"}
        )
    try:
        date = dt.date(int(year), int(month), int(day))
    except ValueError:
        raise DailyDateError(
            gettext("There is no such day as %(text)s.") % {"text": f"{year}-{month}-{day}"}
        ) from None
    _check_offered(date, date.replace(day=1), "day")
    return date


def _check_offered(date: dt.date, first: dt.date, what: str) -> None:
    today = today_utc()
    if first < site_start():
        start = site_start()
        raise DailyDateError(
            gettext("The daily deals begin in %(month)s: there is nothing before that to play.")
            % {"month": format_date(start, "F Y")}
        )
    if (what == "month" and first > today.replace(day=1)) or (what == "day" and date > today):
        if what == "month":
            text = gettext("That month has not come yet: each day's deal arrives at midnight UTC.")
        else:
            text = gettext("That day has not come yet: each day's deal arrives at midnight UTC.")
        raise DailyDateError(text)
