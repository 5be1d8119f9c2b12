"""Swiss pairing speed: `bench_swiss(players)` plays a simulated event through the same
pairing function the organiser's page calls and returns the seconds of the slowest round
paired (rounds 2 to 5, with real history: scores, sides, floats, byes and met pairs)."""

from __future__ import annotations

import random
import time

from ledger.formats.pairing.swiss import SwissPlayer, key, pair_swiss


def bench_swiss(players: int, rounds: int = 5, seed: int = 2026) -> float:
    rng = random.Random(seed)
    field = [
        SwissPlayer(id=i, rating=rng.randint(1200, 2400), number=i) for i in range(1, players + 1)
    ]
    by_id = {p.id: p for p in field}
    met: set[tuple[int, int]] = set()
    slowest = 0.0
    for number in range(1, rounds + 1):
        before = {p.id: p.score for p in field}
        start = time.perf_counter()
        result = pair_swiss(field, met=met, round_number=number, total_rounds=rounds)
        elapsed = time.perf_counter() - start
        if number > 1:
            slowest = max(slowest, elapsed)
        if result.bye is not None:
            by_id[result.bye].byes += 1
            by_id[result.bye].score += 1
            by_id[result.bye].floats.append("down")
        for a, b in result.pairs:
            met.add(key(a, b))
            pa, pb = by_id[a], by_id[b]
            x = rng.random()
            if x < 0.45:
                pa.score += 1
            elif x < 0.9:
                pb.score += 1
            else:
                pa.score += 0.5
                pb.score += 0.5
            pa.sides.append(0)
            pb.sides.append(1)
            for me, other in ((pa, pb), (pb, pa)):
                diff = before[me.id] - before[other.id]
                me.floats.append("down" if diff > 0 else "up" if diff < 0 else "none")
    return slowest


if __name__ == "__main__":
    for n in (40, 100, 1000):
        print(f"{n} players: {bench_swiss(n):.3f} s")
