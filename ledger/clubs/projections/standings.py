"""Reading standings. The current table comes from the Standing projection alone (no
journal scan). "As of round N" and the movement since the previous round need each
player's totals after a round: the Standing rows less the per-round totals (RoundTotal,
a projection written with the journal lines) of the rounds after it, read with them in
one statement, so a read after a write or from a cold start costs the same as any other
and nothing is kept between reads."""

from __future__ import annotations

import contextlib
import contextvars
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from operator import attrgetter, itemgetter
from typing import Any

from django.db import connection, transaction
from django.db.models import Max

from ledger.clubs.models import (
    Competition,
    Player,
    Result,
    Round,
    RoundTotal,
    Seat,
    Standing,
    Table,
)
from ledger.clubs.office.entrants import taking_part
from ledger.clubs.outcomes import Settings, settings_for
from ledger.clubs.projections.projections import reconcile_moved_tables
from ledger.clubs.projections.totals import Totals, journal_totals
from ledger.clubs.storage import rows as rows_module


@dataclass
class Row:
    rank: int
    player_id: int
    name: str
    points: Decimal
    played: int
    wins: int = 0
    draws: int = 0
    losses: int = 0
    match_points: Decimal = Decimal(0)
    movement: int | None = None  # places gained since the previous round (+ up, - down)
    pending: Decimal = Decimal(0)  # points from results still awaiting confirmation
    extra: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "player": self.player_id,
            "name": self.name,
            "points": f"{self.points:f}",
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "match_points": f"{self.match_points:f}",
            "movement": self.movement,
            "pending": f"{self.pending:f}",
        }


def counted_after(
    competition: Competition, round_number: int, by: str | None = None
) -> tuple[dict[int, Totals], int]:
    """Each player's totals after a round, and the club's journal length they are as of,
    from whichever side of the round holds fewer tables: the journal up to the round, or
    the projection (the whole journal, kept current) less the journal after it. Both give
    the same totals (a property test holds them equal); players with nothing counted are
    left out. ``by`` ("journal" or "difference") forces one way."""
    if by is None:
        before, total = _tables_up_to(competition, round_number)
        by = "difference" if total - before < before else "journal"
    outer = connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and not outer:
            # Every read below as of one moment: the journal's length, the projection and
            # the lines (a result written between two reads would otherwise count once in
            # one and not in the other).
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        head = _journal_length(competition) or 0
        if by == "journal":
            totals = journal_totals(competition, round_number, through=head)
        else:
            totals = {
                player_id: Totals(points, played, wins, draws, losses)
                for player_id, _name, points, played, wins, draws, losses in projection(competition)
            }
            later = journal_totals(competition, round_number, after=True, through=head)
            totals = _combined(totals, later, -1)
    return {pid: t for pid, t in totals.items() if t != Totals()}, head


def _combined(totals: dict[int, Totals], other: dict[int, Totals], sign: int) -> dict[int, Totals]:
    """``totals`` plus (``sign`` 1) or less (-1) ``other``, as new objects."""
    out = {pid: Totals(t.points, t.played, t.wins, t.draws, t.losses) for pid, t in totals.items()}
    for player_id, o in other.items():
        t = out.setdefault(player_id, Totals())
        t.points += sign * o.points
        t.played += sign * o.played
        t.wins += sign * o.wins
        t.draws += sign * o.draws
        t.losses += sign * o.losses
    return out


def _tables_up_to(competition: Competition, round_number: int) -> tuple[int, int]:
    """How many of the competition's tables are in rounds up to ``round_number``, and how
    many it has in all."""
    found = rows_module.run(
        f"SELECT COUNT(r.id), COUNT(*) FROM {Table._meta.db_table} t "
        f"LEFT JOIN {Round._meta.db_table} r ON r.id = t.round_id AND r.number <= %s "
        "WHERE t.competition_id = %s",
        [round_number, competition.pk],
    )
    return int(found[0][0]), int(found[0][1])


