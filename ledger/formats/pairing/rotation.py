"""League-night seating: tables of the game's size, rotating so that over a season
everyone meets everyone as evenly as possible.

Two sources of candidate seatings are weighed against the history of who met whom:
- a *movement*, as bridge clubs use: a fixed schedule over the players in league-number
  order that spreads meetings perfectly when the same players come every night. Two seats:
  the Berger round robin (from caissify-pairings); k seats and k*k players (k = 2, 3, 4, 5,
  7): the parallel classes of the affine plane of order k; k players: one table.
- a local search that seats tonight's players minimising the sum of squares of how often
  each pair will have met (this evens the counts out) when attendance varies.
The best candidate by (spread of meeting counts, sum of squares, seat balance) wins, the
movement on ties, since only the movement keeps later nights perfect.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import permutations

from caissify_pairings.engines.round_robin import berger_round

Pair = tuple[int, int]


def key(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass
class Seating:
    tables: list[list[int]]  # player ids in seat order
    sitting_out: list[int]
    source: str  # "movement" or "search"


def table_sizes(n: int, size: int, allowed: tuple[int, ...]) -> tuple[list[int], int]:
    """How to split n players into tables of ``size`` (or the nearest allowed sizes).

    Returns (sizes, number sitting out)."""
    if n < min(allowed):
        return [], n
    if n % size == 0:
        return [size] * (n // size), 0
    tables = -(-n // size)
    base, extra = divmod(n, tables)
    sizes = [base + 1] * extra + [base] * (tables - extra)
    if all(s in allowed for s in sizes):
        return sizes, 0
    return [size] * (n // size), n % size


# --- finite fields for the affine planes -----------------------------------------------

_GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]


def _field(k: int) -> tuple[Callable[[int, int], int], Callable[[int, int], int]] | None:
    if k == 4:
        return (lambda a, b: a ^ b), (lambda a, b: _GF4_MUL[a][b])
    if k in (2, 3, 5, 7):
        return (lambda a, b: (a + b) % k), (lambda a, b: (a * b) % k)
    return None


def affine_rounds(k: int) -> list[list[list[int]]] | None:
    """The k+1 parallel classes of AG(2, k) over points 0..k*k-1: each pair of points
    shares exactly one table over the k+1 rounds."""
    ops = _field(k)
    if ops is None:
        return None
    add, mul = ops
    rounds: list[list[list[int]]] = []
    for slope in range(k):
        tables: list[list[int]] = [[] for _ in range(k)]
        for x in range(k):
            for y in range(k):
                # line y = slope*x + b  ->  b = y - slope*x; in GF(4) minus is plus.
                sx = mul(slope, x)
                b = next(c for c in range(k) if add(sx, c) == y)
                tables[b].append(x * k + y)
        rounds.append(tables)
    rounds.append([[x * k + y for y in range(k)] for x in range(k)])
    return rounds


def movement(n: int, size: int) -> list[list[list[int]]] | None:
    """A full cycle of rounds over positions 0..n-1, or None if no movement is known."""
    if size == 2:
        m = n + (n % 2)
        out = []
        for r in range(1, m):
            tables = [[a - 1, b - 1] for a, b in berger_round(m, r) if a <= n and b <= n]
            out.append(tables)
        return out
    if n == size:
        return [[list(range(n))]]
    for k in (2, 3, 4, 5, 7):
        if size == k and n == k * k:
            return affine_rounds(k)
    return None


# --- costs ------------------------------------------------------------------------------


def _cost(tables: list[list[int]], met: Mapping[Pair, int], everyone: list[int]) -> tuple[int, int]:
    """(spread of meeting counts among tonight's players, sum of squares) after the night."""
    added: dict[Pair, int] = {}
    for t in tables:
        for i, a in enumerate(t):
            for b in t[i + 1 :]:
                added[key(a, b)] = 1
    low, high, squares = None, 0, 0
    for i, a in enumerate(everyone):
        for b in everyone[i + 1 :]:
            c = met.get(key(a, b), 0) + added.get(key(a, b), 0)
            low = c if low is None else min(low, c)
            high = max(high, c)
            squares += c * c
    return (high - (low or 0), squares)


def _table_cost(t: list[int], met: Mapping[Pair, int]) -> int:
    return sum(8 ** met.get(key(a, b), 0) for i, a in enumerate(t) for b in t[i + 1 :])


def search(
    players: list[int], sizes: list[int], met: Mapping[Pair, int], seed: int = 0
) -> list[list[int]]:
    """Seat players in tables of the given sizes, lowering the sum over tables of
    8^(times met), which puts avoiding a repeat first, by pairwise swaps until no swap
    helps (a few random restarts)."""
    rng = random.Random(seed)
    best: list[list[int]] | None = None
    best_cost = 0
    for attempt in range(12):
        order = list(players)
        rng.shuffle(order)
        tables: list[list[int]] = []
        i = 0
        for s in sizes:
            tables.append(order[i : i + s])
            i += s
        improved = True
        while improved:
            improved = False
            for x in range(len(tables)):
                for y in range(x + 1, len(tables)):
                    tx, ty = tables[x], tables[y]
                    base = _table_cost(tx, met) + _table_cost(ty, met)
                    for i in range(len(tx)):
                        for j in range(len(ty)):
                            tx[i], ty[j] = ty[j], tx[i]
                            if _table_cost(tx, met) + _table_cost(ty, met) < base:
                                base = _table_cost(tx, met) + _table_cost(ty, met)
                                improved = True
                            else:
                                tx[i], ty[j] = ty[j], tx[i]
        cost = sum(_table_cost(t, met) for t in tables)
        if best is None or cost < best_cost:
            best, best_cost = [list(t) for t in tables], cost
        if attempt >= 1 and len(players) > 60:
            break
    return best or []


def seat_order(table: list[int], seat_counts: Mapping[tuple[int, int], int]) -> list[int]:
    """Order a table's players so that each takes the seats they have had least."""
    if len(table) > 6:
        return table
    best = min(
        permutations(table),
        key=lambda perm: (
            sum(seat_counts.get((p, i), 0) ** 2 for i, p in enumerate(perm)),
            perm,
        ),
    )
    return list(best)


def league_night(
    present: list[int],
    *,
    size: int,
    allowed: tuple[int, ...],
    met: Mapping[Pair, int],
    seat_counts: Mapping[tuple[int, int], int] | None = None,
    sat_out: Mapping[int, int] | None = None,
    seed: int = 0,
) -> Seating:
    """Seat tonight's players. ``present`` in league-number order (the movement's order);
    ``met`` counts earlier meetings; ``sat_out`` how often each has sat out (who sits out
    tonight, if anyone must, is whoever sat out least)."""
    sizes, out_count = table_sizes(len(present), size, allowed)
    sat_out = sat_out or {}
    sitting_out: list[int] = []
    if out_count:
        ranked = sorted(present, key=lambda p: (sat_out.get(p, 0), -present.index(p)))
        sitting_out = ranked[:out_count]
    playing = [p for p in present if p not in sitting_out]
    if not sizes:
        return Seating([], list(present), "none")
    candidates: list[tuple[tuple[int, int], int, list[list[int]], str]] = []
    # Two seats and an odd number: the Berger movement's phantom decides who sits out.
    moving = present if size == 2 and len(present) % 2 else playing
    cycle = movement(len(moving), size) if len(set(sizes)) == 1 else None
    if cycle:
        for tables in cycle:
            seated = [[moving[i] for i in t] for t in tables]
            candidates.append((_cost(seated, met, present), 0, seated, "movement"))
    found = search(playing, sizes, met, seed)
    candidates.append((_cost(found, met, present), 1, found, "search"))
    candidates.sort(key=lambda c: (c[0], c[1]))
    _, _, tables, source = candidates[0]
    seated_ids = {p for t in tables for p in t}
    counts = seat_counts or {}
    return Seating(
        [seat_order(t, counts) for t in tables],
        [p for p in present if p not in seated_ids],
        source,
    )
