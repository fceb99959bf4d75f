"""How hard each daily deal is, kept in the database (models.DealDifficulty).

The figure is game.engine.difficulty's: the fair hint played out over SAMPLES hidden shuffles of
the deal's layout. The queue's workers compute today's and tomorrow's (game/schedule.py:
`coming_days`, every five minutes and when a worker starts), and `manage.py deal_difficulty`
any days ahead; a daily page whose figure is missing asks the workers for it and polls. Two
workers filling the same deal at once keep only the first batch to reach the row (the rest is
done again, never counted twice).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from game import deals, engine
from game.engine import difficulty
from game.models import DealDifficulty


@dataclass(frozen=True)
class Difficulty:
    wins: int
    played: int

    @property
    def level(self) -> str:
        """easy, medium or hard: the same in every language (a CSS hook)."""
        return difficulty.rating(self.wins, self.played).lower()

    @property
    def rating(self) -> str:
        """Easy, Medium or Hard, in the active language."""
        return str(RATINGS[difficulty.rating(self.wins, self.played)])

    @property
    def in_ten(self) -> int:
        return difficulty.in_ten(self.wins, self.played)

    @property
    def sentence(self) -> str:
        # English keeps "times" for one as well; the plural form is for the other languages.
        return ngettext(
            "a strong fair player wins this layout %(count)s times in 10",
            "a strong fair player wins this layout %(count)s times in 10",
            self.in_ten,
        ) % {"count": self.in_ten}

    @property
    def share(self) -> str:
        return pgettext("the share text's difficulty", "%(rating)s (%(count)s in 10)") % {
            "rating": self.rating,
            "count": self.in_ten,
        }


RATINGS = {
    "Easy": pgettext_lazy("how hard a deal is", "Easy"),
    "Medium": pgettext_lazy("how hard a deal is", "Medium"),
    "Hard": pgettext_lazy("how hard a deal is", "Hard"),
}


def _row(number: int, rules: str) -> DealDifficulty:
    row = DealDifficulty.objects.filter(deal_number=number, rules=rules).first()
    if row is not None:
        return row
    try:
        with transaction.atomic():
            return DealDifficulty.objects.create(
                deal_number=number, rules=rules, planned=difficulty.SAMPLES
            )
    except IntegrityError:
        return DealDifficulty.objects.get(deal_number=number, rules=rules)


def _complete(row: DealDifficulty | None) -> Difficulty | None:
    if row is None or row.planned == 0 or row.played < row.planned:
        return None
    return Difficulty(row.wins, row.played)


def compute(
    number: int,
    rules: str = deals.DAILY_RULES,
    seconds: float | None = None,
    *,
    search: Callable[..., Any] | None = None,
) -> Difficulty | None:
    """Play the deal's missing samples (all of them, or for at most `seconds`) and keep them;
    the figure once complete. `search` runs one sample (searches.search in a request)."""
    row = _row(number, rules)
    began, done = time.monotonic(), row.played
    wins = 0
    parsed = engine.Rules.parse(rules)
    run: Callable[..., Any] = search or (lambda function, *args: function(*args))
    while done < row.planned:
        if seconds is not None and done > row.played and time.monotonic() - began >= seconds:
            break  # at least one sample a call, then as many as fit in `seconds`
        wins += bool(run(difficulty.fair_win, number, done, parsed))
        done += 1
    if done > row.played:
        with transaction.atomic():
            locked = DealDifficulty.objects.select_for_update().get(pk=row.pk)
            if locked.played == row.played:  # nobody kept these samples meanwhile
                locked.wins += wins
                locked.played = done
                locked.save(update_fields=["wins", "played", "updated_at"])
            row = locked
    return _complete(row)


def of_deal(number: int) -> Difficulty | None:
    """The daily deal's figure, or None while it is not known."""
    return _complete(
        DealDifficulty.objects.filter(deal_number=number, rules=deals.DAILY_RULES).first()
    )


def of_deals(numbers: list[int]) -> dict[int, Difficulty]:
    """The known figures of these daily deals, in one query (for the calendar)."""
    rows = DealDifficulty.objects.filter(deal_number__in=numbers, rules=deals.DAILY_RULES)
    return {row.deal_number: found for row in rows if (found := _complete(row)) is not None}
