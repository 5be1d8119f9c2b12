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

``pipeline`` sends a write's statements in a few round trips instead of one each: inside
it, statements run with ``wait=False`` go out without waiting for their answer (an upsert
whose rows nobody reads), and ``later`` sends one whose rows are read after the next answer
that is waited for. The server still runs them in order, in the same transaction, and an
error in any of them is raised no later than the pipeline's end. Elsewhere (SQLite, or
something watching the queries) every statement simply runs at once.

``atomic`` is a transaction whose statements go out in a pipeline and whose COMMIT travels
with the last of them. A statement's ``first`` are writes whose answers nobody reads that
travel inside it, as WITH queries (``insertion`` makes one, ``flush`` runs a list of them):
one statement, one message to the server, instead of several.

(Sending one array per column through ``unnest`` was measured too: psycopg builds arrays
in Python, at twice the client time.)
"""

from __future__ import annotations

import contextlib
import datetime
import decimal
import functools
import json
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import orjson
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, transaction
from django.db.models import Model

try:
    from psycopg.pq import ExecStatus

    _TUPLES_OK: ExecStatus | None = ExecStatus.TUPLES_OK
except ImportError:  # SQLite only
    _TUPLES_OK = None


def _direct(db: Any) -> bool:
    """Whether statements go straight to psycopg, prepared (else through Django's cursor,
    when something watches the queries: tests, debugging)."""
    return (
        db.vendor == "postgresql"
        and getattr(settings, "LEDGER_PREPARED_STATEMENTS", True)
        and not db.execute_wrappers
        and not db.queries_logged
    )


def _ready(db: Any) -> None:
    # What Django's cursor does before each statement, without its per-call wrappers.
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    db.validate_no_broken_transaction()


def _rows(db: Any, cursor: Any, own: bool = False) -> list[tuple[Any, ...]]:
    """The rows of the statement just run on ``cursor``. ``own``: the cursor ran no other
    statement, so an answer already on it is this statement's and needs no round trip (a
    cursor shared by several statements may hold an earlier one's)."""
    pipe = _pipe(db)
    if pipe is not None and not (own and cursor.pgresult is not None):
        # Everything sent so far goes out; the answers up to this one come back.
        pipe.sync()
    result = cursor.pgresult
    if result is None or result.status != _TUPLES_OK:
        return []
    found: list[tuple[Any, ...]] = cursor.fetchall()
    return found


Statement = tuple[str, Sequence[Any]]


def _with(first: Sequence[Statement], sql: str, params: Sequence[Any]) -> Statement:
    """``sql`` with the statements of ``first`` (writes whose answers nobody reads): on
    PostgreSQL as data-modifying WITH queries of one statement, which all run to the end in
    the statement's snapshot, in an order that is the database's (in practice after
    ``sql``); elsewhere one by one before it. So they must take no lock that the
    transaction does not hold already, or the order of its locks would change."""
    if not first:
        return sql, params
    if connection.vendor != "postgresql":
        for earlier, values in first:
            run(earlier, values)
        return sql, params
    queries = ", ".join(f"w{n} AS ({earlier})" for n, (earlier, _v) in enumerate(first))
    return f"WITH {queries} {sql}", [v for _s, values in first for v in values] + list(params)


def run(
    sql: str,
    params: Sequence[Any] = (),
    *,
    wait: bool = True,
    first: Sequence[Statement] = (),
) -> list[tuple[Any, ...]]:
    """Execute ``sql`` in the current transaction and return its rows (none when it
    returns nothing). Errors are Django's database errors, as from any cursor. With
    ``wait=False``, inside a ``pipeline``, the statement is sent and its answer is not
    awaited: it returns no rows, and an error it meets is raised by a later statement or
    at the pipeline's end. ``first``: writes that travel with it (see ``_with``); none of
    them may write a row that ``sql`` writes too."""
    sql, params = _with(first, sql, params)
    # The connection itself, not the thread-local proxy: each attribute read through the
    # proxy costs a context-variable look-up, and this runs ten times per result.
    db = connections[DEFAULT_DB_ALIAS]
    if not _direct(db):
        with db.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall() if cursor.description is not None else []
    _ready(db)
    with db.wrap_database_errors:
        cursor = _cursor(db)
        cursor.execute(sql, params, prepare=True)
        if not wait and _pipe(db) is not None:
            return []
        return _rows(db, cursor)


def later(
    sql: str, params: Sequence[Any] = (), *, first: Sequence[Statement] = ()
) -> Callable[[], list[tuple[Any, ...]]]:
    """Send ``sql`` now and return a function that gives its rows. Inside a ``pipeline``
    the rows are read when asked for, after later statements have gone out; elsewhere the
    statement runs at once. ``first`` as for ``run``."""
    sql, params = _with(first, sql, params)
    db = connections[DEFAULT_DB_ALIAS]
    if not _direct(db) or _pipe(db) is None:
        found = run(sql, params)
        return lambda: found
    _ready(db)
    import psycopg

    with db.wrap_database_errors:
        cursor = psycopg.Cursor(db.connection)
        cursor.execute(sql, params, prepare=True)

    def rows() -> list[tuple[Any, ...]]:
        with db.wrap_database_errors:
            try:
                return _rows(db, cursor, own=True)
            finally:
                cursor.close()

    return rows


