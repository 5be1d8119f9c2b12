"""Swiss-like seating for tables of more than two (Tarocco's four): no library pairs these.

Players are sorted by score and cut into tables of the size; then pairwise swaps between
tables lower a cost that puts, in order of weight, repeated meetings (partners and
opponents alike: at Tarocco the partner changes every hand) and score differences within
a table; finally each table's seats are ordered so that everyone takes the seat they have
had least (the Hungarian balancing Tabbycat uses for its rooms of four, by brute force
over the 24 orders of a table of four).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ledger.formats.pairing.rotation import Pair, key, seat_order, table_sizes

REPEAT = 1000  # one repeated meeting outweighs any score gap of a normal evening


@dataclass
class Grouping:
    tables: list[list[int]]
    sitting_out: list[int]


def _cost(t: list[int], met: Mapping[Pair, int], rank: Mapping[int, int]) -> int:
    cost = 0
    for i, a in enumerate(t):
        for b in t[i + 1 :]:
            cost += REPEAT * met.get(key(a, b), 0) ** 2
    cost += (max(rank[p] for p in t) - min(rank[p] for p in t)) ** 2
    return cost


def group_swiss(
    players: list[tuple[int, float]],
    *,
    size: int,
    allowed: tuple[int, ...],
    met: Mapping[Pair, int],
    seat_counts: Mapping[tuple[int, int], int] | None = None,
    sat_out: Mapping[int, int] | None = None,
) -> Grouping:
    """``players``: (id, score). Tables in score order, top table first."""
    ordered = [pid for pid, _ in sorted(players, key=lambda p: (-p[1], p[0]))]
    sizes, out = table_sizes(len(ordered), size, allowed)
    sitting_out: list[int] = []
    if out:
        # Those at the bottom who sat out least sit out.
        sat = sat_out or {}
        bottom_up = sorted(reversed(ordered), key=lambda p: sat.get(p, 0))
        sitting_out = bottom_up[:out]
        ordered = [p for p in ordered if p not in sitting_out]
    rank = {p: i for i, p in enumerate(ordered)}
    tables: list[list[int]] = []
    i = 0
    for s in sizes:
        tables.append(ordered[i : i + s])
        i += s
    improved = True
    while improved:
        improved = False
        for x in range(len(tables)):
            # Swaps with the next few tables only: players stay near their score.
            for y in range(x + 1, min(len(tables), x + 4)):
                tx, ty = tables[x], tables[y]
                base = _cost(tx, met, rank) + _cost(ty, met, rank)
                for a in range(len(tx)):
                    for b in range(len(ty)):
                        tx[a], ty[b] = ty[b], tx[a]
                        now = _cost(tx, met, rank) + _cost(ty, met, rank)
                        if now < base:
                            base = now
                            improved = True
                        else:
                            tx[a], ty[b] = ty[b], tx[a]
    tables.sort(key=lambda t: min(rank[p] for p in t))
    counts = seat_counts or {}
    return Grouping([seat_order(t, counts) for t in tables], sitting_out)
