"""The text a player shares after a daily game: the result in one line, and the deal's link."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import ngettext, pgettext

if TYPE_CHECKING:
    from game.daily.difficulty import Difficulty
    from game.daily.player import DayResult
    from game.rank import Rank


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
    if rank is not None and rank.share:
        parts.append(rank.share)
    hard = f" \N{MIDDLE DOT} {hardness.share}" if hardness is not None else ""
    text = f"La Belle Lucie #{deal_number} \N{EM DASH} {', '.join(parts)}{hard}\n{url}"
    if challenge_url:
        text += "\n" + pgettext("the share text", "Beat me on this deal: %(url)s") % {
            "url": challenge_url
        }
    return text
