"""The text a player shares after a daily game: the result in one line, and the deal's link.

A finished daily game has one share text (`for_day`), shown once on the daily page (its result
box) and the month page: its result (a counted entry's first end), its place or percentile in
the rank's own words (game.rank.Rank.share), the link to play the same deal and the challenge
link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import ngettext, pgettext

from game import deals
from game.challenge import panel as challenge_panel
from game.models import Game

if TYPE_CHECKING:
    from game.daily.difficulties import Difficulty
    from game.daily.player import DayResult
    from game.rank import Rank


def for_day(
    request: HttpRequest,
    game: Game,
    result: DayResult,
    rank: Rank | None,
    hardness: Difficulty | None,
) -> str:
    """The one share text of a finished daily game."""
    day = deals.day_of_deal(game.deal_number)
    assert day is not None
    path = reverse("daily_day", args=[f"{day.year:04}", f"{day.month:02}", f"{day.day:02}"])
    challenge = challenge_panel.offered(game)
    return share_text(
        game.deal_number,
        result,
        request.build_absolute_uri(path),
        hardness,
        rank=rank,
        challenge_url=challenge_panel.link(request, challenge) if challenge else "",
    )


def share_text(
    deal_number: int,
    result: DayResult,
    url: str,
    hardness: Difficulty | None = None,
    *,
    rank: Rank | None = None,
    challenge_url: str = "",
) -> str:
    """A finished daily game as lines to paste anywhere: the result, the deal's link, and the
    game's challenge link when it has one.

    It names the deal, the result, the time, redeals and the merci, where it ranks among the
    day's players, and how hard the deal is when known: nothing about the player.
    """
    parts: list[str]
    if result.state in ("won", "assisted"):
        if result.state == "won":
            verb = pgettext("the share text", "won in %(time)s")
        else:
            verb = pgettext("the share text", "solved with help in %(time)s")
        moves = ngettext("%(count)s move", "%(count)s moves", result.move_count)
        parts = [verb % {"time": result.time}, moves % {"count": result.move_count}]
        if result.clean:
            parts.append(pgettext("the share text", "clean"))
        if result.strict and result.state == "won":
            parts.append(pgettext("the share text", "strict mode"))
    else:
        if result.state == "abandoned":
            verb = pgettext("the share text", "left unfinished")
        else:
            verb = pgettext("the share text", "lost")
        home = pgettext("the share text", "%(count)s/52 cards home") % {"count": result.cards_home}
        parts = [verb, home]
    redeals = result.redeals_used
    if redeals == 0:
        parts.append(pgettext("the share text", "no redeal"))
    else:
        parts.append(
            ngettext("%(count)s redeal", "%(count)s redeals", redeals) % {"count": redeals}
        )
    if result.mercis_used:
        parts.append(pgettext("the share text", "merci used"))
    else:
        parts.append(pgettext("the share text", "no merci"))
    if not result.on_the_day:
        parts.append(pgettext("the share text", "played late"))
    if rank is not None:
        parts.append(rank.share)
    hard = f" \N{MIDDLE DOT} {hardness.share}" if hardness is not None else ""
    text = f"La Belle Lucie #{deal_number} \N{EM DASH} {', '.join(parts)}{hard}\n{url}"
    if challenge_url:
        text += "\n" + pgettext("the share text", "Beat me on this deal: %(url)s") % {
            "url": challenge_url
        }
    return text
