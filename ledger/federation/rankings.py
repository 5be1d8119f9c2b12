"""The federation's two rankings of each game, kept as projections by the workers
(docs/federation.md, "Rankings"): never computed in a request, the pages read the rows.

- **The rating**: openskill's Plackett-Luce model, the clubs' own (ledger/clubs/ratings.py:
  the same model, the same reading of a result, a club's penalties counted where that club
  counts them), over every sanctioned result of every member club, in journal order (the
  time of each result's first journal line, then its club and line number).
- **The points ranking**: a sanctioned competition's final standing gives each person the
  points of their place (the federation's table of points by place; players sharing a place
  each take its points) times the tier's weight; a person's total is the sum of their best
  N results of the last W months (the federation's rules).

Both are kept month by month (``RankingRow.period``: the month's last day), so that a page
reads the table as it stood at the end of any month, and the movement since the month before.
A person is the surviving person of any merge (``canonical``). Results arrive by event
(``ledger/federation/listening.py``): a new result at the end of the journal is folded onto
the rating's current month and its competition's points are refreshed; anything else (a
correction, a void, a venue's upload, a merge, a sanction, the rules) rebuilds the game.
"""

from __future__ import annotations

import json as std_json
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any, NamedTuple

import orjson
from django.db import connection, transaction
from django.db.models import Max, QuerySet
from django.utils import timezone

from ledger.clubs import people
from ledger.clubs.models import Competition, Entry, Result, Round
from ledger.clubs.outcomes import standing_order
from ledger.clubs.ratings import MODEL, rate, rating_adjustments
from ledger.clubs.storage import rows as sql
from ledger.federation.models import (
    DEFAULT_PLACE_POINTS,
    Federation,
    MemberClub,
    RankedResult,
    RankingMonth,
    RankingRow,
    RankingRules,
    RankingState,
    Sanction,
)
from ledger.formats.seasons import night_results

RATING: str = RankingRow.Kind.RATING.value
POINTS: str = RankingRow.Kind.POINTS.value
KINDS = (RATING, POINTS)
CENT = Decimal("0.01")


# --- months --------------------------------------------------------------------------------


