"""Many rows in one INSERT, for the write path, where the ORM's per-row objects cost more
than the database's work. Each statement's text is built once per table, columns and number
of rows.

(Sending one array per column through ``unnest`` would make one statement for every batch
size, but psycopg builds arrays in Python: measured, it cost twice the client time.)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model


@functools.lru_cache(maxsize=512)
def _statement(model: type[Model], names: tuple[str, ...], count: int) -> str:
    ops = connection.ops
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    columns = ", ".join(ops.quote_name(by_attname[name].column) for name in names)
    row = "(" + ", ".join(["%s"] * len(names)) + ")"
    return (
        f"INSERT INTO {ops.quote_name(model._meta.db_table)} ({columns}) "
        f"VALUES {', '.join([row] * count)}"
    )


def insert(
    cursor: Any,
    model: type[Model],
    names: Sequence[str],
    rows: Sequence[Sequence[Any]],
    *,
    suffix: str = "",
) -> None:
    """INSERT ``rows`` (values in the order of ``names``, already adapted for the database)
    into ``model``'s table; ``suffix`` follows the rows (ON CONFLICT ..., RETURNING ...)."""
    sql = _statement(model, tuple(names), len(rows))
    cursor.execute(f"{sql} {suffix}", [value for values in rows for value in values])


def any_of(column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
    """``column`` is one of ``values``: SQL and its parameters (one array on PostgreSQL, so
    the statement's text is the same whatever their number)."""
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s)", [list(values)]
    return f"{column} IN ({', '.join(['%s'] * len(values))})", list(values)
