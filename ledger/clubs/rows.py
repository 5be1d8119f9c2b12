"""Many rows in one statement, the same statement whatever their number.

On PostgreSQL the rows travel as one array per column and ``unnest`` turns them back into
rows, so a batch of one and a batch of eight send the same SQL, which the server prepares
once per connection; on SQLite they are a VALUES list. Used by the write path, where the
ORM's per-row objects cost more than the database's work.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model


def _columns(model: type[Model], names: Sequence[str]) -> list[Any]:
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    return [by_attname[name] for name in names]


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
    ops = connection.ops
    table = ops.quote_name(model._meta.db_table)
    fields = _columns(model, names)
    columns = ", ".join(ops.quote_name(f.column) for f in fields)
    if connection.vendor == "postgresql":
        arrays = ", ".join(f"%s::{f.db_type(connection)}[]" for f in fields)
        cursor.execute(
            f"INSERT INTO {table} ({columns}) SELECT * FROM unnest({arrays}) {suffix}",
            [list(column) for column in zip(*rows, strict=True)],
        )
        return
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    cursor.execute(
        f"INSERT INTO {table} ({columns}) VALUES {', '.join([row] * len(rows))} {suffix}",
        [value for values in rows for value in values],
    )


def any_of(column: str, values: Sequence[Any]) -> tuple[str, list[Any]]:
    """``column`` is one of ``values``: SQL and its parameters."""
    if connection.vendor == "postgresql":
        return f"{column} = ANY(%s)", [list(values)]
    return f"{column} IN ({', '.join(['%s'] * len(values))})", list(values)
