"""Plain SQL for the write path, where the ORM's per-row objects and per-query work cost
more than the database's.

``insert`` writes many rows in one statement. On PostgreSQL the rows travel as one JSON
document that ``json_populate_recordset`` turns back into rows of the table, so the
statement's text is the same whatever the number of rows and it has a single parameter
(psycopg re-parses the text of any statement with more than 50 parameters on every call,
and the server would parse and plan each batch size anew). Elsewhere, one VALUES list.

``run`` executes the write path's fixed statements. On PostgreSQL they are kept prepared
on the connection: the server parses and plans each once per connection instead of on
every request (planning the table's read alone cost more than running it). Turned off
with LEDGER_PREPARED_STATEMENTS=0, for a connection pooler that cannot keep prepared
statements (PgBouncer before 1.21 in transaction mode).

(Sending one array per column through ``unnest`` was measured too: psycopg builds arrays
in Python, at twice the client time.)
"""

from __future__ import annotations

import datetime
import decimal
import functools
import json
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Model

try:
    from psycopg.pq import ExecStatus

    _TUPLES_OK = ExecStatus.TUPLES_OK
except ImportError:  # SQLite only
    _TUPLES_OK = None


def run(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Execute ``sql`` in the current transaction and return its rows (none when it
    returns nothing). Errors are Django's database errors, as from any cursor."""
    # The connection itself, not the thread-local proxy: each attribute read through the
    # proxy costs a context-variable look-up, and this runs ten times per result.
    db = connections[DEFAULT_DB_ALIAS]
    if (
        db.vendor != "postgresql"
        or not getattr(settings, "LEDGER_PREPARED_STATEMENTS", True)
        or db.execute_wrappers
        or db.queries_logged
    ):
        # Django's cursor, when something watches the queries (tests, debugging).
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall() if cursor.description is not None else []
    # What Django's cursor does before each statement, without its per-call wrappers.
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    db.validate_no_broken_transaction()
    with db.wrap_database_errors:
        cursor = _cursor(db)
        cursor.execute(sql, params, prepare=True)
        result = cursor.pgresult
        if result is None or result.status != _TUPLES_OK:
            return []
        return cursor.fetchall()


def _cursor(db: Any) -> Any:
    """One server-side binding cursor per connection (Django's own cursors bind on the
    client and cannot prepare), kept for the connection's life."""
    import psycopg

    cursor = getattr(db, "_ledger_cursor", None)
    if cursor is None or cursor.closed or cursor.connection is not db.connection:
        cursor = db._ledger_cursor = psycopg.Cursor(db.connection)
    return cursor


@functools.lru_cache(maxsize=512)
def _values(model: type[Model], names: tuple[str, ...], count: int) -> str:
    ops = connection.ops
    columns = ", ".join(ops.quote_name(c) for c in _columns(model, names))
    row = "(" + ", ".join(["%s"] * len(names)) + ")"
    return (
        f"INSERT INTO {ops.quote_name(model._meta.db_table)} ({columns}) "
        f"VALUES {', '.join([row] * count)}"
    )


@functools.lru_cache(maxsize=128)
def _from_json(model: type[Model], names: tuple[str, ...]) -> str:
    ops = connection.ops
    table = ops.quote_name(model._meta.db_table)
    columns = ", ".join(ops.quote_name(c) for c in _columns(model, names))
    # WHERE true: an INSERT ... SELECT followed by ON CONFLICT needs it to parse.
    return (
        f"INSERT INTO {table} ({columns}) SELECT {columns} "
        f"FROM json_populate_recordset(NULL::{table}, %s::json) WHERE true"
    )


@functools.lru_cache(maxsize=128)
def _columns(model: type[Model], names: tuple[str, ...]) -> tuple[str, ...]:
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    return tuple(by_attname[name].column for name in names)


@functools.lru_cache(maxsize=128)
def _fields(model: type[Model], names: tuple[str, ...]) -> tuple[Any, ...]:
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    return tuple(by_attname[name] for name in names)


def _plain(value: Any) -> Any:
    if isinstance(value, decimal.Decimal):
        return str(value)
    if isinstance(value, datetime.datetime | datetime.date):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} has no JSON form for a row")


def insert(
    model: type[Model],
    names: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    suffix: str = "",
) -> list[tuple[Any, ...]]:
    """INSERT ``rows`` (the fields' Python values, in the order of ``names``) into
    ``model``'s table; ``suffix`` follows the rows (ON CONFLICT ..., RETURNING ...). Rows
    come back as RETURNING gives them, in the order of ``rows``."""
    names = tuple(names)
    if connection.vendor == "postgresql":
        columns = _columns(model, names)
        document = json.dumps(
            [dict(zip(columns, values, strict=True)) for values in rows], default=_plain
        )
        return run(f"{_from_json(model, names)} {suffix}", [document])
    fields = _fields(model, names)
    params = [
        f.get_db_prep_save(value, connection)
        for values in rows
        for f, value in zip(fields, values, strict=True)
    ]
    return run(f"{_values(model, names, len(rows))} {suffix}", params)
