"""Statistics moved to another device with a short one-time code, and no account.

The device that has the history shows a code (`issue`); the other device enters it and confirms
(`redeem`): the first browser's games move into this browser's session, once. The code is only
ever posted, never put in a URL, so no link, history or request log holds it. Statistics,
streaks and the daily calendar are all computed from the games, so moving the games moves them
all.

- The code is ten letters and digits from an alphabet without look-alikes (31^10, about 8 * 10^14
  values), made by `secrets`. Only its SHA-256 is stored (game.models.Transfer), so the table
  alone opens nothing.
- It lives TRANSFER_MINUTES, is spent by its first use, and a session has one at a time (asking
  again replaces it). Showing and trying codes are rate-limited (game.ops.limits.TRANSFER_CODE,
  TRANSFER_REDEEM). A wrong, spent or expired code changes nothing.
- A daily result counted in everyone's figures stays counted where it was made. Where both
  browsers have an entry for the same day's deal, the other browser's stays with that browser,
  on its client network, and only its other games move: so a loss on one network cannot be
  taken out of the figures by moving it onto another network's entry (which would free the
  first network to enter again and try until it won). A day only the other browser played
  moves with its entry, which still counts once.
- A game in progress on the other device is closed as left unfinished if this one has a game
  of the same kind under way (a random game, or that day's daily game). Games the other
  browser dealt and never moved in are dropped.
- Nothing leaves the site: the code travels only by the player's own hand between their devices.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from game.board import store
from game.models import Game, Transfer
from game.status import WIN

TRANSFER_MINUTES = 15
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0, O, 1, I or L
LENGTH = 10


class TransferError(ValueError):
    """A code that opens nothing: malformed, unknown, spent, expired, or this browser's own."""


@dataclass(frozen=True)
class Issued:
    code: str  # as shown: two groups of five, "ABCDE-FGHJK"
    expires_at: dt.datetime


@dataclass(frozen=True)
class Merged:
    games: int
    wins: int
    daily_days: int
    closed: int
    # Days both browsers counted in everyone's figures: the other browser's entry stayed there.
    kept: int = 0

    @property
    def summary(self) -> str:
        if not self.games:
            if self.kept:
                return self._kept_sentence()
            return gettext("The other browser had no games to move: nothing changed here.")
        games = ngettext("%(count)s game", "%(count)s games", self.games) % {"count": self.games}
        if self.wins:
            wins = ngettext("%(count)s won", "%(count)s won", self.wins) % {"count": self.wins}
        else:
            wins = gettext("none won")
        days = ngettext("%(count)s daily deal", "%(count)s daily deals", self.daily_days) % {
            "count": self.daily_days
        }
        text = gettext("Moved %(games)s (%(wins)s) here, with %(days)s for the calendar.") % {
            "games": games,
            "wins": wins,
            "days": days,
        }
        if self.kept:
            text += " " + self._kept_sentence()
        if self.closed:
            text += " " + ngettext(
                "%(count)s game in progress on the other device met one under way here and now "
                "count as left unfinished.",
                "%(count)s games in progress on the other device met one under way here and now "
                "count as left unfinished.",
                self.closed,
            ) % {"count": self.closed}
        return text

    def _kept_sentence(self) -> str:
        return ngettext(
            "The other device's result for %(count)s daily deal played here too stays "
            "there: it counts once in how everyone did, where it was played.",
            "The other device's results for %(count)s daily deals played here too stay "
            "there: each counts once in how everyone did, where it was played.",
            self.kept,
        ) % {"count": self.kept}


def normalize(text: str) -> str:
    """The code as typed (any case, spaces or dashes) in its bare form; TransferError if it cannot
    be one of ours."""
    bare = "".join(ch for ch in text.upper() if ch not in " -\t")[:64]
    if len(bare) != LENGTH or any(ch not in ALPHABET for ch in bare):
        raise TransferError(
            gettext(
                "A transfer code is %(length)s letters and digits, such as ABCDE-23456: "
                "check it on the other device."
            )
            % {"length": LENGTH}
        )
    return bare


def shown(bare: str) -> str:
    return f"{bare[:5]}-{bare[5:]}"


def _digest(bare: str) -> str:
    return hashlib.sha256(bare.encode()).hexdigest()


def issue(session_key: str, now: dt.datetime | None = None) -> Issued:
    """A new code for this session's games, replacing any it had."""
    now = now or timezone.now()
    bare = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
    expires = now + dt.timedelta(minutes=TRANSFER_MINUTES)
    with transaction.atomic():
        Transfer.objects.filter(session_key=session_key, used_at__isnull=True).delete()
        Transfer.objects.create(
            code_hash=_digest(bare), session_key=session_key, created_at=now, expires_at=expires
        )
    return Issued(shown(bare), expires)


def invalid() -> str:
    """The refusal of a code that opens nothing, in the active language."""
    return gettext(
        "That code opens nothing: it may be mistyped, already used, or older than "
        "%(minutes)s minutes. Ask the other device for a new one."
    ) % {"minutes": TRANSFER_MINUTES}


def redeem(text: str, target: Callable[[], str], now: dt.datetime | None = None) -> Merged:
    """Move the games of the session that issued code `text` into the session `target` gives,
    once. `target` is called only for a code that opens something, inside the transaction, so a
    refused code stores nothing (not even a new session's row)."""
    bare = normalize(text)
    now = now or timezone.now()
    with transaction.atomic():
        transfer = Transfer.objects.select_for_update().filter(code_hash=_digest(bare)).first()
        if transfer is None or transfer.used_at is not None or transfer.expires_at <= now:
            raise TransferError(invalid())
        key = target()
        if transfer.session_key == key:
            raise TransferError(
                gettext(
                    "That is this browser's own code: enter it on the other device, the one "
                    "that should receive these statistics."
                )
            )
        transfer.used_at = now
        transfer.save(update_fields=["used_at"])
        return _merge(transfer.session_key, key, now)


def _merge(source: str, target: str, now: dt.datetime) -> Merged:
    theirs = Game.objects.filter(session_key=source, imported=False)
    theirs.filter(started_at__isnull=True).delete()
    mine = Game.objects.filter(session_key=target)
    # A day both browsers count in everyone's figures: the other browser's entry stays where
    # it is counted, with its network; it is neither moved nor demoted.
    both = mine.daily_entries().values_list("deal_number", flat=True)
    staying = theirs.daily_entries().filter(deal_number__in=both)
    kept = staying.count()
    theirs = theirs.exclude(pk__in=staying.values("pk"))
    closed = 0
    playing = Q(status=Game.Status.PLAYING)
    if mine.filter(playing, daily=False).exists():
        closed += _close(theirs.filter(playing, daily=False), now)
    days_in_play = mine.filter(playing, daily=True).values("deal_number")
    closed += _close(theirs.filter(playing, daily=True, deal_number__in=days_in_play), now)
    moved = theirs.aggregate(
        games=Count("pk"),
        wins=Count("pk", filter=WIN),
        daily_days=Count("pk", filter=Q(daily=True)),
    )
    theirs.update(session_key=target)
    return Merged(**moved, closed=closed, kept=kept)


def _close(games: QuerySet[Game], now: dt.datetime) -> int:
    count = 0
    for game in games.select_for_update():
        store.leave(game, now)
        count += 1
    return count