def last_round(competition: Competition) -> int | None:
    """The highest round that has tables (an index lookup, not a journal scan)."""
    top = Round.objects.filter(competition=competition, tables__isnull=False).aggregate(
        n=Max("number")
    )["n"]
    return int(top) if top is not None else None


def _journal_length(competition: Competition) -> int | None:
    return (
        Competition.objects.filter(pk=competition.pk)
        .values_list("club__journal_length", flat=True)
        .first()
    )


@functools.cache
def layout_sql(vendor: str) -> str:
    """A fingerprint of which round each of the competition's tables is in (the movement
    column depends on it; the competition page's cache key holds it), as one text, read
    from the tables' round ids and the rounds' numbers without joining them (a join and a
    text per table cost a league's page several milliseconds); two parameters, the
    competition's id twice. For tables and rounds alike: the count, and the sums of
    id·value and id²·value over ids taken modulo a prime (bounded, so no sum overflows).
    Moving one table changes both sums; two moves that left both unchanged would need ids
    equal modulo the prime."""

    def sums(alias: str, value: str) -> str:
        key = f"CAST({alias}.id %% {LAYOUT_PRIME} AS BIGINT)"
        return (
            f"COUNT(*) || ',' || COALESCE(SUM({key} * {value}), 0) || ',' || "
            f"COALESCE(SUM({key} * {key} * {value}), 0)"
        )

    tables = f"(t.round_id %% {LAYOUT_PRIME})"
    return (
        f"SELECT (SELECT {sums('t', tables)} FROM {Table._meta.db_table} t "
        "WHERE t.competition_id = %s) || ';' || "
        f"(SELECT {sums('r', 'r.number')} FROM {Round._meta.db_table} r "
        "WHERE r.competition_id = %s)"
    )


LAYOUT_PRIME = 10007

#: False while a correction is previewed: what is read then comes from lines that will be
#: rolled back, so nothing of it may be kept for later reads.
_keeping: contextvars.ContextVar[bool] = contextvars.ContextVar("standings_keeping", default=True)


@contextlib.contextmanager
def kept_nowhere() -> Iterator[None]:
    """Reads inside must keep nothing in the cache (a correction's preview). The standings
    keep nothing between reads (they are one statement over the projections); anything
    here that comes to keep a read for later must not while ``_keeping`` is False."""
    token = _keeping.set(False)
    try:
        yield
    finally:
        _keeping.reset(token)


def totals_after(
    competition: Competition, round_number: int, head: int | None = None
) -> dict[int, Totals]:
    """Each player's totals after a past round (the standings "as of round N" and the
    movement column read them): the per-round totals (a projection written with the
    journal lines, see RoundTotal) of the rounds numbered up to ``round_number``, summed
    by the database in one statement over a few rows per player, whatever the journal's
    length, so a cold read is as fast as a warm one. ``head`` is accepted for callers that
    know the journal's length; the projection is always current."""
    del head
    reconcile_moved_tables(competition.pk)
    found = rows_module.run(_totals_sql(), [competition.pk, competition.pk, round_number])
    totals = {
        int(player_id): Totals(Decimal(points), int(played), int(wins), int(draws), int(losses))
        for player_id, points, played, wins, draws, losses in found
    }
    return {pid: t for pid, t in totals.items() if t != Totals()}


@functools.cache
def _totals_sql() -> str:
    return (
        "SELECT t.player_id, SUM(t.points), SUM(t.played), SUM(t.wins), SUM(t.draws), "
        f"SUM(t.losses) FROM {RoundTotal._meta.db_table} t "
        f"WHERE t.competition_id = %s AND (t.round_key = {RoundTotal.BEFORE_ROUNDS} "
        f"OR t.round_key IN (SELECT r.id FROM {Round._meta.db_table} r "
        "WHERE r.competition_id = %s AND r.number <= %s)) "
        "GROUP BY t.player_id"
    )


