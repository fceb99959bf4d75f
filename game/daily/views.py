"""The daily pages: today's deal, any past day's deal, the month as a calendar, the result to share.

`/daily/` and `/daily/<yyyy>/<mm>/<dd>/` play that date's deal under the default rules, resuming
this browser's game of it when there is one. A day's game is a game of its own (Game.daily): it
lives beside the random game in progress, which opening a daily deal never ends. Every move is then
made through the play views (game/play/) like any other game's. A browser with no session
is shown the day's first board with nothing stored; its first move (`/deal/<n>/<action>/?daily=1`)
stores the session and the game, as the session's entry in the daily figures.
"""

from __future__ import annotations

import calendar
import dataclasses
import datetime as dt
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.dateformat import format as format_date
from django.utils.dates import WEEKDAYS, WEEKDAYS_ABBR
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_http_methods, require_safe

from game import deals, engine, rank
from game.board import find
from game.board.drawn import Drawing, board
from game.board.forms import NewGameForm
from game.board.fronts import SITE, first_board
from game.daily import difficulties, player, share
from game.daily import figures as daily_figures
from game.models import Game
from game.ops import watch
from game.players import selected_card, session_key, start_game


def _weekdays() -> list[tuple[str, str]]:
    """The calendar's column heads, Monday first, in the page's language: (abbreviation, name)."""
    return [(str(WEEKDAYS_ABBR[index]), str(WEEKDAYS[index])) for index in range(7)]


# ---------------------------------------------------------------- helpers


def _not_offered(request: HttpRequest, error: deals.DailyDateError) -> HttpResponse:
    today = deals.today_utc()
    context = {"message": str(error), "this_month": _month_url(today)}
    return render(request, "daily/not_offered.html", context, status=404)


def _month_url(day: dt.date) -> str:
    return reverse("daily_month", args=[f"{day.year:04}", f"{day.month:02}"])


def _day_url(day: dt.date) -> str:
    return reverse("daily_day", args=[f"{day.year:04}", f"{day.month:02}", f"{day.day:02}"])


def _play_url(day: dt.date) -> str:
    """Where a day's deal is played: today's at /daily/, any other day at its date."""
    return reverse("daily") if day == deals.today_utc() else _day_url(day)


def _rollover_context() -> dict[str, Any]:
    rollover = deals.next_rollover()
    return {
        "rollover_iso": rollover.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "rollover_utc": gettext("%(time)s UTC on %(date)s")
        % {
            "time": format_date(rollover, "H:i"),
            # Translators: a Django date format (D: weekday, j: day, N: month, abbreviated).
            "date": format_date(
                rollover, pgettext("the rollover's day, a Django date format", "D j M")
            ),
        },
    }


def day_context(request: HttpRequest, day: dt.date, game: Game | None) -> dict[str, Any]:
    """What the daily header and the result box need, beside the board."""
    today = deals.today_utc()
    key = request.session.session_key
    context: dict[str, Any] = {
        "day": day,
        "is_today": day == today,
        "daily_number": deals.deal_number_for(day),
        "month_url": _month_url(day),
        "day_url": _day_url(day),
        "streaks": player.streaks(key, today),
        "daily_game": game,
        # How hard the deal is; if the scheduled job missed it, the page's line asks (a POST).
        "difficulty": difficulties.of_deal(deals.deal_number_for(day)),
        "difficulty_url": reverse(
            "daily_difficulty", args=[f"{day.year:04}", f"{day.month:02}", f"{day.day:02}"]
        ),
        **_rollover_context(),
    }
    if game is not None:
        entry = rank.entry_of(game)
        mine = player.day_result_of(game, entry)
        context["mine"] = mine
        if mine.finished:
            placed = None if entry is None else rank.of_row(entry, today, mine.practice)
            context["rank"] = placed
            context["share"] = share.for_day(request, game, mine, placed, context["difficulty"])
    return context


# ---------------------------------------------------------------- playing a day's deal


@require_http_methods(["GET", "HEAD", "POST"])
def today(request: HttpRequest) -> HttpResponse:
    """Today's deal (UTC), under the default rules whatever the player chose for random games."""
    return _play_day(request, deals.today_utc())


