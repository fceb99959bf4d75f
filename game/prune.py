"""What `manage.py prune` removes: rows nobody can reach or use any more.

- Expired sessions (as Django's `clearsessions` does): their cookies open nothing
  (lucie/sessions.py), so they only take room.
- Games never moved in, once they are `unplayed_hours` old: a board dealt and left. They count
  nowhere (the figures and statistics count a game from its first move) and have no replay.
- Embed games untouched for `embed_days`: an embed game is reached only by the token in its frame's
  address; it counts in no figures (they count games begun from the daily page) and no page
  links its replay.

Never removed: any game of the main site that was begun (statistics, replay links, the daily
figures), and imported records (their replay link is the only way to them, and may be shared).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.sessions.models import Session
from django.db.models import Q, QuerySet
from django.utils import timezone

from game.models import Game

UNPLAYED_HOURS = 24
EMBED_DAYS = 30
BATCH = 1000


@dataclass(frozen=True)
class Pruned:
    sessions: int
    unplayed_games: int
    embed_games: int


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
    return Pruned(
        sessions=sessions,
        unplayed_games=_delete(Game.objects.filter(unplayed), "pk"),
        embed_games=_delete(Game.objects.filter(embed), "pk"),
    )


def _delete(rows: QuerySet[Any], key: str) -> int:
    """Delete in batches, so that a first run on a big table holds no lock for long."""
    total = 0
    while True:
        batch = list(rows.values_list(key, flat=True)[:BATCH])
        if not batch:
            return total
        deleted, _ = rows.model.objects.filter(**{f"{key}__in": batch}).delete()
        total += deleted