def rank_rows(rows: Sequence[tuple[Any, ...]], settings: Settings) -> list[Row]:
    """Rank (player, name, points, played, wins, draws, losses) tuples by the competition's
    keys in order; rows equal on every key share a rank (1, 2, 2, 4)."""
    match_points = settings.match_points
    # the order names at least one key
    values: Callable[[Row], Any] = attrgetter(*settings.order)
    single = len(settings.order) == 1
    keyed = []
    for player_id, name, points, played, wins, draws, losses in rows:
        row = Row(
            0,
            player_id,
            name,
            points,
            played,
            wins,
            draws,
            losses,
            match_points(wins, draws, losses),
        )
        # Each row's sort key is built once: the keys are compared many times while sorting.
        key = (-values(row),) if single else tuple(-v for v in values(row))
        keyed.append((key, name, row))
    keyed.sort(key=itemgetter(0, 1))
    ranked: list[Row] = []
    previous: tuple[Any, ...] | None = None
    for i, (key, _name, row) in enumerate(keyed):
        row.rank = ranked[-1].rank if key == previous else i + 1
        previous = key
        ranked.append(row)
    return ranked


def places(rows: Sequence[tuple[Any, ...]], settings: Settings) -> dict[int, int]:
    """Each player's rank as ``rank_rows`` gives it, without building the rows (the
    movement column needs only the places after the previous round)."""
    match_points = settings.match_points
    order = settings.order
    counted = "match_points" in order
    keyed = []
    for player_id, name, points, _played, wins, draws, losses in rows:
        have = {
            "points": points,
            "wins": wins,
            "match_points": match_points(wins, draws, losses) if counted else 0,
        }
        keyed.append((tuple(-have[k] for k in order), name, player_id))
    keyed.sort(key=itemgetter(0, 1))
    found: dict[int, int] = {}
    previous: tuple[Any, ...] | None = None
    rank = 0
    for i, (key, _name, player_id) in enumerate(keyed):
        if key != previous:
            rank = i + 1
        previous = key
        found[player_id] = rank
    return found


def settings_of(competition: Competition) -> Settings:
    return settings_for(competition.game, competition.standings_settings)


_UNKNOWN = -1

# A player's projected totals: (player, name, points, played, wins, draws, losses).
Totalled = tuple[int, str, Decimal, int, int, int, int]
# Points awaiting confirmation per player, with the names of those players.
Pending = tuple[dict[int, Decimal], dict[int, str]]


def projection(competition: Competition) -> list[Totalled]:
    """The competition's Standing rows as plain tuples, in no particular order (ranking
    sorts them; an ORDER BY on the player's name would cost the database a sort)."""
    return list(
        # Bots and the digital referee are never ranked (a competition may let people's
        # games with bots count; the bots' rows are kept, never shown).
        Standing.objects.filter(competition=competition, player__automated=False)
        .order_by()
        .values_list("player_id", "player__name", "points", "played", "wins", "draws", "losses")
    )


