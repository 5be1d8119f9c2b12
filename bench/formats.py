"""Swiss pairing speed: `bench_swiss(players)` plays a simulated event through the same
pairing function the organiser's page calls and returns the seconds of the slowest round
paired (rounds 2 to ``rounds``, with real history: scores, sides, floats, byes and met
pairs). `bench_dutch()` measures the exact FIDE Dutch engine at 40, 100 and 200 players
and the default settings at the same sizes (the exact engine up to the competition's
limit, 200 by default, the fallback above it), and the exact engine through a 9-round
event of 199 players."""

from __future__ import annotations

import random
import time

from ledger.formats.pairing.swiss import EXACT_LIMIT, SwissPlayer, key, pair_swiss


def bench_swiss(
    players: int, rounds: int = 5, seed: int = 2026, exact_limit: int = EXACT_LIMIT
) -> float:
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
        result = pair_swiss(
            field, met=met, round_number=number, total_rounds=rounds, exact_limit=exact_limit
        )
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


def bench_dutch(quick: bool = False) -> dict[str, float]:
    """Slowest round (2 to 3 quick, 2 to 4 full) at each size: exact Dutch and defaults;
    in the full run also the slowest of rounds 2 to 9 of a 9-round event of 199 players
    (an odd field late in an event: more score groups and forbidden pairs, and a bye)."""
    rounds = 3 if quick else 4
    out: dict[str, float] = {}
    for n in (40, 100) if quick else (40, 100, 200):
        out[f"swiss.dutch_{n}_s"] = bench_swiss(n, rounds=rounds, exact_limit=10_000)
        out[f"swiss.default_{n}_s"] = bench_swiss(n, rounds=rounds)
    if not quick:
        out["swiss.dutch_199_9rounds_s"] = bench_swiss(199, rounds=9, exact_limit=10_000)
    return out


if __name__ == "__main__":
    import sys

    quick = "--quick" in sys.argv
    for name, value in bench_dutch(quick).items():
        print(f"{name}: {value:.3f} s", flush=True)
