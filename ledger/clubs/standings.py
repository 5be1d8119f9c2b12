"""Reading standings. The current table comes from the Standing projection alone (no
journal scan); "as of round N" and the movement since the previous round aggregate the
journal of the rounds concerned, which only those historical views pay for."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q, Sum

from ledger.clubs.models import Competition, Entry, Player, Result, Round, Standing


@dataclass
class Row:
    rank: int
    player_id: int
    name: str
    points: Decimal
    played: int
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
            "movement": self.movement,
            "pending": f"{self.pending:f}",
        }


def last_round(competition: Competition) -> int | None:
    """The highest round that has tables (an index lookup, not a journal scan)."""
    top = Round.objects.filter(competition=competition, tables__isnull=False).aggregate(
        n=Max("number")
    )["n"]
    return int(top) if top is not None else None


def _ranks_after(competition: Competition, round_number: int) -> dict[int, int]:
    """Places after a past round, for the movement column. Cached until the club's journal
    grows, so a standings read scans the journal at most once per write."""
    head = (
        Competition.objects.filter(pk=competition.pk)
        .values_list("club__journal_length", flat=True)
        .first()
    )
    key = f"ranks:{competition.pk}:{round_number}:{head}"
    ranks: dict[int, int] | None = cache.get(key)
    if ranks is None:
        ranks = {r.player_id: r.rank for r in _from_journal(competition, round_number)}
        cache.set(key, ranks, 3600)
    return ranks


def _ranked(rows: list[tuple[int, str, Decimal, int]]) -> list[Row]:
    """Rank by points; equal points share a rank (1, 2, 2, 4)."""
    rows.sort(key=lambda r: (-r[2], r[1]))
    out: list[Row] = []
    for i, (player_id, name, points, played) in enumerate(rows):
        rank = out[-1].rank if out and out[-1].points == points else i + 1
        out.append(Row(rank, player_id, name, points, played))
    return out


def _from_journal(competition: Competition, up_to_round: int) -> list[Row]:
    totals = (
        Entry.objects.filter(competition=competition, table__round__number__lte=up_to_round)
        .values("player_id", "player__name")
        .annotate(
            points=Sum("points"),
            credits=Count("id", filter=Q(kind=Entry.Kind.CREDIT)),
            reversals=Count("id", filter=Q(kind=Entry.Kind.REVERSAL)),
        )
    )
    return _ranked(
        [
            (r["player_id"], r["player__name"], r["points"], r["credits"] - r["reversals"])
            for r in totals
        ]
    )


_UNKNOWN = -1


def standings(
    competition: Competition, as_of_round: int | None = None, latest: int | None = _UNKNOWN
) -> list[Row]:
    """The standings now (or after round ``as_of_round``), with movement and pending points.
    A caller that already knows the last round passes it as ``latest``."""
    if latest == _UNKNOWN:
        latest = last_round(competition)
    if as_of_round is None:
        rows = _ranked(
            list(
                Standing.objects.filter(competition=competition).values_list(
                    "player_id", "player__name", "points", "played"
                )
            )
        )
        current_round = latest
    else:
        rows = _from_journal(competition, as_of_round)
        current_round = as_of_round
    if current_round is not None and current_round > 1:
        before = _ranks_after(competition, current_round - 1)
        for row in rows:
            if row.player_id in before:
                row.movement = before[row.player_id] - row.rank
    if as_of_round is None and competition.confirmation != Competition.Confirmation.BLIND:
        # Blind re-entry must not show the first entry's points before the second.
        _add_pending(competition, rows)
    return rows


def _add_pending(competition: Competition, rows: list[Row]) -> None:
    pending = (
        Result.objects.filter(competition=competition, status=Result.Status.PENDING)
        .only("id", "table_id", "scores")
        .prefetch_related("table__seats")
    )
    extra: dict[int, Decimal] = {}
    for result in pending:
        for seat in result.table.seats.all():
            if seat.index < len(result.scores):
                extra[seat.player_id] = extra.get(seat.player_id, Decimal(0)) + Decimal(
                    result.scores[seat.index]
                )
    if not extra:
        return
    by_player = {r.player_id: r for r in rows}
    names = dict(Player.objects.filter(pk__in=extra).values_list("pk", "name"))
    for player_id, points in extra.items():
        row = by_player.get(player_id)
        if row is None:
            row = Row(len(rows) + 1, player_id, names[player_id], Decimal(0), 0)
            rows.append(row)
        row.pending = points