def standings(
    competition: Competition,
    as_of_round: int | None = None,
    latest: int | None = _UNKNOWN,
    *,
    head: int | None = None,
    with_pending: bool = False,
) -> list[Row]:
    """The standings now (or after round ``as_of_round``), with movement, and with the
    points of results awaiting confirmation when ``with_pending`` (only for the club's
    referees and organisers: a result that is not confirmed is sealed to everyone else,
    see ledger/clubs/office/visibility.py). A caller that already knows the last round passes it
    as ``latest``; ``head`` (the club's journal length) is accepted for callers that know
    it, the projections being always current.

    Every total comes from one statement (one snapshot): the Standing rows with their
    players' names and, when a round is asked for or the movement column is shown, each
    player's per-round totals (RoundTotal) of that round and of the lines after it. The
    totals after round N are the standings less the lines after it, and after round N-1
    those less round N's: the rows of the rounds from N on are read, not the journal,
    nor the earlier rounds."""
    del head
    if latest == _UNKNOWN:
        latest = last_round(competition)
    settings = settings_of(competition)
    current_round = latest if as_of_round is None else as_of_round
    movement = current_round is not None and current_round > 1
    if as_of_round is None and not movement:
        rows = rank_rows(_taking_part(competition, projection(competition)), settings)
    else:
        assert current_round is not None
        shown, before = rounds_apart(competition, current_round, past=as_of_round is not None)
        rows = rank_rows(_taking_part(competition, shown), settings)
        before = _taking_part(competition, before)
        if movement:
            then = places(before, settings)
            for row in rows:
                if row.player_id in then:
                    row.movement = then[row.player_id] - row.rank
    if as_of_round is None and with_pending:
        _add_pending(rows, pending_points(competition))
    return rows


def _taking_part(competition: Competition, rows: list[Totalled]) -> list[Totalled]:
    """The rows of players who take part in the competition (ledger/clubs/office/entrants.py). A
    row with games played is one; a row with none (a penalty's alone) is checked, in one
    query, only when there is such a row: a penalty to someone outside the competition is
    refused at the write, and one given before that rule never shows."""
    idle = {row[0] for row in rows if not row[3]}
    if not idle:
        return rows
    outside = idle - taking_part(competition, idle)
    return [row for row in rows if row[0] not in outside] if outside else rows


def rounds_apart(
    competition: Competition, round_number: int, *, past: bool
) -> tuple[list[Totalled], list[Totalled]]:
    """Each ranked player's totals now (or, with ``past``, after round ``round_number``) and
    after the round before it, as (player, name, points, played, wins, draws, losses),
    players with nothing counted after a past round left out. One statement: the
    Standing rows less the per-round totals of the rounds from ``round_number`` on (and
    of lines in no round). A property test holds them equal to ``totals_after``."""
    pk = competition.pk
    params = [pk, pk, pk, round_number, pk, pk, round_number]
    found = rows_module.run(_rounds_apart_sql(), params)
    if found and found[0][-1]:
        # A table moved to another round since its lines were counted (each row says how
        # many): its totals move first, then the rows are read again.
        reconcile_moved_tables(pk)
        found = rows_module.run(_rounds_apart_sql(), params)
    exact = connection.vendor == "postgresql"  # SQLite sums decimals as floats
    shown: list[Totalled] = []
    before: list[Totalled] = []
    for player_id, name, *values in found:
        now, later, at = values[:5], values[5:10], values[10:15]
        if not exact:
            now, later, at = _decimal_points(now), _decimal_points(later), _decimal_points(at)
        points, played, wins, draws, losses = now
        if past:
            points -= later[0]
            played -= later[1]
            wins -= later[2]
            draws -= later[3]
            losses -= later[4]
            if points or played or wins or draws or losses:
                shown.append((player_id, name, points, played, wins, draws, losses))
        else:
            shown.append((player_id, name, points, played, wins, draws, losses))
            points -= later[0]
            played -= later[1]
            wins -= later[2]
            draws -= later[3]
            losses -= later[4]
        points -= at[0]
        played -= at[1]
        wins -= at[2]
        draws -= at[3]
        losses -= at[4]
        if points or played or wins or draws or losses:
            before.append((player_id, name, points, played, wins, draws, losses))
    return shown, before


_CENTS = Decimal("0.01")


def _decimal_points(values: Sequence[Any]) -> list[Any]:
    """(points, played, wins, draws, losses) with the points as a Decimal of two places, as
    PostgreSQL gives them (SQLite sums decimals as floats)."""
    return [Decimal(str(values[0])).quantize(_CENTS), *(int(v) for v in values[1:])]


