"""A venue numbers its new rows in a block of its own, so that they never take a number the
hub uses for another club's rows: the hub's copy of the club keeps the venue's numbers (the
journal's hashes name results, players and competitions by number)."""

from __future__ import annotations

from django.apps import apps
from django.db import connection, transaction

BLOCK = 10**9  # a club's block starts at its number times this


def first_number(club_id: int) -> int:
    return club_id * BLOCK


def number_from(first: int) -> int:
    """Have every table of the ledger number its next rows from ``first`` on (or after its
    last row, when that is further); the tables moved."""
    moved = 0
    with transaction.atomic(), connection.cursor() as cursor:
        for model in apps.get_models(include_auto_created=True):
            pk = model._meta.pk
            if (
                not model.__module__.startswith("ledger.")
                or pk is None
                or pk.get_internal_type() not in ("AutoField", "BigAutoField")
                # The clubs' own numbers stay the hub's: a club made at the venue after the
                # link is never synced, and a club numbered inside a block would start its
                # own block past what a 64-bit number holds.
                or model._meta.label == "clubs.Club"
            ):
                continue
            table, column = model._meta.db_table, str(pk.column)
            if connection.vendor == "sqlite":
                cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
                row = cursor.fetchone()
                if row is None:
                    cursor.execute(
                        "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)",
                        [table, first - 1],
                    )
                elif row[0] < first - 1:
                    cursor.execute(
                        "UPDATE sqlite_sequence SET seq = %s WHERE name = %s", [first - 1, table]
                    )
                else:
                    continue
            elif connection.vendor == "postgresql":
                quoted = connection.ops.quote_name(table)
                last = f"SELECT COALESCE(MAX({connection.ops.quote_name(column)}), 0) FROM {quoted}"
                cursor.execute(
                    "SELECT setval(pg_get_serial_sequence(%s, %s), "
                    f"GREATEST(%s::bigint, ({last})))",
                    [table, column, first - 1],
                )
            moved += 1
    return moved
