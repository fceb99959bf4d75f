"""The two statements of a change's write path as plain SQL: the game read under its row lock
(with the check that its session is alive, for a site game), and the UPDATE of the columns a
save changed.

The ORM built both afresh on every request (the locked SELECT with its EXISTS compiled, the row
turned into a model, then `save(update_fields=...)`), inside the write transaction that every
SQLite writer queues on: about a third of a move's CPU (issue 21). Here each statement's text is
built once per process and database (the UPDATE once per set of changed columns, and a game has
few such sets), and run through a cursor Django wraps (on PostgreSQL one whose statements the
server prepares: lucie/postgresql/base.py), so execute wrappers, query capture and
the debug log see them as they saw the ORM's. The row read becomes a real `Game` through
`Game.from_db`, and a write sends `pre_save` and `post_save` as `save()` does, so `post_init`'s
and `post_save`'s receivers (the metrics, game/counters.py; the daily figures and tally,
game/daily/figures.py) see every change as before.

The views name a game with a `Lookup` (game.board.store's session_games, token_games) rather
than a QuerySet, so no request builds the ORM's form of the lookup either (its filter with the
EXISTS alone cost about 0.3 ms); a page reads its game with the same statement, unlocked.

SQLite has no `FOR UPDATE`: the transaction is `BEGIN IMMEDIATE` (lucie/settings.py), which holds
the database's one write lock from its start. PostgreSQL locks the row.

A change is first tried without either (game.board.store.change_game): the row read plainly, the
UPDATE guarded by the columns every write changes (`update(..., guard=...)`, which says whether it
wrote), and only a change that lost a race to another write is done again under the lock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import Field
from django.db.models.expressions import Col
from django.utils import timezone

from lucie.db import Converter, convert, hot_cursor, read_converters

if TYPE_CHECKING:
    from django.db.backends.base.base import BaseDatabaseWrapper
    from django.db.models import Model

# Every game statement goes to the database that transaction.atomic() opens by default.
USING = DEFAULT_DB_ALIAS


@dataclass(frozen=True, slots=True)
class Lookup:
    """Which game a request names: "session" (game id, session key; the session must be alive),
    "token" (an embed game's token: a game with no session, not an imported one), or "none"
    (no session, a malformed token: nothing, without asking the database)."""

    kind: str
    params: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class _Read:
    sql: str
    attnames: tuple[str, ...]
    # (column index, the column as an expression, the backend's and the field's converters)
    converters: tuple[tuple[int, Col, tuple[Converter, ...]], ...]


@dataclass(frozen=True, slots=True)
class _Write:
    sql: str
    fields: tuple[Field[Any, Any], ...]
    # The columns a guarded write expects unchanged, after the primary key in its WHERE.
    guards: tuple[Field[Any, Any], ...] = ()


# Built once per process and database alias; a database's converters depend on its settings
# alone (its time zone), which every connection of the alias shares.
_READS: dict[tuple[str, str, str, bool], _Read] = {}
_WRITES: dict[tuple[str, str, tuple[str, ...], tuple[str, ...]], _Write] = {}


def _read_statement(
    connection: BaseDatabaseWrapper, model: type[Model], kind: str, *, lock: bool
) -> _Read:
    key = (connection.alias, model._meta.label, kind, lock)
    found = _READS.get(key)
    if found is not None:
        return found
    from django.contrib.sessions.models import Session

    quote = connection.ops.quote_name
    meta = model._meta
    table = quote(meta.db_table)

    def column(name: str) -> str:
        return f"{table}.{quote(str(meta.get_field(name).column))}"  # type: ignore[union-attr]

    fields = meta.concrete_fields
    selected = ", ".join(f"{table}.{quote(str(field.column))}" for field in fields)
    if kind == "session":
        sessions = quote(Session._meta.db_table)
        where = (
            f"{column(meta.pk.name)} = %s AND {column('session_key')} = %s AND EXISTS ("
            f"SELECT 1 FROM {sessions} WHERE {sessions}.{quote('session_key')} = "
            f"{column('session_key')} AND {sessions}.{quote('expire_date')} > %s)"
        )
    elif kind == "token":
        where = (
            f"{column('token')} = %s AND {column('session_key')} = %s AND {column('imported')} = %s"
        )
    else:
        raise ValueError(f"no such lookup: {kind}")
    locking = " FOR UPDATE" if lock and connection.features.has_select_for_update else ""
    converters = []
    for index, field in enumerate(fields):
        expression, found_converters = read_converters(connection, field)
        if found_converters:
            converters.append((index, expression, found_converters))
    statement = _Read(
        sql=f"SELECT {selected} FROM {table} WHERE {where}{locking}",
        attnames=tuple(field.attname for field in fields),
        converters=tuple(converters),
    )
    _READS[key] = statement
    return statement


def _params(connection: BaseDatabaseWrapper, lookup: Lookup) -> list[Any]:
    if lookup.kind == "session":
        game_id, session_key = lookup.params
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        return [int(game_id), session_key, now]
    (token,) = lookup.params
    return [token, "", False]


def read(model: type[Model], lookup: Lookup, *, lock: bool) -> Any:
    """The one game `lookup` names, or None; with `lock`, under its row lock (inside the
    caller's transaction)."""
    if lookup.kind == "none":
        return None
    connection = connections[USING]
    statement = _read_statement(connection, model, lookup.kind, lock=lock)
    with hot_cursor(connection) as db_cursor:
        db_cursor.execute(statement.sql, _params(connection, lookup))
        row = db_cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for index, expression, converters in statement.converters:
        values[index] = convert(values[index], expression, converters, connection)
    return model.from_db(USING, statement.attnames, values)


def _write_statement(
    connection: BaseDatabaseWrapper,
    model: type[Model],
    attnames: tuple[str, ...],
    guarded: tuple[str, ...],
) -> _Write:
    key = (connection.alias, model._meta.label, attnames, guarded)
    found = _WRITES.get(key)
    if found is not None:
        return found
    quote = connection.ops.quote_name
    meta = model._meta
    table = quote(meta.db_table)
    by_attname = {field.attname: field for field in meta.concrete_fields}
    fields = tuple(by_attname[attname] for attname in attnames)
    guards = tuple(by_attname[attname] for attname in guarded)
    assigned = ", ".join(f"{quote(str(field.column))} = %s" for field in fields)
    where = " AND ".join(f"{table}.{quote(str(field.column))} = %s" for field in (meta.pk, *guards))
    statement = _Write(
        sql=f"UPDATE {table} SET {assigned} WHERE {where}", fields=fields, guards=guards
    )
    _WRITES[key] = statement
    return statement


def update(
    instance: Model, attnames: Sequence[str], guard: Mapping[str, Any] | None = None
) -> bool:
    """Write `attnames` of a stored row, as `save(update_fields=...)` writes them (each value
    prepared by its field), without the signals: the caller sends them.

    With `guard` (attname: value), only if the row still holds those values: False when it does
    not (another write came first) and nothing was written. Without, a row that is gone is a
    DatabaseError, as for `save()`."""
    connection = connections[USING]
    guard = guard or {}
    statement = _write_statement(connection, type(instance), tuple(attnames), tuple(guard))
    values = [
        field.get_db_prep_save(getattr(instance, field.attname), connection)
        for field in statement.fields
    ]
    expected = [
        field.get_db_prep_save(guard[field.attname], connection) for field in statement.guards
    ]
    with hot_cursor(connection) as db_cursor:
        db_cursor.execute(statement.sql, [*values, instance.pk, *expected])
        written = bool(db_cursor.rowcount > 0)
    if not written and not guard:
        raise DatabaseError("Save with update_fields did not affect any rows.")
    return written


_INCREMENTS: dict[tuple[str, str, str], str] = {}


def increment(model: type[Model], pk: int, attname: str) -> None:
    """Add one to a stored row's counter column in one statement (no read, no row lock): a
    change saving meanwhile writes only the columns it changed, so neither loses the other's."""
    connection = connections[USING]
    key = (connection.alias, model._meta.label, attname)
    sql = _INCREMENTS.get(key)
    if sql is None:
        quote = connection.ops.quote_name
        meta = model._meta
        field = next(field for field in meta.concrete_fields if field.attname == attname)
        column = quote(str(field.column))
        table = quote(meta.db_table)
        pk_column = quote(str(meta.pk.column))
        sql = _INCREMENTS[key] = (
            f"UPDATE {table} SET {column} = {column} + 1 WHERE {pk_column} = %s"
        )
    with hot_cursor(connection) as db_cursor:
        db_cursor.execute(sql, [pk])
