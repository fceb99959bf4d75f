"""Where a counted daily game stands among the day's ranked players, in the words every page
uses for it: the end panel and the daily page's result box (`Rank.sentence`), the month's cell
(`Rank.short`), the share text (`Rank.share`) and the statistics page (`Rank.short`).

Only counted entries are ranked (Game.daily_entry: one per session and client network, begun
from the daily page), by their first end (game/tally.py keeps it on a DailyRank row in the
transaction of the save that ends the game): play after it is practice. A game helped by "Show
a win" or played faster than a person can (game.status.rank_key's negative keys) is not ranked:
it has no place, is among no one's others, and its words say why. Ties share one place and one
percentile and say so. Until PLACES_UNTIL players are ranked the words give the place ("2nd of
3 players today"), then "better than P %".

A figure is three counts over the index on (deal, key), cached for RANK_TTL seconds under the
day's generation, so that a page asked again and again costs two cache reads; a change to the
day's figures gives the month a new generation, so every page follows the day at once. Once the
day is over `manage.py daily_ranks` keeps each entry's figures on its row (`keep_day`); a page
only reads.
"""

from __future__ import annotations

import datetime as dt
import logging
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, IntegerField, OuterRef, Q, Subquery
from django.utils.translation import get_language, ngettext, pgettext

from game import deals
from game.models import DailyRank, Game
from game.result import Result, of_entry
from game.status import RANKED
from game.tally import generation

logger = logging.getLogger(__name__)

RANK_TTL = 30
"""Seconds a player's figure is kept in the cache: as long as everyone's figures are."""

PLACES_UNTIL = 10
"""Below this many ranked players a day's words give the place, not a percentile."""


def ordinal(number: int) -> str:
    """A place in the page's language: 1st, 2nd (en); 1er, 2e (fr); 1., 2. (de)."""
    language = (get_language() or "en").split("-")[0]
    if language == "fr":
        return "1er" if number == 1 else f"{number}e"
    if language == "de":
        return f"{number}."
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


@dataclass(frozen=True)
class Rank:
    """A counted daily game's first end among the day's ranked entries."""

    result: Result  # the first end
    place: int | None  # 1 is the best; ties share the best place; None when not ranked
    of: int  # the day's ranked players, this one included when ranked
    tied: int  # the other ranked players with the same result
    percentile: int | None  # the share of the others it did better than, rounded down
    today: bool
    practice: bool = False  # the game was played on after its first end

    @property
    def ranked(self) -> bool:
        return self.place is not None

    @property
    def clean(self) -> bool:
        return self.result.clean

    @property
    def by_place(self) -> bool:
        return self.of < PLACES_UNTIL

    def _placed(self) -> str:
        assert self.place is not None
        return ngettext(
            "%(place)s of %(count)s player", "%(place)s of %(count)s players", self.of
        ) % {"place": ordinal(self.place), "count": self.of}

    def _tie(self) -> str:
        if not self.tied:
            return ""
        return ngettext("tied with %(count)s player", "tied with %(count)s players", self.tied) % {
            "count": self.tied
        }

    @property
    def sentence(self) -> str:
        """The panel's and the result box's sentence."""
        if not self.ranked:
            return self.result.unranked_why
        tie = self._tie()
        if self.by_place:
            if self.today:
                text = pgettext("the daily rank", "You are %(placed)s today") % {
                    "placed": self._placed()
                }
            else:
                text = pgettext("the daily rank", "You were %(placed)s on this day") % {
                    "placed": self._placed()
                }
        elif self.today:
            text = pgettext(
                "the daily rank", "You did better than %(percent)s %% of today's players"
            ) % {"percent": self.percentile}
        else:
            text = pgettext(
                "the daily rank", "You did better than %(percent)s %% of this day's players"
            ) % {"percent": self.percentile}
        return f"{text}, {tie}." if tie else f"{text}."

    @property
    def short(self) -> str:
        """The month's cell and the statistics page: the same figure in a few words."""
        if not self.ranked:
            return pgettext("the daily rank, short", "Not ranked")
        if self.by_place:
            text = self._placed()
        else:
            text = pgettext("the daily rank, short", "Better than %(percent)s %%") % {
                "percent": self.percentile
            }
        tie = self._tie()
        return f"{text}, {tie}" if tie else text

    @property
    def share(self) -> str:
        """The rank in the share text: the same figure, and nothing claimed when not ranked."""
        if not self.ranked:
            return pgettext("the share text", "not ranked")
        if self.by_place:
            text = self._placed()
        else:
            text = pgettext("the share text", "better than %(percent)s %% of the day's players") % {
                "percent": self.percentile
            }
        tie = self._tie()
        return f"{text}, {tie}" if tie else text


def _percentile(worse: int, others: int) -> int:
    return 100 if not others else 100 * worse // others


def _generation(deal_number: int) -> str | None:
    """The generation of the deal's month figures (game/tally.py), which every change
    to a day's figures replaces once it commits: a rank cached before a first end is never read
    after it, so the panel (cached) and the month's cell (counted) never tell two places for one
    game. None when the cache cannot be read, and then nothing is cached."""
    day = deals.day_of_deal(deal_number)
    if day is None:
        return None
    try:
        return generation(day.replace(day=1))
    except Exception:
        logger.exception("daily rank: the cache could not be read")
        return None