@functools.cache
def _rounds_apart_sql() -> str:
    """The statement of ``rounds_apart``; parameters: the competition three times, the
    round's number, the competition twice, the round's number. Per ranked player: the
    Standing row, the per-round totals after round N (in a later round, in no round, or
    in a round no longer there: ``totals_after`` leaves those out) and those of round N,
    each summed from one list of rows, so no join of two aggregates is left to the
    planner's estimates (a nested loop over 500 x 500 rows when a fresh table's
    statistics said three). Each row ends with how many of the competition's tables moved
    to another round since their lines were counted (see ``reconcile_moved_tables``): the
    check travels with the read instead of costing a round trip of its own."""
    counters = ("points", "played", "wins", "draws", "losses")
    standing, total = Standing._meta.db_table, RoundTotal._meta.db_table
    table, rnd, player = Table._meta.db_table, Round._meta.db_table, Player._meta.db_table
    sums = ", ".join(f"SUM(u.{c} * u.{k})" for k in ("k0", "k1", "k2") for c in counters)
    listed = ", ".join(counters)
    return (
        f"SELECT u.player_id, p.name, {sums}, "
        f"(SELECT COUNT(*) FROM {table} m WHERE m.competition_id = %s "
        "AND COALESCE(m.round_id, 0) <> m.totals_round) "
        f"FROM (SELECT player_id, {listed}, 1 AS k0, 0 AS k1, 0 AS k2 FROM {standing} "
        "WHERE competition_id = %s "
        f"UNION ALL SELECT player_id, {listed}, 0, 1 - at, at FROM ("
        f"SELECT t.player_id, {', '.join(f't.{c}' for c in counters)}, "
        f"CASE WHEN t.round_key IN (SELECT id FROM {rnd} WHERE competition_id = %s "
        "AND number = %s) THEN 1 ELSE 0 END AS at "
        f"FROM {total} t WHERE t.competition_id = %s "
        f"AND t.round_key <> {RoundTotal.BEFORE_ROUNDS} AND t.round_key NOT IN "
        f"(SELECT id FROM {rnd} WHERE competition_id = %s AND number < %s)) a) u "
        f"JOIN {player} p ON p.id = u.player_id WHERE NOT p.automated "
        "GROUP BY u.player_id, p.name HAVING SUM(u.k0) > 0"
    )


def pending_points(competition: Competition) -> Pending:
    """Each player's points from results still awaiting confirmation, and their names.
    Plain rows: one query when nothing is pending (the usual case), three otherwise. With
    blind re-entry none: a pending result is sealed to the referees too until its second
    entry (ledger/clubs/office/visibility.py)."""
    if competition.confirmation == Competition.Confirmation.BLIND:
        return {}, {}
    pending = list(
        Result.objects.filter(competition=competition, status=Result.Status.PENDING)
        .order_by()
        .values_list("table_id", "scores")
    )
    if not pending:
        return {}, {}
    seated: dict[int, list[tuple[int, int]]] = {}
    for table_id, index, player_id in Seat.objects.filter(
        table_id__in={table_id for table_id, _ in pending}
    ).values_list("table_id", "index", "player_id"):
        seated.setdefault(table_id, []).append((index, player_id))
    extra: dict[int, Decimal] = {}
    for table_id, scores in pending:
        for index, player_id in seated.get(table_id, []):
            if index < len(scores):
                extra[player_id] = extra.get(player_id, Decimal(0)) + Decimal(scores[index])
    if not extra:
        return {}, {}
    names = dict(Player.objects.filter(pk__in=extra, automated=False).values_list("pk", "name"))
    return {p: v for p, v in extra.items() if p in names}, names


def _add_pending(rows: list[Row], pending: Pending) -> None:
    extra, names = pending
    by_player = {r.player_id: r for r in rows}
    for player_id, points in extra.items():
        row = by_player.get(player_id)
        if row is None:
            row = Row(len(rows) + 1, player_id, names[player_id], Decimal(0), 0)
            rows.append(row)
        row.pending = points