@require_http_methods(["GET", "HEAD", "POST"])
def day(request: HttpRequest, year: str, month: str, day: str) -> HttpResponse:
    """A given day's deal: today's, or a past day's (played late); days to come are refused."""
    try:
        date = deals.parse_day(year, month, day)
    except deals.DailyDateError as error:
        return _not_offered(request, error)
    return _play_day(request, date)


def _play_day(request: HttpRequest, date: dt.date) -> HttpResponse:
    number = deals.deal_number_for(date)
    rules = engine.Rules.parse(deals.DAILY_RULES)
    if request.method == "POST":
        made = session_key(request)
        if find.day_game(made, number) is None:
            start_game(request, made, number, rules, daily=True)
        # The deal's page, not the game's: post/redirect/get, and a reload shows the same.
        return HttpResponseRedirect(_play_url(date), status=303)
    key = request.session.session_key
    game = find.day_game(key, number) if key else None
    if game is None:
        # A page only reads: the deal's first board, stored (as this session's daily entry,
        # beside the other game in progress, which it never ends) when its first move is made.
        pending = first_board(number, rules, daily=True)
        return _render_day(request, date, pending, selected=selected_card(request))
    return _render_day(request, date, game)


def _render_day(
    request: HttpRequest, date: dt.date, game: Game, *, selected: str = ""
) -> HttpResponse:
    context = board(request, SITE, game, game.resume(), Drawing(selected=selected)).context()
    context["today"] = deals.todays_deal_number()
    context["new_form"] = NewGameForm(initial=request.session.get("new_game", {}))
    context.update(day_context(request, date, game if game.pk is not None else None))
    end = context.get("end")
    if end is not None and end["win"] is not None:
        # The result box under the board carries the day's one share text.
        context["end"] = {**end, "win": dataclasses.replace(end["win"], share="")}
    response = render(request, "daily/play.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_safe
def result(request: HttpRequest, year: str, month: str, day: str) -> HttpResponse:
    """The result box of a day's game alone (a board answer that changes it carries it out of
    band: game/daily/result_box.py)."""
    try:
        date = deals.parse_day(year, month, day)
    except deals.DailyDateError as error:
        return _not_offered(request, error)
    key = request.session.session_key
    game = find.day_game(key, deals.deal_number_for(date)) if key else None
    return render(request, "daily/_result.html", day_context(request, date, game))


# ---------------------------------------------------------------- the month


@dataclasses.dataclass(frozen=True)
class _MonthFacts:
    """What the calendar shows of a month, each read once: this player's results and ranks,
    everyone's figures, and how hard each deal up to today is."""

    first: dt.date
    today: dt.date
    mine: dict[int, player.DayResult]
    placed: dict[int, rank.Rank]
    everyone: dict[int, daily_figures.DayFigures]
    hardness: dict[int, difficulties.Difficulty]


def _month_facts(key: str | None, first: dt.date, today: dt.date) -> _MonthFacts:
    mine = player.player_month(key, first)
    placed = rank.month_ranks([result.game_id for result in mine.values()], today)
    everyone = daily_figures.month_figures(first)
    low, high = deals.month_bounds(first)
    hardness = difficulties.of_deals(list(range(low, min(high, deals.deal_number_for(today)) + 1)))
    return _MonthFacts(first, today, mine, placed, everyone, hardness)


def _day_cell(facts: _MonthFacts, date: dt.date) -> dict[str, Any]:
    """A day of the month: its deal, this player's result and rank, everyone's figures."""
    number = deals.deal_number_for(date)
    mine = facts.mine
    return {
        "difficulty": facts.hardness.get(number),
        "date": date,
        "number": number,
        "is_today": date == facts.today,
        "future": date > facts.today,
        "url": _play_url(date),
        "mine": mine.get(number),
        "rank": facts.placed.get(mine[number].game_id) if number in mine else None,
        "everyone": facts.everyone.get(number, daily_figures.DayFigures(number)),
    }


def _week_label(cells: list[dict[str, Any] | None]) -> str:
    """The row's header for screen readers: the week by its first day in this month."""
    first_day = next(cell["date"] for cell in cells if cell is not None)
    day_format = pgettext("a day and its month, as a Django date format", "j F")
    return gettext("Week of %(date)s") % {"date": format_date(first_day, day_format)}


def _calendar(facts: _MonthFacts) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The month's weeks, Monday first, with a cell for each day of the month (None for the days
    of the months around it); and the month's days up to today, the latest first."""
    weeks: list[dict[str, Any]] = []
    days: list[dict[str, Any]] = []
    first = facts.first
    for week in calendar.Calendar(firstweekday=0).monthdatescalendar(first.year, first.month):
        cells = [_day_cell(facts, date) if date.month == first.month else None for date in week]
        days += [cell for cell in cells if cell is not None and cell["date"] <= facts.today]
        weeks.append({"label": _week_label(cells), "cells": cells})
    return weeks, list(reversed(days))