@contextlib.contextmanager
def pipeline() -> Iterator[None]:
    """Send the statements run inside together where the database allows it (see the
    module's note); the answers of all of them have arrived when it ends."""
    db: Any = connections[DEFAULT_DB_ALIAS]  # Any: it carries the pipeline (_pipe)
    if not _direct(db):
        yield
        return
    _ready(db)
    if _pipe(db) is not None:  # already inside one
        yield
        return
    with db.wrap_database_errors, db.connection.pipeline() as pipe:
        db._ledger_pipeline = (db.connection, pipe)
        try:
            yield
        finally:
            db._ledger_pipeline = None


@contextlib.contextmanager
def atomic() -> Iterator[None]:
    """``transaction.atomic()`` whose statements go out in a ``pipeline``. When it is the
    outermost transaction, its COMMIT goes out with its last statements, so that a write
    costs no round trip of its own for the commit (nor, as a pipeline opened inside a
    transaction would, one each for beginning it and for leaving it)."""
    db = connections[DEFAULT_DB_ALIAS]
    outermost = not db.in_atomic_block
    with transaction.atomic(), pipeline():
        yield
        if outermost and _pipe(db) is not None:
            # Django's own commit then finds the transaction over and sends nothing.
            with db.wrap_database_errors:
                db.connection.execute("COMMIT")


def _pipe(db: Any) -> Any:
    """The pipeline open on ``db``'s current connection, if any."""
    opened = getattr(db, "_ledger_pipeline", None)
    if opened is None or opened[0] is not db.connection:
        return None
    return opened[1]


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
    return tuple(cast(str, by_attname[name].column) for name in names)  # concrete: a column


@functools.lru_cache(maxsize=128)
def _fields(model: type[Model], names: tuple[str, ...]) -> tuple[Any, ...]:
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    return tuple(by_attname[name] for name in names)


def instance(model: type[Model], fields: Sequence[Any], values: Sequence[Any]) -> Any:
    """A model instance of ``fields`` read as a plain row (JSON decoded as the ORM decodes
    it); any other field is read from the database if something asks for it."""
    values = [
        f.from_db_value(v, None, connection) if hasattr(f, "from_db_value") else v
        for f, v in zip(fields, values, strict=True)
    ]
    return model.from_db(connection.alias, [f.attname for f in fields], values)


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
    wait: bool = True,
) -> list[tuple[Any, ...]]:
    """INSERT ``rows`` (the fields' Python values, in the order of ``names``) into
    ``model``'s table; ``suffix`` follows the rows (ON CONFLICT ..., RETURNING ...). Rows
    come back as RETURNING gives them, in the order of ``rows``; ``wait`` as for ``run``."""
    return run(*_insert(model, tuple(names), rows, suffix), wait=wait)


def flush(statements: Sequence[Statement], *, wait: bool = True) -> None:
    """Run writes whose answers nobody reads: on PostgreSQL as one statement (see
    ``_with``). ``wait`` as for ``run``."""
    if statements:
        *rest, (sql, params) = statements
        run(sql, params, wait=wait, first=rest)


def insertion(
    model: type[Model], names: Sequence[str], rows: Sequence[Sequence[Any]], *, suffix: str = ""
) -> Statement:
    """``insert``'s statement, not run: for another statement's ``first``."""
    return _insert(model, tuple(names), rows, suffix)


def insert_later(
    model: type[Model],
    names: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    suffix: str = "",
    first: Sequence[Statement] = (),
) -> Callable[[], list[tuple[Any, ...]]]:
    """``insert``, sent as ``later`` sends a statement: the returned function gives the
    rows of its RETURNING. ``first`` as for ``run``."""
    return later(*_insert(model, tuple(names), rows, suffix), first=first)


def _insert(
    model: type[Model], names: tuple[str, ...], rows: Sequence[Sequence[Any]], suffix: str
) -> tuple[str, list[Any]]:
    if connection.vendor == "postgresql":
        columns = _columns(model, names)
        objects = [dict(zip(columns, values, strict=True)) for values in rows]
        try:
            document = orjson.dumps(objects, default=_plain).decode()
        except TypeError:
            # An integer beyond 64 bits (a record may hold one): the standard library
            # writes it exactly.
            document = json.dumps(objects, default=_plain)
        return f"{_from_json(model, names)} {suffix}", [document]
    fields = _fields(model, names)
    params = [
        f.get_db_prep_save(value, connection)
        for values in rows
        for f, value in zip(fields, values, strict=True)
    ]
    return f"{_values(model, names, len(rows))} {suffix}", params
