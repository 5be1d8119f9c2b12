"""The journal: a club's append-only, hash-chained lines, and the checks of its chain.

Every write of points goes through ``write``: under the club's lock on its journal head, it
numbers, hashes and seals the lines (the seal binds the line's place: its club, number and
previous hash), appends them (on PostgreSQL through ``ledger_append``, which numbers and
hashes them again and refuses lines sealed for another place), and folds them into the
projections (ledger/clubs/projections/projections.py) in the same transaction.
Nothing here knows what a result is for: ledger/clubs/results/services.py decides what to write.
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

from ledger.clubs import ratings
from ledger.clubs.journal import checkpoints
from ledger.clubs.models import (
    Club,
    Entry,
    Result,
    entry_hash,
)
from ledger.clubs.outcomes import outcomes
from ledger.clubs.projections.projections import project, round_keys
from ledger.clubs.storage import rows as rows_module
from ledger.clubs.storage import signing


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
        "seal_version",
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
    seal_version: int
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
    "seal_version",
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
    """Append the lines to each club's hash chain, under the lock on the club's row.

    The clubs' heads are locked and read first, all in one statement (one round trip, the
    only one the head is held across: it is held through the commit's flush anyway), so
    that each line is numbered, hashed and sealed here, its seal binding its place. On
    PostgreSQL the lines then go through ``ledger_append`` (migration 0010), which chains
    them again and refuses any not sealed for the place it gives them; elsewhere two
    statements per club. With ``deferred``, the lines' ids are read by the functions it is
    given, to be called once the write's statements have all gone out (in a pipeline);
    without, before this returns. ``first``: writes to other tables, whose locks the
    transaction holds already (their order with the lines is the database's), that travel
    with the heads' read."""
    written: list[list[Line]] = [[] for _ in items]
    clubs = sorted({result.club_id for result, _rows, _kind in items})
    if not clubs:
        rows_module.flush(first, wait=False)
        return written
    chain = _chain_in_database if connection.vendor == "postgresql" else _chain_here
    heads = _heads(clubs, first)
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
                    seal_version=signing.SEAL_VERSION,
                )
                written[n].append(line)
                mine.append(line)
        if not mine:
            continue
        sequence, head = heads[club_id]
        # Each line's identity (one random number for the club's lines of this write, its
        # place in it and the write's length) and its place in the journal, both sealed:
        # a copy of a line, wherever it goes, has a seal that does not hold there.
        for line, origin in zip(mine, signing.new_origins(len(mine)), strict=True):
            sequence += 1
            line.origin, line.sequence, line.prev_hash = origin, sequence, head
            line.hash = head = entry_hash(
                prev_hash=line.prev_hash,
                club_id=club_id,
                competition_id=line.competition_id,
                sequence=sequence,
                result_id=line.result_id,
                seat=line.seat,
                player_id=line.player_id,
                points=line.points,
                kind=line.kind,
            )
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
                version=line.seal_version,
                sequence=sequence,
                prev_hash=line.prev_hash,
            )
        finish = chain(club_id, mine, now)
        if deferred is None:
            finish()
        else:
            # Once committed, the club's new length may call for a checkpoint (a write
            # inside a caller's transaction is counted by the next write, whose length
            # includes its lines).
            deferred += (finish, functools.partial(_written, club_id, mine[-1]))
    return written


def _heads(
    clubs: Sequence[int], first: Sequence[rows_module.Statement]
) -> dict[int, tuple[int, str]]:
    """Lock the clubs' journal heads (in the order of their ids) and read them."""
    table = connection.ops.quote_name(Club._meta.db_table)
    lock = " FOR NO KEY UPDATE" if connection.vendor == "postgresql" else ""
    marks = ", ".join(["%s"] * len(clubs))
    found = rows_module.run(
        f"SELECT id, journal_length, journal_head FROM {table} WHERE id IN ({marks}) "
        f"ORDER BY id{lock}",
        list(clubs),
        first=first,
    )
    heads = {club_id: (length, head) for club_id, length, head in found}
    missing = set(clubs) - heads.keys()
    if missing:
        raise Club.DoesNotExist(f"there is no club {min(missing)}")
    return heads


def _written(club_id: int, last: Line) -> None:
    assert last.sequence is not None, "written lines are numbered"
    checkpoints.written(club_id, last.sequence)


def _chain_in_database(club_id: int, lines: list[Line], now: Any) -> Callable[[], None]:
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
                "seal_version": line.seal_version,
                "sequence": line.sequence,
                "prev_hash": line.prev_hash,
            }
            for line in lines
        ]
    ).decode()
    appended = rows_module.later(
        "SELECT line_id, line_hash FROM ledger_append(%s, %s, %s::json)",
        [club_id, now, document],
    )

    def finish() -> None:
        for line, (pk, digest) in zip(lines, appended(), strict=True):
            if digest != line.hash:
                # ledger_append refuses a line sealed for another place; this would be a
                # hash the database and this process compute apart.
                raise RuntimeError(f"journal line {club_id}#{line.sequence}: hashes disagree")
            line.pk = pk

    return finish


def _chain_here(club_id: int, lines: list[Line], now: Any) -> Callable[[], None]:
    club_table = connection.ops.quote_name(Club._meta.db_table)
    params = [[getattr(line, name) for name in _ENTRY_COLUMNS] for line in lines]
    ids = rows_module.insert_later(Entry, _ENTRY_COLUMNS, params, suffix="RETURNING id")
    rows_module.run(
        f"UPDATE {club_table} SET journal_length = %s, journal_head = %s WHERE id = %s",
        [lines[-1].sequence, lines[-1].hash, club_id],
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