def month_end(day: date) -> date:
    """The last day of ``day``'s month: the period a day belongs to."""
    following = date(day.year + day.month // 12, day.month % 12 + 1, 1)
    return following - timedelta(days=1)


def months_back(period: date, count: int) -> date:
    """The first day of the month ``count`` months before ``period``'s (0: its own)."""
    index = period.year * 12 + period.month - 1 - count
    return date(index // 12, index % 12 + 1, 1)


def periods(first: date, last: date) -> list[date]:
    """Every month's last day from ``first``'s month to ``last``'s."""
    out, at = [], month_end(first)
    end = month_end(last)
    while at <= end:
        out.append(at)
        at = month_end(at + timedelta(days=1))
    return out


# --- what counts ---------------------------------------------------------------------------


def rules_of(federation_id: int) -> RankingRules:
    found = RankingRules.objects.filter(federation_id=federation_id).first()
    return found or RankingRules(
        federation_id=federation_id, place_points=list(DEFAULT_PLACE_POINTS)
    )


@dataclass(frozen=True)
class Counted:
    """A sanctioned competition of a member club: its tier's weight and its club."""

    competition_id: int
    club_id: int
    weight: Decimal


def sanctioned(federation_id: int, game: str) -> dict[int, Counted]:
    """The game's competitions the federation sanctioned, of its member clubs now."""
    members = MemberClub.objects.filter(
        federation_id=federation_id, status=MemberClub.Status.APPROVED
    ).values_list("club_id", flat=True)
    found = Sanction.objects.filter(
        tier__federation_id=federation_id,
        competition__game=game,
        competition__club_id__in=list(members),
    ).values_list("competition_id", "competition__club_id", "tier__weight")
    return {c: Counted(c, club, Decimal(weight)) for c, club, weight in found}


def games_of(federation_id: int) -> list[str]:
    """The games of the federation's sanctioned competitions, and of the rows it has."""
    found = set(
        Sanction.objects.filter(tier__federation_id=federation_id).values_list(
            "competition__game", flat=True
        )
    )
    found |= set(
        RankingState.objects.filter(federation_id=federation_id).values_list("game", flat=True)
    )
    return sorted(found)


def canonical(ids: Iterable[int]) -> dict[int, int]:
    """Player id -> the surviving person's (a merged player's rows are the survivor's)."""
    return people.canonical_ids(sorted(set(ids)))


# --- the rating ----------------------------------------------------------------------------


@dataclass
class Rated:
    """A counting sanctioned result, as the rating reads it."""

    key: tuple[datetime, int, int]  # its first journal line's time, club and number
    result_id: int
    club_id: int
    players: list[int]  # persons by seat
    points: list[float]  # the standing order the model reads


def rated_results(
    federation_id: int,
    game: str,
    counted: dict[int, Counted],
    after: tuple[datetime, int, int] | None = None,
) -> list[Rated]:
    """The counting results of the sanctioned competitions, in journal order (those after
    ``after`` only, when given), each read as the clubs' ratings read it."""
    if not counted:
        return []
    competitions = list(counted)
    lines = Entry.objects.filter(
        competition_id__in=competitions, kind=Entry.Kind.CREDIT, result__isnull=False
    )
    if after is not None:
        lines = lines.filter(created_at__gte=after[0])
    # One pass over the credit lines, streamed: each result's first line (its place in the
    # journal) and who sat where as the journal credited it.
    firsts: dict[int, tuple[datetime, int, int]] = {}
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for result_id, seat, player_id, at, club_id, number in _read(
        lines.values_list("result_id", "seat", "player_id", "created_at", "club_id", "sequence")
    ):
        key = (at, club_id, number)
        known = firsts.get(result_id)
        if known is None or key < known:
            firsts[result_id] = key
        seats[result_id][seat] = player_id
    if after is not None:
        firsts = {r: k for r, k in firsts.items() if k > after}
    if not firsts:
        return []
    accepted = Result.objects.filter(status=Result.Status.ACCEPTED)
    accepted = (
        accepted.filter(pk__in=list(firsts))
        if after is not None
        else accepted.filter(competition_id__in=competitions)
    )
    counting = {
        pk: (club_id, scores, verdict)
        for pk, club_id, scores, verdict in _read(
            accepted.values_list("pk", "club_id", "scores", "verdict"), json=(2, 3)
        )
        if pk in firsts
    }
    persons = canonical(p for r in counting for p in seats.get(r, {}).values())
    # A club that counts penalties in its ratings counts them in the federation's too.
    fines: dict[int, dict[int, Decimal]] = {}
    for club_id in sorted({club for club, _s, _v in counting.values()}):
        fines.update(rating_adjustments(club_id, game))
    out = []
    orders: dict[Any, list[float]] = {}  # most results share a few kinds of score
    for result_id in sorted(counting, key=lambda r: firsts[r]):
        club_id, scores, verdict = counting[result_id]
        seated = seats.get(result_id, {})
        players = [persons[seated[i]] for i in sorted(seated)]
        fined = fines.get(result_id)
        if fined:
            scores = [
                f"{Decimal(x) + fined.get(seated.get(i, 0), Decimal(0)):f}"
                for i, x in enumerate(scores)
            ]
            points = standing_order(scores, verdict)
        else:
            points = _standing_order(orders, scores, verdict)
        if len(players) < 2 or (len(set(points)) < 2 and len(players) > 2):
            continue  # everybody level tells nothing about skill (as the clubs' ratings)
        if len(set(players)) < len(players):
            continue  # one person on two seats (two merged players who met): not a match
        out.append(Rated(firsts[result_id], result_id, club_id, players, points))
    return out


def _read(query: QuerySet[Any], json: tuple[int, ...] = ()) -> Iterator[Sequence[Any]]:
    """The rows of a ``values_list`` query, streamed. On PostgreSQL read in psycopg's own
    loaders, not through the ORM's per-value ones (a time zone put on each time, each JSON
    value parsed by the standard library): a rebuild reads millions of journal lines. The
    columns at ``json`` are JSON (its values come parsed either way)."""
    if connection.vendor != "postgresql":
        yield from query.iterator(chunk_size=20_000)
        return
    text, params = query.query.sql_with_params()
    connection.ensure_connection()
    raw = connection.connection
    with raw.cursor(name=f"rankings_{id(query):x}", withhold=raw.autocommit) as cursor:
        cursor.adapters.register_loader("timestamptz", _times_loader())
        cursor.itersize = 20_000
        cursor.execute(text, params)
        for row in cursor:
            if json:
                row = list(row)
                for i in json:
                    row[i] = _parsed(row[i])
            yield row


def _times_loader() -> Any:
    """psycopg's loader of times with a zone: its C one where it is built."""
    from psycopg import _cmodule
    from psycopg.types.datetime import TimestamptzLoader

    return getattr(_cmodule._psycopg, "TimestamptzLoader", None) or TimestamptzLoader


def _parsed(value: Any) -> Any:
    if not isinstance(value, str | bytes):
        return value
    try:
        return orjson.loads(value)
    except orjson.JSONDecodeError:  # an integer beyond 64 bits, say
        return std_json.loads(value)


def _standing_order(
    known: dict[Any, list[float]], scores: Sequence[Any], verdict: Any
) -> list[float]:
    """``standing_order``, remembered by what it reads (the scores and the Outcome's
    places)."""
    outcome = verdict.get("outcome") if isinstance(verdict, dict) else None
    places = outcome.get("places") if isinstance(outcome, dict) else None
    try:
        key = (tuple(scores), tuple(places) if isinstance(places, list) else None)
        hash(key)
    except TypeError:
        return standing_order(scores, verdict)
    found = known.get(key)
    if found is None:
        found = known[key] = standing_order(scores, verdict)
    return found


def fold(state: dict[int, list[Any]], result: Rated) -> None:
    """Rate one result onto ``state`` (person -> [mu, sigma, results, club])."""
    players, club = result.players, result.club_id
    current = [state.get(p) or [MODEL.mu, MODEL.sigma, 0, club] for p in players]
    for person, held, (mu, sigma) in zip(
        players, current, rate(current, result.points), strict=True
    ):
        state[person] = [mu, sigma, held[2] + 1, club]


class Row(NamedTuple):
    """A ranking's row as it is written (``RankingRow``'s columns, in ``_ROW_COLUMNS``'
    order): a plain tuple, a rebuild makes hundreds of thousands of them."""

    federation_id: int
    game: str
    kind: str
    period: date
    person_id: int
    club_id: int
    rank: int
    value: Decimal
    mu: float | None
    sigma: float | None
    results: int
    movement: int | None


def conservative(mu: float, sigma: float) -> Decimal:
    """The rating shown: mu minus three sigma (the value the person is very likely above)."""
    return Decimal(str(mu - 3 * sigma)).quantize(CENT)


def _rank(values: Sequence[tuple[Any, int]]) -> dict[int, int]:
    """person -> rank, best first, by the sort keys given (smaller first); equal keys share
    a rank (1, 2, 2, 4)."""
    ordered = sorted(values, key=lambda v: (v[0], v[1]))
    out: dict[int, int] = {}
    previous, rank = None, 0
    for i, (key, person) in enumerate(ordered, start=1):
        if key != previous:
            rank, previous = i, key
        out[person] = rank
    return out


def _rating_rows(
    federation_id: int,
    game: str,
    period: date,
    state: dict[int, list[Any]],
    before: dict[int, int],
) -> list[Row]:
    values = {p: conservative(mu, sigma) for p, (mu, sigma, _n, _c) in state.items()}
    ranks = _rank([((-values[p], -state[p][0]), p) for p in state])
    return [
        Row(
            federation_id,
            game,
            RATING,
            period,
            p,
            club,
            ranks[p],
            values[p],
            mu,
            sigma,
            n,
            before[p] - ranks[p] if p in before else None,
        )
        for p, (mu, sigma, n, club) in state.items()
    ]


def _write_period(federation_id: int, game: str, kind: str, period: date, rows: list[Row]) -> None:
    RankingRow.objects.filter(
        federation_id=federation_id, game=game, kind=kind, period=period
    ).delete()
    _insert(rows)


#: Rows written by one statement (in plain SQL: the ORM's bulk_create spends far more time
#: preparing its values than the database spends writing them).
CHUNK = 5000
_ROW_COLUMNS = (
    "federation_id",
    "game",
    "kind",
    "period",
    "person_id",
    "club_id",
    "rank",
    "value",
    "mu",
    "sigma",
    "results",
    "movement",
)


def _insert(made: Sequence[Row]) -> None:
    for at in range(0, len(made), CHUNK):
        sql.insert(RankingRow, _ROW_COLUMNS, made[at : at + CHUNK])


def _months(
    federation_id: int, game: str, kind: str, counts: dict[date, int], *, every: bool
) -> None:
    """Write how many rows each of these months' tables holds; with ``every``, the months
    given are all the table has (the others go)."""
    mine = RankingMonth.objects.filter(federation_id=federation_id, game=game, kind=kind)
    if every:
        mine.delete()
    else:
        mine.filter(period__in=list(counts)).delete()
    RankingMonth.objects.bulk_create(
        [
            RankingMonth(federation_id=federation_id, game=game, kind=kind, period=p, rows=n)
            for p, n in sorted(counts.items())
        ]
    )


def _state(federation_id: int, game: str) -> RankingState:
    found, _made = RankingState.objects.select_for_update().get_or_create(
        federation_id=federation_id, game=game
    )
    return found


def _period_of(at: datetime) -> date:
    return month_end(timezone.localdate(at))


def _ends(period: date) -> datetime:
    """The first moment after ``period``'s last day, here: a time is in that month or
    before it when it comes earlier (``_period_of(at) <= period``, without a time zone's
    conversion for each of a million results)."""
    return timezone.make_aware(datetime.combine(period + timedelta(days=1), datetime.min.time()))


def rebuild_rating(federation_id: int, game: str) -> int:
    """Replay every counting sanctioned result of the game into the rating, month by month
    up to this month. Returns the number of results rated."""
    counted = sanctioned(federation_id, game)
    results = rated_results(federation_id, game, counted)
    today = timezone.localdate()
    with transaction.atomic():
        state_row = _state(federation_id, game)
        RankingRow.objects.filter(federation_id=federation_id, game=game, kind=RATING).delete()
        state: dict[int, list[Any]] = {}
        before: dict[int, int] = {}
        counts: dict[date, int] = {}
        if results:
            first = _period_of(results[0].key[0])
            every = periods(first, max(today, first))
            times = [r.key[0] for r in results]  # in journal order: by time first
            at = 0
            for period in every:
                # A line dated ahead of today counts in this month.
                upto = len(results) if period == every[-1] else bisect_left(times, _ends(period))
                for result in results[at:upto]:
                    fold(state, result)
                at = max(at, upto)
                rows = _rating_rows(federation_id, game, period, state, before)
                _insert(rows)
                counts[period] = len(rows)
                before = {r.person_id: r.rank for r in rows}
        _months(federation_id, game, RATING, counts, every=True)
        last = results[-1].key if results else None
        state_row.last_at = last[0] if last else None
        state_row.last_club = last[1] if last else 0
        state_row.last_sequence = last[2] if last else 0
        state_row.rated = len(results)
        state_row.rebuilt_at = state_row.updated_at = timezone.now()
        state_row.version += 1
        state_row.save()
    return len(results)


def extend_rating(federation_id: int, game: str) -> int | None:
    """Fold the results written after the last one the rating has into this month's table.
    None when that cannot be done (nothing rated yet, or a month has passed since): the
    caller rebuilds. Returns the number of results folded."""
    counted = sanctioned(federation_id, game)
    with transaction.atomic():
        state_row = _state(federation_id, game)
        if state_row.last_at is None:
            return None
        period = month_end(timezone.localdate())
        if _period_of(state_row.last_at) != period:
            return None
        after = (state_row.last_at, state_row.last_club, state_row.last_sequence)
        new = rated_results(federation_id, game, counted, after=after)
        if not new:
            return 0
        if any(_period_of(r.key[0]) != period for r in new):
            return None
        rows = RankingRow.objects.filter(
            federation_id=federation_id, game=game, kind=RATING, period=period
        )
        held = {
            row[0]: row
            for row in rows.values_list(
                "person_id", "club_id", "rank", "value", "mu", "sigma", "results", "movement"
            )
        }
        state = {p: [mu, sigma, n, club] for p, club, _r, _v, mu, sigma, n, _m in held.values()}
        previous = month_end(period.replace(day=1) - timedelta(days=1))
        before = dict(
            RankingRow.objects.filter(
                federation_id=federation_id, game=game, kind=RATING, period=previous
            ).values_list("person_id", "rank")
        )
        for result in new:
            fold(state, result)
        # Only the rows that changed are written: the people who played, and those whose
        # place they passed (most of a large table stays as it was).
        changed = [
            r
            for r in _rating_rows(federation_id, game, period, state, before)
            if held.get(r.person_id)
            != (r.person_id, r.club_id, r.rank, r.value, r.mu, r.sigma, r.results, r.movement)
        ]
        gone = [r.person_id for r in changed]
        for at in range(0, len(gone), CHUNK):
            rows.filter(person_id__in=gone[at : at + CHUNK]).delete()
        _insert(changed)
        _months(federation_id, game, RATING, {period: len(state)}, every=False)
        last = new[-1].key
        state_row.last_at, state_row.last_club, state_row.last_sequence = last
        state_row.rated += len(new)
        state_row.updated_at = timezone.now()
        state_row.version += 1
        state_row.save()
    return len(new)


# --- the points ranking --------------------------------------------------------------------


def competition_day(competition: Competition) -> date:
    """The day a competition counts on: its last round's, else its last result's, else the
    day it was made."""
    played = competition.rounds.aggregate(day=Max("played_on"))["day"]
    if played is not None:
        day: date = played
        return day
    last = Entry.objects.filter(competition=competition, kind=Entry.Kind.CREDIT).aggregate(
        at=Max("created_at")
    )["at"]
    return timezone.localdate(last or competition.created_at)


def competition_days(competitions: Sequence[Competition]) -> dict[int, date]:
    """``competition_day`` of each of ``competitions``, in two reads for them all."""
    ids = [c.pk for c in competitions]
    days: dict[int, date] = {}
    for at in range(0, len(ids), CHUNK):
        days.update(
            Round.objects.filter(competition_id__in=ids[at : at + CHUNK], played_on__isnull=False)
            .values_list("competition_id")
            .annotate(day=Max("played_on"))
            .values_list("competition_id", "day")
        )
    rest = [c for c in competitions if c.pk not in days]
    last: dict[int, datetime] = {}
    for at in range(0, len(rest), CHUNK):
        last.update(
            Entry.objects.filter(
                competition_id__in=[c.pk for c in rest[at : at + CHUNK]], kind=Entry.Kind.CREDIT
            )
            .values_list("competition_id")
            .annotate(at=Max("created_at"))
            .values_list("competition_id", "at")
        )
    for c in rest:
        days[c.pk] = timezone.localdate(last.get(c.pk) or c.created_at)
    return days


def place_points(rules: RankingRules, place: int) -> Decimal:
    table = rules.place_points or []
    return Decimal(str(table[place - 1])) if 1 <= place <= len(table) else Decimal(0)


def refresh_results(
    federation_id: int, game: str, competitions: Iterable[int] | None = None
) -> None:
    """Write the points each person's final standing gives, for the given sanctioned
    competitions (all of the game's when None); those no longer sanctioned lose theirs."""
    counted = sanctioned(federation_id, game)
    rules = rules_of(federation_id)
    wanted = sorted(counted if competitions is None else set(competitions))
    made: list[tuple[Any, ...]] = []
    finals = [
        (competition, standing)
        for competition in Competition.objects.filter(pk__in=[c for c in wanted if c in counted])
        if (standing := night_results(competition))
    ]
    # The days the competitions count on and the persons their players are, read once.
    days = competition_days([competition for competition, _s in finals])
    persons = canonical(p for _c, standing in finals for p, _n, _pl, _pt in standing)
    for competition, standing in finals:
        day = days[competition.pk]
        best: dict[int, int] = {}
        for player_id, _name, place, _points in standing:
            person = persons[player_id]
            best[person] = min(place, best.get(person, place))
        weight = counted[competition.pk].weight
        # (In ``columns``' order below.)
        made += [
            (
                federation_id,
                game,
                competition.pk,
                person,
                competition.club_id,
                day,
                place,
                (place_points(rules, place) * weight).quantize(CENT),
            )
            for person, place in best.items()
        ]
    mine = RankedResult.objects.filter(federation_id=federation_id, game=game)
    if competitions is None:
        mine.delete()
    else:
        mine.filter(competition_id__in=wanted).delete()
        mine.exclude(competition_id__in=list(counted)).delete()
    columns = (
        "federation_id",
        "game",
        "competition_id",
        "person_id",
        "club_id",
        "day",
        "place",
        "points",
    )
    for at in range(0, len(made), CHUNK):
        sql.insert(RankedResult, columns, made[at : at + CHUNK])


def rebuild_points(federation_id: int, game: str, since: date | None = None) -> int:
    """Write the points ranking's months (from ``since``'s month on; all when None) from the
    ranked results. Returns the number of months written."""
    rules = rules_of(federation_id)
    best, months = max(1, rules.best), max(1, rules.months)
    found = list(
        RankedResult.objects.filter(federation_id=federation_id, game=game)
        .order_by("day", "competition_id")
        .values_list("person_id", "club_id", "day", "points")
    )
    today = timezone.localdate()
    with transaction.atomic():
        state = _state(federation_id, game)  # one writer of the game's rankings at a time
        rows = RankingRow.objects.filter(federation_id=federation_id, game=game, kind=POINTS)
        if not found:
            rows.delete()
            _months(federation_id, game, POINTS, {}, every=True)
            state.version += 1
            state.save(update_fields=["version"])
            return 0
        days = [f[2] for f in found]
        first = found[0][2]
        last = max(today, found[-1][2])
        every = periods(first, last)
        start = month_end(since) if since is not None else every[0]
        rows.exclude(period__in=every).delete()
        before: dict[int, int] = {}
        written = 0
        counts: dict[date, int] = {}
        for period in every:
            opens = months_back(period, months - 1)
            # The results are in day order: the window is one slice of them.
            inside = found[bisect_left(days, opens) : bisect_right(days, period)]
            table = _points_rows(federation_id, game, period, inside, best, before)
            if period >= start:
                _write_period(federation_id, game, POINTS, period, table)
                counts[period] = len(table)
                written += 1
            before = {r.person_id: r.rank for r in table}
        RankingMonth.objects.filter(federation_id=federation_id, game=game, kind=POINTS).exclude(
            period__in=every
        ).delete()
        _months(federation_id, game, POINTS, counts, every=False)
        state.updated_at = timezone.now()
        state.version += 1
        state.save(update_fields=["updated_at", "version"])
    return written


def _points_rows(
    federation_id: int,
    game: str,
    period: date,
    inside: Sequence[tuple[int, int, date, Decimal]],
    best: int,
    before: dict[int, int],
) -> list[Row]:
    mine: dict[int, list[tuple[Decimal, date, int]]] = defaultdict(list)
    for person, club, day, points in inside:
        mine[person].append((points, day, club))
    totals: dict[int, Decimal] = {}
    clubs: dict[int, int] = {}
    for person, held in mine.items():
        # The better results first; of two equal, the earlier.
        kept = sorted(held, key=lambda h: (-h[0], h[1]))[:best]
        totals[person] = sum((h[0] for h in kept), Decimal(0))
        clubs[person] = max(held, key=lambda h: h[1])[2]  # the club of the latest result
    ranks = _rank([((-totals[p],), p) for p in totals])
    return [
        Row(
            federation_id,
            game,
            POINTS,
            period,
            p,
            clubs[p],
            ranks[p],
            totals[p],
            None,
            None,
            len(mine[p]),
            before[p] - ranks[p] if p in before else None,
        )
        for p in totals
    ]


# --- what the workers run ------------------------------------------------------------------


def rebuild(federation_id: int, game: str, kind: str | None = None) -> int:
    """Rebuild one game's rankings of a federation (one of them with ``kind``)."""
    done = 0
    if kind in (None, RATING):
        done += rebuild_rating(federation_id, game)
    if kind in (None, POINTS):
        refresh_results(federation_id, game)
        done += rebuild_points(federation_id, game)
    return done


def competition_grew(competition_ids: Sequence[int]) -> None:
    """New results in these competitions: folded onto the rating where they come last (else
    it is rebuilt), and the competitions' points refreshed from their month on."""
    for federation_id, game, competitions in _touched(competition_ids):
        if extend_rating(federation_id, game) is None:
            rebuild_rating(federation_id, game)
        _points_for(federation_id, game, competitions)


def competition_changed(competition_ids: Sequence[int]) -> None:
    """A result of these competitions corrected, voided or contested: the rating depends on
    the order of every later one, so it is replayed; the competitions' points refreshed."""
    for federation_id, game, competitions in _touched(competition_ids):
        rebuild_rating(federation_id, game)
        _points_for(federation_id, game, competitions)


def _points_for(federation_id: int, game: str, competitions: set[int]) -> None:
    days = [
        d
        for d in RankedResult.objects.filter(competition_id__in=competitions)
        .values_list("day", flat=True)
        .distinct()
    ]
    refresh_results(federation_id, game, competitions)
    days += list(
        RankedResult.objects.filter(competition_id__in=competitions)
        .values_list("day", flat=True)
        .distinct()
    )
    rebuild_points(federation_id, game, since=min(days) if days else None)


def _touched(competition_ids: Sequence[int]) -> list[tuple[int, str, set[int]]]:
    """(federation, game, competitions) that the competitions' sanctions feed."""
    found: dict[tuple[int, str], set[int]] = defaultdict(set)
    for federation_id, game, competition_id in Sanction.objects.filter(
        competition_id__in=list(competition_ids)
    ).values_list("tier__federation_id", "competition__game", "competition_id"):
        found[(federation_id, game)].add(competition_id)
    return [(f, g, c) for (f, g), c in sorted(found.items())]


def rebuild_club(club_id: int) -> None:
    """A club's journal grew by an upload (a venue's sync): every game of every federation
    it belongs to."""
    for federation_id, game in sorted(
        set(
            Sanction.objects.filter(competition__club_id=club_id).values_list(
                "tier__federation_id", "competition__game"
            )
        )
    ):
        rebuild(federation_id, game)


def rebuild_federation(federation_id: int) -> None:
    for game in games_of(federation_id):
        rebuild(federation_id, game)


def units(federation_ids: Sequence[int] | None = None) -> list[tuple[int, str, str]]:
    """The rebuild's pieces of work, biggest first: (federation, game, kind)."""
    feds = Federation.objects.all()
    if federation_ids:
        feds = feds.filter(pk__in=federation_ids)
    out = [(f, g, k) for f in feds.values_list("pk", flat=True) for g in games_of(f) for k in KINDS]
    return out


def run_units(
    pieces: Sequence[tuple[int, str, str]], progress: Callable[[int], None] | None = None
) -> int:
    """Run rebuild pieces here, one after the other (the command's way without workers)."""
    done = 0
    for n, (federation_id, game, kind) in enumerate(pieces, start=1):
        done += rebuild(federation_id, game, kind)
        if progress is not None:
            progress(n)
    return done
