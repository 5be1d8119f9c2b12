"""Single elimination: seeding, byes, best-of-N matches."""

from __future__ import annotations

from dataclasses import dataclass


def bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Seeds (1-based) in bracket slot order so that 1 and 2 can meet only in the final,
    1-4 only in the semi-finals, and so on: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return order


@dataclass
class Slot:
    """One first-round match: the two players (None is a bye)."""

    a: int | None
    b: int | None


def first_round(seeded: list[int]) -> list[Slot]:
    """``seeded``: player ids, best seed first. Byes fall to the top seeds."""
    size = bracket_size(max(len(seeded), 2))
    order = seed_order(size)
    slots = [seeded[s - 1] if s <= len(seeded) else None for s in order]
    return [Slot(slots[i], slots[i + 1]) for i in range(0, size, 2)]


def rounds_needed(n: int) -> int:
    size, r = bracket_size(max(n, 2)), 0
    while size > 1:
        size //= 2
        r += 1
    return r


def wins_needed(best_of: int) -> int:
    return best_of // 2 + 1


def match_winner(games: list[tuple[float, float]], best_of: int) -> int | None:
    """0 or 1 once a side has won a majority of ``best_of`` games; drawn games count for
    neither. None while undecided."""
    need = wins_needed(best_of)
    won = [0, 0]
    for a, b in games:
        if a > b:
            won[0] += 1
        elif b > a:
            won[1] += 1
    if won[0] >= need:
        return 0
    if won[1] >= need:
        return 1
    return None
