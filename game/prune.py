"""What `manage.py prune` removes: rows nobody can reach or use any more.

- Expired sessions (as Django's `clearsessions` does): a session expires SESSION_COOKIE_AGE
  (400 days) after the player's last visit, since every visit renews it (lucie/sessions.py), so
  only a browser idle that long is forgotten. Its cookie would open nothing, so it only takes room.
- The games of sessions that are gone, where nothing else needs them: a game still in progress
  (nobody can reach it: a game in progress has no replay link) that is not a daily entry.
  A finished game stays (its replay link may have been shared), and so does every daily entry
  (everyone's figures count it). "Gone" is the session engine's own answer, not the table's
  alone: a session the cache holds (Django's `cached_db`, whose row a restore may have taken
  away, or the `cache` engine, which keeps no row at all) is alive, and while the session cache
  cannot be reached no such game is removed.
- Games never moved in, once they are `unplayed_hours` old: a board dealt and left. They count
  nowhere (the figures and statistics count a game from its first move) and have no replay.
- Transfer codes that are spent or expired (game/stats/transfer.py).
- Embed games untouched for `embed_days`: an embed game is reached only by the token in its frame's
  address; it counts in no figures (they count games begun from the daily page) and no page
  links its replay.

Never removed: a begun game of a live session (statistics, the daily calendar), a finished game
(replay links), a daily entry (the daily figures), and imported records (their replay link is
the only way to them, and may be shared).
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

from game.models import Game, Transfer

logger = logging.getLogger(__name__)

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
    sessions = _delete_sessions(Session.objects.filter(expire_date__lt=now))
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
        orphan_games=_delete_orphans(orphans),
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


def _delete_sessions(expired: QuerySet[Session]) -> int:
    """Delete expired sessions, and the copies the session cache holds of them: `cached_db`
    trusts a cached copy without looking at its expiry (the cache's own timeout is meant to drop
    it, and a clock set back or a session written with a longer age would keep it), so a copy
    left behind would keep a forgotten session alive for the player and for the orphans below."""
    store = _session_store()
    prefix = getattr(store, "cache_key_prefix", None)
    total = 0
    while True:
        batch = list(expired.values_list("session_key", flat=True)[:BATCH])
        if not batch:
            return total
        if prefix is not None:
            caches[settings.SESSION_CACHE_ALIAS].delete_many([prefix + key for key in batch])
        _, by_model = Session.objects.filter(session_key__in=batch).delete()
        total += by_model.get(Session._meta.label, 0)


def _session_store() -> SessionBase:
    store: SessionBase = import_module(settings.SESSION_ENGINE).SessionStore()
    return store


def _session_cache_down() -> bool:
    """Whether the sessions' cache failed lately (lucie/cache.py remembers an outage): its
    answers would then come from this process's memory, where no session lives."""
    if "cache" not in settings.SESSION_ENGINE:
        return False
    is_down = getattr(caches[settings.SESSION_CACHE_ALIAS], "is_down", None)
    return bool(is_down and is_down())


def _delete_orphans(orphans: QuerySet[Game]) -> int:
    """Delete the games `orphans` names whose session the session engine does not hold either
    (one lookup per session, in batches): a session that lives in the cache alone is alive."""
    store = _session_store()
    total = 0
    after = 0
    while True:
        batch = list(
            orphans.filter(pk__gt=after).order_by("pk").values_list("pk", "session_key")[:BATCH]
        )
        if not batch:
            return total
        after = batch[-1][0]
        alive = {key for key in {key for _, key in batch} if store.exists(key)}
        if _session_cache_down():
            logger.warning("prune: the session cache cannot be read; games in progress kept")
            return total
        gone = [pk for pk, key in batch if key not in alive]
        if gone:
            _, by_model = Game.objects.filter(pk__in=gone).delete()
            total += by_model.get(Game._meta.label, 0)
