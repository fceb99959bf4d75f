"""Sessions that must be real: a cookie is only a session if the database holds it, alive.

Django's sessions check the cookie when the session's data is first read; until then
`session.session_key` is whatever string the cookie held. Code that only needs the key (to find
the player's games) would then trust a string the client chose, or a deleted or expired session's
key. This store checks first: reading `session_key` loads the session (from the cache, else one
query), and a key that is not held alive reads as None, so the request is a stranger's and gets a
fresh session when it stores something.

A key that is not of the form Django issues (lowercase letters and digits, 32 of them; up to 40
fit the table) is unknown from the start: never looked up, never a 500.

Django's `cached_db` engine underneath: every write goes to the database, and a read is served
from the cache (Redis, shared by every server) when it holds the session, else from the
database. A cache that fails is skipped (Django's own fallback): the database answers.
"""

from __future__ import annotations

import re
from typing import Any

from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.base import UpdateError
from django.db import DatabaseError

KEY_FORM = re.compile(r"[a-z0-9]{8,40}")


class SessionStore(cached_db.SessionStore):
    _checking = False

    def _validate_session_key(self, key: Any) -> bool:
        return isinstance(key, str) and KEY_FORM.fullmatch(key) is not None

    def _live_session_key(self) -> str | None:
        key: str | None = self._get_session_key()
        if key is not None and not self._checking and not hasattr(self, "_session_cache"):
            # Loading reads the key again (through this property): answer it plainly then.
            self._checking = True
            try:
                self.get("")
            finally:
                self._checking = False
            key = self._get_session_key()
        return key

    session_key = property(_live_session_key)

    def load(self) -> dict[str, Any]:
        # Django's first read of the data asks for the key before it loads, and that check
        # (above) has just loaded the session: reading it again would be a second query.
        if hasattr(self, "_session_cache"):
            kept: dict[str, Any] = self._session_cache
            return kept
        data: dict[str, Any] = super().load()
        return data

    def save(self, must_create: bool = False) -> None:
        """Django reads any database error while updating a session as "the session was deleted
        meanwhile" (UpdateError, which its middleware answers with a 400). Only the forced
        update's own plain DatabaseError means that; the database refusing the write (a full
        disk, a read-only database: an OperationalError, an InternalError...) goes on as itself,
        and handler500 (game.ops.refusal_pages.server_error) answers it with "could not be saved,
        try again" (503)."""
        try:
            super().save(must_create)
        except UpdateError as error:
            cause = error.__context__
            if isinstance(cause, DatabaseError) and type(cause) is not DatabaseError:
                raise cause from None
            raise
