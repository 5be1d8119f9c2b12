"""The journal: a club's append-only, hash-chained lines, and the checks of its chain.

Every write of points goes through ``write``: it numbers and hashes the lines (in
PostgreSQL, ``ledger_append`` under the club's lock; elsewhere here), seals each line, and
folds them into the projections (ledger/clubs/projections.py) in the same transaction.
Nothing here knows what a result is for: ledger/clubs/services.py decides what to write.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

import orjson
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs import checkpoints, ratings, signing
from ledger.clubs import rows as rows_module
from ledger.clubs.models import (
    Club,
    Entry,
    Result,
    entry_hash,
)
from ledger.clubs.outcomes import outcomes
from ledger.clubs.projections import project, round_keys


def journal_entries(
    items: Sequence[tuple[Result, Sequence[tuple[int, int, Decimal]], str]],
) -> list[list[Entry]]:
    """Append the journal lines of several results in one write, as ``write`` does, and
    return them as entries (a data migration's reversals, say): in the order the write
    path takes its locks in, whatever the caller's order, so that no two writes wait for
    each other in a circle."""
    return [[line.as_entry() for line in lines] for lines in write(items, timezone.now())]


class Line:
    """A journal line just written: what an Entry holds, without a model instance's cost
    (the write path makes several per result)."""

    __slots__ = (
        "club_id",
        "competition_id",
        "created_at",
        "entered_by_id",
        "hash",
        "kind",
        "origin",
        "pk",
        "player_id",
        "points",
        "prev_hash",
        "result_id",
        "seal",
        "seat",
        "sequence",
        "source",
        "table_id",
    )
    club_id: int
    competition_id: int
    created_at: Any
    entered_by_id: int | None
    hash: str | None  # None until the chain is written (sequence, prev_hash, pk too)
    kind: str
    origin: str
    pk: int | None
    player_id: int
    points: Decimal
    prev_hash: str | None
    result_id: int | None
    seal: str
    seat: int
    sequence: int | None
    source: str
    table_id: int | None

    def __init__(self, **values: Any) -> None:
        for name, value in values.items():
            setattr(self, name, value)

    def as_entry(self) -> Entry:
        entry = Entry(**{name: getattr(self, name) for name in self.__slots__})
        entry._state.adding = False
        return entry


_ENTRY_COLUMNS = (
    "club_id",
    "competition_id",
    "result_id",
    "table_id",
    "player_id",
    "seat",
    "points",
    "kind",
    "source",
    "entered_by_id",
    "created_at",
    "sequence",
    "prev_hash",
    "hash",
    "seal",
    "origin",
)


def write(
    items: Sequence[tuple[Result, Sequence[tuple[int, int, Decimal]], str]],
    now: Any,
    rate: Sequence[tuple[Result, dict[int, int]]] = (),
    deferred: list[Callable[[], None]] | None = None,
    numbered: Callable[[], None] | None = None,
) -> list[list[Line]]:
    """Journal the lines of several results, in order, with everything derived from them;
    the lines of each result are returned. ``numbered`` as for ``_credit_many``: called
    once the first answer is back, before anything needs the results' ids.

    Every write takes its locks in one order: the standings rows, the ratings rows (each
    set sorted), and last its club's journal head, held until the commit so that the
    chain never forks. The standings only add up, in any order; a player's ratings change
    in journal order, because a later write for the same player waits for the row until
    this one commits. Writes to one club queue only for the few statements after the head.
    """
    keys = round_keys([result for result, _rows, _kind in items])
    project(
        [
            (result.competition_id, rows, kind, outcomes(result.scores, result.verdict), key)
            for (result, rows, kind), key in zip(items, keys, strict=True)
        ],
        now,
    )
    # The new ratings and their history travel with the journal lines: the ratings' rows
    # are this write's already, so they take no lock there.
    pending = ratings.rate_results(rate, now, ready=numbered) if rate else []
    if numbered is not None:
        numbered()
    return _chain(items, now, deferred, first=pending)


def _chain(
    items: Sequence[tuple[Result, Sequence[tuple[int, int, Decimal]], str]],
    now: Any,
    deferred: list[Callable[[], None]] | None = None,
    first: Sequence[rows_module.Statement] = (),
) -> list[list[Line]]:
    """Append the lines to each club's hash chain, under the lock on the club's row. On
    PostgreSQL the database numbers and hashes them (``ledger_append``, migration 0010) in
    one statement, so the head is held for no round trip to this process; elsewhere three
    statements per club do, whatever the number of lines. With ``deferred``, the lines'
    numbers, hashes and ids are read by the functions it is given, to be called once the
    write's statements have all gone out (in a pipeline); without, before this returns.
    ``first``: writes to other tables, whose locks the transaction holds already (their
    order with the lines is the database's), that travel with the first club's lines."""
    written: list[list[Line]] = [[] for _ in items]
    clubs = sorted({result.club_id for result, _rows, _kind in items})
    chain = _chain_in_database if connection.vendor == "postgresql" else _chain_here
    for club_id in clubs:
        mine: list[Line] = []
        for n, (result, rows, kind) in enumerate(items):
            if result.club_id != club_id:
                continue
            for seat, player_id, points in rows:
                line = Line(
                    pk=None,
                    club_id=club_id,
                    competition_id=result.competition_id,
                    result_id=result.pk,
                    table_id=result.table_id,
                    player_id=player_id,
                    seat=seat,
                    points=Decimal(points),
                    kind=kind,
                    source=result.source,
                    entered_by_id=result.entered_by_id,
                    created_at=now,
                    sequence=None,
                    prev_hash=None,
                    hash=None,
                    seal="",
                    origin="",
                )
                written[n].append(line)
                mine.append(line)
        if not mine:
            continue
        # Each line's seal binds its identity: this write (one random number for the
        # club's lines of this write, in the database one statement under the head), its
        # place in it and the write's length. The database numbers the lines later; a copy
        # of a line, wherever it goes, repeats its identity (docs/security.md).
        for line, origin in zip(mine, signing.new_origins(len(mine)), strict=True):
            line.origin = origin
            line.seal = signing.seal(
                club_id=club_id,
                competition_id=line.competition_id,
                result_id=line.result_id,
                table_id=line.table_id,
                seat=line.seat,
                player_id=line.player_id,
                points=line.points,
                kind=line.kind,
                origin=origin,
            )
        finish = chain(club_id, mine, now, first)
        first = ()
        if deferred is None:
            finish()
        else:
            # Once committed, the club's new length may call for a checkpoint (a write
            # inside a caller's transaction is counted by the next write, whose length
            # includes its lines).
            deferred += (finish, functools.partial(_written, club_id, mine[-1]))
    rows_module.flush(first, wait=False)
    return written


def _written(club_id: int, last: Line) -> None:
    assert last.sequence is not None, "written lines are numbered"
    checkpoints.written(club_id, last.sequence)


def _chain_in_database(
    club_id: int, lines: list[Line], now: Any, first: Sequence[rows_module.Statement]
) -> Callable[[], None]:
    document = orjson.dumps(
        [
            {
                "competition_id": line.competition_id,
                "result_id": line.result_id,
                "table_id": line.table_id,
                "player_id": line.player_id,
                "seat": line.seat,
                "points": str(line.points),
                "shown": f"{line.points:.2f}",
                "kind": line.kind,
                "source": line.source,
                "entered_by_id": line.entered_by_id,
                "seal": line.seal,
                "origin": line.origin,
            }
            for line in lines
        ]
    ).decode()
    appended = rows_module.later(
        "SELECT line_id, line_sequence, line_prev, line_hash FROM ledger_append(%s, %s, %s::json)",
        [club_id, now, document],
        first=first,
    )

    def finish() -> None:
        for line, (pk, sequence, prev_hash, digest) in zip(lines, appended(), strict=True):
            line.pk, line.sequence, line.prev_hash, line.hash = pk, sequence, prev_hash, digest

    return finish


def _chain_here(
    club_id: int, lines: list[Line], now: Any, first: Sequence[rows_module.Statement]
) -> Callable[[], None]:
    rows_module.flush(first)
    ops = connection.ops
    club_table = ops.quote_name(Club._meta.db_table)
    ((sequence, head),) = rows_module.run(
        f"SELECT journal_length, journal_head FROM {club_table} WHERE id = %s", [club_id]
    )
    params: list[list[Any]] = []
    for line in lines:
        sequence += 1
        digest = entry_hash(
            prev_hash=head,
            club_id=club_id,
            competition_id=line.competition_id,
            sequence=sequence,
            result_id=line.result_id,
            seat=line.seat,
            player_id=line.player_id,
            points=line.points,
            kind=line.kind,
        )
        line.sequence, line.prev_hash, line.hash = sequence, head, digest
        params.append([getattr(line, name) for name in _ENTRY_COLUMNS])
        head = digest
    ids = rows_module.insert_later(Entry, _ENTRY_COLUMNS, params, suffix="RETURNING id")
    rows_module.run(
        f"UPDATE {club_table} SET journal_length = %s, journal_head = %s WHERE id = %s",
        [sequence, head, club_id],
        wait=False,
    )

    def finish() -> None:
        for line, (pk,) in zip(lines, ids(), strict=True):
            line.pk = pk

    return finish


def verify_chain(club: Club) -> list[str]:
    """Every break in a club's hash chain, as sentences naming the first bad link; empty
    when the chain is intact."""
    problems = []
    head, expected = "", 0
    for entry in Entry.objects.filter(club=club).order_by("sequence").iterator():
        expected += 1
        if entry.sequence != expected:
            problems.append(
                _("%(club)s: entry %(n)d is missing") % {"club": club.slug, "n": expected}
            )
            expected = entry.sequence
        if entry.prev_hash != head:
            problems.append(
                _("%(club)s#%(n)d: the chain is broken before this entry")
                % {"club": club.slug, "n": entry.sequence}
            )
        if entry.compute_hash() != entry.hash:
            problems.append(
                _("%(club)s#%(n)d: altered after it was written")
                % {"club": club.slug, "n": entry.sequence}
            )
        head = entry.hash
    club.refresh_from_db(fields=["journal_length", "journal_head"])
    if (club.journal_length, club.journal_head) != (expected, head):
        problems.append(
            _("%(club)s: the journal's end does not match its recorded head") % {"club": club.slug}
        )
    return problems