def _counts(game_id: int, deal_number: int, key: int) -> tuple[int, int, int]:
    """(better, same, others): the day's ranked entries above `key`, equal to it, and all of
    them, leaving out the game itself."""
    generation = _generation(deal_number)
    cache_key = f"daily:rank:{deal_number}:{generation}:{key}:{game_id}"
    found = None
    if generation is not None:
        try:
            found = cache.get(cache_key)
        except Exception:
            logger.exception("daily rank: the cache could not be read")
    if found is not None:
        return found  # type: ignore[no-any-return]
    rows = DailyRank.objects.filter(deal_number=deal_number, key__gte=RANKED).exclude(
        game_id=game_id
    )
    totals = rows.aggregate(
        others=Count("pk"),
        better=Count("pk", filter=Q(key__gt=key)),
        same=Count("pk", filter=Q(key=key)),
    )
    counted = (int(totals["better"]), int(totals["same"]), int(totals["others"]))
    if generation is None:
        return counted
    try:
        cache.set(cache_key, counted, RANK_TTL)
    except Exception:
        logger.exception("daily rank: the cache could not be written")
    return counted


def of_row(row: DailyRank, today: dt.date, practice: bool = False) -> Rank:
    """The Rank of one first end: its kept figures once the day is over, else counted."""
    result = of_entry(row)
    is_today = row.deal_number == deals.deal_number_for(today)
    if not result.ranked:
        return Rank(result, None, 0, 0, None, is_today, practice)
    if row.place is not None and row.of is not None:
        return Rank(result, row.place, row.of, row.tied or 0, row.percentile, is_today, practice)
    better, same, others = _counts(row.game_id, row.deal_number, row.key)
    worse = others - better - same
    return Rank(
        result, better + 1, others + 1, same, _percentile(worse, others), is_today, practice
    )


def entry_of(game: Game) -> DailyRank | None:
    """A counted daily game's first end, if it has ended (one query)."""
    if game.pk is None or not game.daily_entry or game.rules != deals.DAILY_RULES:
        return None
    return DailyRank.objects.filter(game_id=game.pk).first()


def played_on(game: Game, row: DailyRank) -> bool:
    """The game has been played on since its first end (practice)."""
    return game.status != row.status or game.move_count != row.move_count


def of_game(game: Game, today: dt.date | None = None) -> Rank | None:
    """Where a counted daily game's first end stands among that day's ranked players; None for
    a game that has not ended yet or is not a counted entry."""
    row = entry_of(game)
    if row is None:
        return None
    return of_row(row, today or deals.today_utc(), played_on(game, row))


def _counted(outer: Q) -> Subquery:
    """How many of the deal's ranked entries, other than the row's own, match `outer`."""
    rows = (
        DailyRank.objects.filter(outer, deal_number=OuterRef("deal_number"), key__gte=RANKED)
        .exclude(game_id=OuterRef("game_id"))
        .order_by()
        .values("deal_number")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Subquery(rows, output_field=IntegerField())


def month_ranks(game_ids: Iterable[int], today: dt.date) -> dict[int, Rank]:
    """The calendar's figures for these games (one player's month), by game, in one query
    whatever the number of days: the kept figures of a day that is over, else the counts, each
    a subquery over the index on (deal, key); a game that is not a counted entry that ended has
    none."""
    ids = list(game_ids)
    if not ids:
        return {}
    rows = DailyRank.objects.filter(game_id__in=ids).annotate(
        n_better=_counted(Q(key__gt=OuterRef("key"))),
        n_same=_counted(Q(key=OuterRef("key"))),
        n_others=_counted(Q()),
    )
    found: dict[int, Rank] = {}
    for row in rows:
        result = of_entry(row)
        is_today = row.deal_number == deals.deal_number_for(today)
        if not result.ranked or (row.place is not None and row.of is not None):
            found[row.game_id] = of_row(row, today)
            continue
        better, same, others = (
            row.n_better or 0,
            row.n_same or 0,
            row.n_others or 0,
        )
        worse = others - better - same
        found[row.game_id] = Rank(
            result, better + 1, others + 1, same, _percentile(worse, others), is_today
        )
    return found


def keep_day(deal_number: int) -> int:
    """Keep every figure of a day that is over on its entries' rows (`manage.py daily_ranks`,
    run after midnight UTC): the day's ranked keys read once in order, each entry's place,
    ties and percentile found by bisection. Returns how many rows were kept. A figure kept
    already is left as it is."""
    rows = list(
        DailyRank.objects.filter(deal_number=deal_number, key__gte=RANKED).values_list(
            "game_id", "key", "place"
        )
    )
    keys = sorted(key for _, key, _ in rows)
    total = len(keys)
    kept = []
    for game_id, key, place in rows:
        if place is not None:
            continue
        below, upto = bisect_left(keys, key), bisect_right(keys, key)
        kept.append(
            DailyRank(
                game_id=game_id,
                place=total - upto + 1,
                of=total,
                tied=upto - below - 1,
                percentile=_percentile(below, total - 1),
            )
        )
    DailyRank.objects.bulk_update(kept, ["place", "of", "tied", "percentile"], batch_size=1_000)
    return len(kept)
