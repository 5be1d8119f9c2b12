"""Projections of the journal: standings, per-round totals ("as of round N"), and their
rebuilds. They are written with the journal lines that move them (ledger/clubs/journal/journal.py)
and can always be rebuilt from the journal alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce

from ledger.clubs import people
from ledger.clubs.models import (
    Competition,
    Entry,
    Penalty,
    Result,
    RoundTotal,
    Standing,
    Table,
)
from ledger.clubs.outcomes import DRAW, LOSS, WIN
from ledger.clubs.projections.totals import (
    Totals,
    journal_totals,
    journal_totals_of_penalty,
    journal_totals_of_table,
    round_totals_from_journal,
)
from ledger.clubs.storage import rows as rows_module


def round_keys(results: Sequence[Result]) -> list[int]:
    """The round whose per-round totals each result's lines join: its table's
    ``totals_round`` (where that table's lines are counted until a read moves them), from
    the tables the write loaded when they carry it, otherwise one query for all."""
    keys: list[int | None] = []
    missing: set[int] = set()
    for result in results:
        table = result.table if Result.table.is_cached(result) else None
        if table is not None and "totals_round" in table.__dict__:
            keys.append(table.totals_round)
        else:
            keys.append(None)
            missing.add(result.table_id)
    if missing:
        found = dict(Table.objects.filter(pk__in=missing).values_list("pk", "totals_round"))
        return [
            k if k is not None else found.get(r.table_id) or 0
            for k, r in zip(keys, results, strict=True)
        ]
    return [k or 0 for k in keys]


def reconcile_moved_tables(competition_id: int) -> None:
    """Tables moved to another round (or out of a deleted one) since their lines were
    counted: their totals move to the round they are in now. One indexed read when none
    moved (the usual case); each moved table is locked, so two readers move it once."""
    moved = rows_module.run(
        f"SELECT id FROM {Table._meta.db_table} WHERE competition_id = %s "
        "AND COALESCE(round_id, 0) <> totals_round",
        [competition_id],
    )
    if not moved:
        return
    with transaction.atomic():
        # Tables with no journal lines (new ones, say) only take their round.
        Table.objects.filter(pk__in=[pk for (pk,) in moved]).exclude(
            pk__in=Entry.objects.filter(table_id__in=[pk for (pk,) in moved]).values("table_id")
        ).update(totals_round=Coalesce(F("round_id"), Value(0)))
        moved = rows_module.run(
            f"SELECT id FROM {Table._meta.db_table} WHERE competition_id = %s "
            "AND COALESCE(round_id, 0) <> totals_round",
            [competition_id],
        )
        for (table_id,) in moved:
            row = (
                Table.objects.select_for_update()
                .filter(pk=table_id)
                .values_list("round_id", "totals_round")
                .first()
            )
            if row is None or (row[0] or 0) == row[1]:
                continue
            move_table_totals(table_id, row[1], row[0] or 0)
            Table.objects.filter(pk=table_id).update(totals_round=row[0] or 0)


def project(
    changes: Sequence[tuple[int, Sequence[tuple[int, int, Decimal]], str, Sequence[str], int]],
    now: Any,
) -> None:
    """Fold journal lines into the standings rows and the per-round totals with one upsert
    each, whatever the number of results and seats: new rows are inserted, existing ones
    add the change. ``changes`` holds (competition id, lines as (seat, player id, points),
    their kind, the outcome of each seat, the round's id the lines count in or 0)."""
    delta: dict[tuple[int, int], list[Any]] = {}
    by_round: dict[tuple[int, int, int], list[Any]] = {}
    # Each line counts for the person its player now is (a merged duplicate's, for the
    # one they were merged into: ledger/clubs/people.py).
    person = people.canonical_ids({p for _c, lines, _k, _o, _r in changes for _s, p, _x in lines})
    for competition_id, lines, kind, seat_outcomes, round_key in changes:
        # A penalty's line moves the points only.
        step = 0 if kind in Entry.POINTS_ONLY else 1 if kind == Entry.Kind.CREDIT else -1
        for seat, player_id, points in ((s, person[p], x) for s, p, x in lines):
            row = delta.setdefault((competition_id, player_id), [Decimal(0), 0, 0, 0, 0])
            per_round = by_round.setdefault(
                (competition_id, round_key, player_id), [Decimal(0), 0, 0, 0, 0]
            )
            for target in (row, per_round):
                target[0] += Decimal(points)
                target[1] += step
                if step and seat < len(seat_outcomes):
                    target[2 + (WIN, DRAW, LOSS).index(seat_outcomes[seat])] += step
    _project_rounds(by_round)
    if any(kind != Entry.Kind.CREDIT for _c, _l, kind, _o, _r in changes):
        # A correction updates some rows and upserts others: every row it touches is
        # locked first, in the order the upsert of any other write locks them.
        list(
            Standing.objects.select_for_update()
            .filter(competition_id__in={c for c, _p in delta}, player_id__in={p for _c, p in delta})
            .order_by("competition_id", "player_id")
            .values_list("pk", flat=True)
        )
    # Reversals only follow credits, so their rows exist: a plain update (a negative count
    # in an insert's values would trip the checks on the counters even when it never lands).
    for (competition_id, player_id), (points, played, wins, draws, losses) in sorted(delta.items()):
        if min(played, wins, draws, losses) < 0:
            Standing.objects.filter(competition_id=competition_id, player_id=player_id).update(
                points=F("points") + points,
                played=F("played") + played,
                wins=F("wins") + wins,
                draws=F("draws") + draws,
                losses=F("losses") + losses,
                updated_at=now,
            )
    credits = sorted((k, d) for k, d in delta.items() if min(d[1:]) >= 0)
    if not credits:
        return
    table = connection.ops.quote_name(Standing._meta.db_table)
    rows = [
        [competition_id, player_id, points, played, wins, draws, losses, now]
        for (competition_id, player_id), (points, played, wins, draws, losses) in credits
    ]
    # The same statement on PostgreSQL and SQLite (3.24 and later).
    rows_module.insert(
        Standing,
        (
            "competition_id",
            "player_id",
            "points",
            "played",
            "wins",
            "draws",
            "losses",
            "updated_at",
        ),
        rows,
        suffix=(
            "ON CONFLICT (competition_id, player_id) DO UPDATE SET "
            f"points = {table}.points + excluded.points, "
            f"played = {table}.played + excluded.played, "
            f"wins = {table}.wins + excluded.wins, "
            f"draws = {table}.draws + excluded.draws, "
            f"losses = {table}.losses + excluded.losses, "
            "updated_at = excluded.updated_at"
        ),
        wait=False,
    )


ROUND_TOTAL_COLUMNS = (
    "competition_id",
    "round_key",
    "player_id",
    "points",
    "played",
    "wins",
    "draws",
    "losses",
)


def _project_rounds(by_round: dict[tuple[int, int, int], list[Any]], *, wait: bool = False) -> None:
    """Add (competition, round key, player) -> [points, played, wins, draws, losses] to the
    per-round totals with one upsert. Their rows are locked after the standings rows of
    the same players (taken first by every write), so writes never wait in a circle."""
    if not by_round:
        return
    table = connection.ops.quote_name(RoundTotal._meta.db_table)
    rows_module.insert(
        RoundTotal,
        ROUND_TOTAL_COLUMNS,
        [[*key, *values] for key, values in sorted(by_round.items())],
        suffix=(
            "ON CONFLICT (competition_id, round_key, player_id) DO UPDATE SET "
            f"points = {table}.points + excluded.points, "
            f"played = {table}.played + excluded.played, "
            f"wins = {table}.wins + excluded.wins, "
            f"draws = {table}.draws + excluded.draws, "
            f"losses = {table}.losses + excluded.losses"
        ),
        wait=wait,
    )


def rebuild_round_totals(
    competition: Competition, totals: dict[tuple[int, int], Totals] | None = None
) -> None:
    """Recompute a competition's per-round totals from its journal (after a restore, or
    when a round is deleted and its tables fall out of every round). ``totals``: the
    totals already counted from the journal in the same transaction (an import counts them
    as it proves the journal it wrote), instead of reading it again."""
    if totals is None:
        totals = round_totals_from_journal(competition)
    with transaction.atomic():
        Table.objects.filter(competition=competition).update(
            totals_round=Coalesce(F("round_id"), Value(0))
        )
        RoundTotal.objects.filter(competition=competition).delete()
        RoundTotal.objects.bulk_create(
            [
                RoundTotal(
                    competition=competition,
                    round_key=round_key,
                    player_id=player_id,
                    points=t.points,
                    played=t.played,
                    wins=t.wins,
                    draws=t.draws,
                    losses=t.losses,
                )
                for (round_key, player_id), t in sorted(totals.items())
            ],
            batch_size=5000,
        )


def move_table_totals(table_id: int, old_key: int, new_key: int) -> None:
    """A table moved from one round to another (keys: round ids, 0 for none): its journal
    lines' totals leave the old round's rows and join the new one's. Called as the table's
    round changes, in the same transaction."""
    competition_id = (
        Table.objects.filter(pk=table_id).values_list("competition_id", flat=True).first()
    )
    if competition_id is not None and old_key != new_key:
        _move_totals(competition_id, journal_totals_of_table(table_id), old_key, new_key)


def move_penalty_totals(penalty_id: int, old_key: int, new_key: int) -> None:
    """As ``move_table_totals``, for a penalty's lines (its round deleted)."""
    competition_id = (
        Penalty.objects.filter(pk=penalty_id).values_list("competition_id", flat=True).first()
    )
    if competition_id is not None and old_key != new_key:
        _move_totals(competition_id, journal_totals_of_penalty(penalty_id), old_key, new_key)


def _move_totals(competition_id: int, totals: dict[int, Any], old_key: int, new_key: int) -> None:
    if not totals:
        return
    list(
        Standing.objects.select_for_update()
        .filter(competition_id=competition_id, player_id__in=totals)
        .order_by("competition_id", "player_id")
        .values_list("pk", flat=True)
    )
    change: dict[tuple[int, int, int], list[Any]] = {}
    for player_id, t in totals.items():
        values = [t.points, t.played, t.wins, t.draws, t.losses]
        change[(competition_id, old_key, player_id)] = [-v for v in values]
        change[(competition_id, new_key, player_id)] = values
    _project_rounds(change, wait=True)


def rebuild_standings(competition: Competition) -> None:
    """Recompute a competition's standings and per-round totals from its journal (after a
    restore, say)."""
    with transaction.atomic():
        Competition.objects.select_for_update().get(pk=competition.pk)
        rebuild_round_totals(competition)
        Standing.objects.filter(competition=competition).delete()
        Standing.objects.bulk_create(
            [
                Standing(
                    competition=competition,
                    player_id=player_id,
                    points=t.points,
                    played=t.played,
                    wins=t.wins,
                    draws=t.draws,
                    losses=t.losses,
                )
                for player_id, t in journal_totals(competition).items()
            ]
        )
