"""Sessions that must be real: a cookie is only a session if the database holds it, alive.

Django's database sessions check the cookie when the session's data is first read; until then
`session.session_key` is whatever string the cookie held. Code that only needs the key (to find
the player's games) would then trust a string the client chose, or a deleted or expired session's
key. This store checks first: reading `session_key` loads the session (one query, once), and a
key the database does not hold alive reads as None, so the request is a stranger's and gets a
fresh session when it stores something (as Django's `cycle_key` would give it).

A key that is not of the form Django issues (lowercase letters and digits, 32 of them; up to 40
fit the table) is unknown from the start: never looked up, never a 500.


A session lives SESSION_COOKIE_AGE (400 days, the longest a browser keeps a cookie) past the
player's last visit: a page that reads a session whose expiry was last pushed back more than
RENEW_EVERY ago marks it changed, so Django's SessionMiddleware writes its new expiry and sends
the cookie again with the full age (lucie.middleware.SessionRenewalMiddleware). That is one write
a day at most per player, never one per request.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import db
from django.contrib.sessions.backends.base import SessionBase, UpdateError
from django.contrib.sessions.models import Session
from django.db import DatabaseError, connections, router
from django.db.models.expressions import Col
from django.utils import timezone

from lucie.db import Converter, convert, hot_cursor, read_converters

RENEW_EVERY = dt.timedelta(days=1)

KEY_FORM = re.compile(r"[a-z0-9]{8,40}")


class SessionStore(db.SessionStore):
    _checking = False
    # When the row read for this request expires (None: not read, or no live row).
    loaded_expiry: dt.datetime | None = None

    def _validate_session_key(self, key: Any) -> bool:
        return isinstance(key, str) and KEY_FORM.fullmatch(key) is not None

    def _live_session_key(self) -> str | None:
        key: str | None = self._get_session_key()
        if key is not None and not self._checking and not hasattr(self, "_session_cache"):
            # Loading reads the key again (through this property): answer it plainly then.
            self._checking = True
            try:
                self.load_once()
            finally:
                self._checking = False
            key = self._get_session_key()
        return key

    session_key = property(_live_session_key)

    def load_once(self) -> None:
        """Read the session's data now, as the first access to it would."""
        self.get("")

    def _get_session_from_db(self) -> Session | None:
        """The live row of this key, as Django's database sessions read it (a key that is gone
        or expired reads as none, and the key is dropped), with one plain statement: the ORM
        built and compiled its query afresh on each request that read a session, about a fifth
        of a cached "Show a win"."""
        key = self._get_session_key()
        row = _live_row(key) if key is not None else None
        if row is None:
            self._session_key = None
        self.loaded_expiry = row.expire_date if row is not None else None
        return row

    def due_for_renewal(self, now: dt.datetime | None = None) -> bool:
        """Whether this request read a live session whose expiry was last pushed back more than
        RENEW_EVERY ago (its expiry is nearer than the full age less a day)."""
        if self.loaded_expiry is None:
            return False
        now = now or timezone.now()
        age = dt.timedelta(seconds=settings.SESSION_COOKIE_AGE)
        return self.loaded_expiry < now + age - RENEW_EVERY

    def save(self, must_create: bool = False) -> None:
        """Django reads any database error while updating a session as "the session was deleted
        meanwhile" (UpdateError, which its middleware answers with a 400). Only the forced
        update's own plain DatabaseError means that; the database refusing the write (a full
        disk, a read-only database: an OperationalError, an InternalError...) goes on as itself,
        and handler500 (game.refusal_pages.server_error) answers it with "could not be saved,
        try again" (503)."""
        try:
            super().save(must_create)
        except UpdateError as error:
            cause = error.__context__
            if isinstance(cause, DatabaseError) and type(cause) is not DatabaseError:
                raise cause from None
            raise


def claimed_key(session: SessionBase) -> str | None:
    """The key the cookie names, of the form we issue, without reading the session (once it has
    been read, its checked key): only for a query that checks itself that the session is alive
    (store.session_games does), which saves the request a query."""
    key: str | None = session._get_session_key()
    return key


# The statement that reads a live session, and its expiry's converters, built once per process
# and database alias.
_READ: dict[str, tuple[str, Col, tuple[Converter, ...]]] = {}


def _live_row(key: str) -> Session | None:
    """The session row of `key` whose expiry is still ahead, or None."""
    connection = connections[router.db_for_read(Session)]
    statement = _READ.get(connection.alias)
    if statement is None:
        quote = connection.ops.quote_name
        table = quote(Session._meta.db_table)
        sql = (
            f"SELECT {quote('session_data')}, {quote('expire_date')} FROM {table} "
            f"WHERE {quote('session_key')} = %s AND {quote('expire_date')} > %s"
        )
        field = Session._meta.get_field("expire_date")
        statement = _READ[connection.alias] = (sql, *read_converters(connection, field))
    sql, expression, converters = statement
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with hot_cursor(connection) as cursor:
        cursor.execute(sql, [key, now])
        found = cursor.fetchone()
    if found is None:
        return None
    data, expiry = found
    expiry = convert(expiry, expression, converters, connection)
    return Session(session_key=key, session_data=data, expire_date=expiry)