def _month_links(first: dt.date, today: dt.date) -> dict[str, Any]:
    """Today's deal, this month, and the months before and after the one shown (those on offer)."""
    previous = deals.add_months(first, -1)
    following = deals.add_months(first, 1)
    return {
        "today": today,
        "today_url": reverse("daily"),
        "this_month_url": _month_url(today),
        "is_this_month": first == today.replace(day=1),
        "previous_url": _month_url(previous) if previous >= deals.site_start() else "",
        "previous": previous,
        "next_url": _month_url(following) if following <= today.replace(day=1) else "",
        "next": following,
    }


def _month_tally(key: str | None, facts: _MonthFacts, won: dict[int, bool]) -> dict[str, Any]:
    """This player's streaks, the month's games won and played, and the month's badges."""
    won_this_month = sum(1 for r in facts.mine.values() if r.won)
    return {
        "streaks": player.streaks(key, facts.today, won),
        "won_this_month": won_this_month,
        "badge": player.badge(won_this_month),
        "badges": player.earlier_badges(key, facts.first, won),
        "badge_levels": player.BADGES,
        # A game still under way is neither won nor lost yet: it is not counted against the month.
        "played_this_month": sum(1 for r in facts.mine.values() if r.finished),
    }


def _todays_share(request: HttpRequest, facts: _MonthFacts) -> str | None:
    """The share text of today's game, on this month's page once it is finished (else None)."""
    if facts.first != facts.today.replace(day=1):
        return None
    number = deals.deal_number_for(facts.today)
    todays = facts.mine.get(number)
    if todays is None or not todays.finished:
        return None
    game = Game.objects.get(pk=todays.game_id)
    return share.for_day(
        request, game, todays, facts.placed.get(game.pk), facts.hardness.get(number)
    )


@require_safe
def month(request: HttpRequest, year: str, month: str) -> HttpResponse:
    """The month as a calendar: this player's result and everyone's figures for each day."""
    try:
        first = deals.parse_month(year, month)
    except deals.DailyDateError as error:
        return _not_offered(request, error)
    if (f"{first.year:04}", f"{first.month:02}") != (year, month):
        return HttpResponseRedirect(_month_url(first))
    today = deals.today_utc()
    key = request.session.session_key
    facts = _month_facts(key, first, today)
    weeks, days = _calendar(facts)
    context: dict[str, Any] = {
        "first": first,
        "weeks": weeks,
        "days": days,
        "weekdays": _weekdays(),
        **_month_links(first, today),
        **_month_tally(key, facts, player.won_days(key, today)),
        **_rollover_context(),
    }
    todays_share = _todays_share(request, facts)
    if todays_share is not None:
        context["share"] = todays_share
    return render(request, "daily/month.html", context)


@require_safe
def day_difficulty(request: HttpRequest, year: str, month: str, day: str) -> HttpResponse:
    """How hard a day's deal is, as the daily page's line: known, or still being worked out by the
    queue's workers (game/daily/difficulty_job.py asks for it every five minutes; a page only reads)
    and polled again, saying so when no worker is running."""
    try:
        date = deals.parse_day(year, month, day)
    except deals.DailyDateError as error:
        return _not_offered(request, error)
    number = deals.deal_number_for(date)
    found = difficulties.of_deal(number)
    context = {
        "difficulty": found,
        "difficulty_url": request.path,
        "polled": True,
        "workers_away": found is None and watch.workers_away(),
    }
    return render(request, "daily/_difficulty.html", context)
