"""What `manage.py prune` removes: rows nobody can reach or use any more.

- Expired sessions (as Django's `clearsessions` does): a session expires SESSION_COOKIE_AGE
  (400 days) after the player's last visit, since every visit renews it (lucie/sessions.py), so
  only a browser idle that long is forgotten. Its cookie would open nothing, so it only takes room.
- The games of sessions that are gone, where nothing else needs them: a game still in progress
  (nobody can reach it: a game in progress has no replay link) that is not a daily entry.
  A finished game stays (its replay link may have been shared), and so does every daily entry
  (everyone's figures count it).
- Games never moved in, once they are `unplayed_hours` old: a board dealt and left. They count
  nowhere (the figures and statistics count a game from its first move) and have no replay.
- Transfer codes that are spent or expired (game/stats/transfer.py).
- Embed games untouched for `embed_days`: an embed game is reached only by the token in its frame's
  address; it counts in no figures (they count games begun from the daily page) and no page
  links its replay.

Never removed: a game of a live session (statistics, the daily calendar), a finished game
(replay links), a daily entry (the daily figures), and imported records (their replay link is
the only way to them, and may be shared).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.sessions.models import Session
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from game.models import Game, Transfer

UNPLAYED_HOURS = 24
EMBED_DAYS = 30
BATCH = 1000


@dataclass(frozen=True)
class Pruned:
    sessions: int
    unplayed_games: int
    embed_games: int
    orphan_games: int = 0
    transfers: int = 0


def prune(
    *,
    unplayed_hours: float = UNPLAYED_HOURS,
    embed_days: float = EMBED_DAYS,
    now: dt.datetime | None = None,
) -> Pruned:
    now = now or timezone.now()
    sessions = _delete(Session.objects.filter(expire_date__lt=now), "session_key")
    unplayed = Q(
        started_at__isnull=True,
        imported=False,
        created_at__lt=now - dt.timedelta(hours=unplayed_hours),
    )
    embed = Q(session_key="", imported=False, updated_at__lt=now - dt.timedelta(days=embed_days))
    alive = Session.objects.filter(session_key=OuterRef("session_key"), expire_date__gt=now)
    orphans = (
        Game.objects.filter(status=Game.Status.PLAYING, daily_entry=False, imported=False)
        .filter(started_at__isnull=False)
        .exclude(session_key="")
        .filter(~Exists(alive))
    )
    spent = Q(used_at__isnull=False) | Q(expires_at__lt=now)
    return Pruned(
        sessions=sessions,
        unplayed_games=_delete(Game.objects.filter(unplayed), "pk"),
        embed_games=_delete(Game.objects.filter(embed), "pk"),
        orphan_games=_delete(orphans, "pk"),
        transfers=_delete(Transfer.objects.filter(spent), "pk"),
    )


def _delete(rows: QuerySet[Any], key: str) -> int:
    """Delete in batches, so that a first run on a big table holds no lock for long."""
    total = 0
    while True:
        batch = list(rows.values_list(key, flat=True)[:BATCH])
        if not batch:
            return total
        _, by_model = rows.model.objects.filter(**{f"{key}__in": batch}).delete()
        # Only the rows of this table: what went with them (a finished game's challenge) is not
        # what the line counts.
        total += by_model.get(rows.model._meta.label, 0)
