"""The fast exact Dutch engine pairs exactly as the library's own (slow) bracket loop, and its
incremental matcher finds the optimum networkx finds, after every change of weights."""

from __future__ import annotations

import copy
import random

import networkx as nx  # type: ignore[import-untyped]
import pytest

from ledger.formats.pairing.matching import Matcher, NoPerfectMatching
from ledger.formats.pairing.swiss import SwissPlayer, key, pair_swiss


def _networkx_optimum(n: int, weights: dict[tuple[int, int], int]) -> tuple[int, int]:
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    for (a, b), w in weights.items():
        if w > 0:
            graph.add_edge(a, b, weight=w)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    return len(matching), sum(weights[key(a, b)] for a, b in matching)


@pytest.mark.parametrize("seed", range(40))
def test_the_matcher_keeps_the_networkx_optimum_through_weight_changes(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 26)
    density = rng.choice([0.6, 0.9, 1.0])
    top = rng.choice([3, 50, 2**300])  # ties galore, and weights wider than any machine word
    weights: dict[tuple[int, int], int] = {}
    matcher = Matcher(n)
    for a in range(n):
        for b in range(a + 1, n):
            weights[(a, b)] = rng.randint(1, top) if rng.random() < density else 0
            matcher.set(a, b, weights[(a, b)])
    for _ in range(12):
        size, total = _networkx_optimum(n, weights)
        try:
            mate = matcher.solve()
        except NoPerfectMatching:
            assert size < n // 2  # it gives up only when no (near-)perfect matching exists
            matcher = Matcher(n)
            for (a, b), w in weights.items():
                matcher.set(a, b, w)
        else:
            pairs = {key(v, mate[v]) for v in range(n) if mate[v] != v}
            assert all(mate[mate[v]] == v for v in range(n))
            assert all(weights[p] > 0 for p in pairs)
            assert (len(pairs), sum(weights[p] for p in pairs)) == (size, total)
        # the Dutch engine's way: change the edges of one or two players, then solve again
        for _ in range(rng.randint(1, 2)):
            v = rng.randrange(n)
            for u in range(n):
                if u != v and rng.random() < 0.5:
                    k = key(u, v)
                    step = top // 3 + 1
                    new = max(0, weights[k] + rng.randint(-step, step))
                    weights[k] = new if rng.random() < 0.85 else 0
                    matcher.set(k[0], k[1], weights[k])


def _play(field: list[SwissPlayer], met: set[tuple[int, int]], result, rng) -> None:  # type: ignore[no-untyped-def]
    by_id = {p.id: p for p in field}
    before = {p.id: p.score for p in field}
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


@pytest.mark.parametrize("seed", range(10))
def test_the_fast_dutch_engine_pairs_every_round_as_the_library_engine(seed: int) -> None:
    """Seeded tournaments of 20 to 60 players, odd and even, 4 to 6 rounds: every round
    (pairs, seats and bye) is the same from both engines given the same history."""
    rng = random.Random(seed)
    n = rng.randint(20, 60)
    rounds = rng.randint(4, 6)
    field = [SwissPlayer(id=i, rating=rng.randint(1200, 2400), number=i) for i in range(1, n + 1)]
    met: set[tuple[int, int]] = set()
    for number in range(1, rounds + 1):
        args = {"round_number": number, "total_rounds": rounds, "exact_limit": 10_000}
        fast = pair_swiss(copy.deepcopy(field), met=set(met), dutch="fast", **args)
        library = pair_swiss(copy.deepcopy(field), met=set(met), dutch="library", **args)
        assert fast.engine == library.engine == "dutch"
        assert (fast.pairs, fast.bye) == (library.pairs, library.bye), (n, number)
        _play(field, met, fast, rng)


def test_crowded_small_fields_fall_back_to_networkx_and_still_pair_as_the_library(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Small fields where most pairs already met: often no complete matching exists, the
    matcher says so, networkx solves that step, and the round is still the library's."""
    import itertools

    from ledger.formats.pairing import dutch

    gave_up = []
    solve = dutch.Matcher.solve

    def spy(self: Matcher) -> list[int]:
        try:
            return solve(self)
        except NoPerfectMatching:
            gave_up.append(self.n)
            raise

    monkeypatch.setattr(dutch.Matcher, "solve", spy)
    for seed in range(80):
        rng = random.Random(seed)
        n = rng.randint(4, 12)
        played = rng.randint(1, n - 2)
        players = [
            SwissPlayer(
                id=i,
                score=rng.randint(0, 2 * played) / 2,
                number=i,
                sides=[rng.randint(0, 1) for _ in range(played)],
                floats=[rng.choice(["up", "down", "none"]) for _ in range(played)],
                byes=int(rng.random() < 0.2),
            )
            for i in range(1, n + 1)
        ]
        met = {p for p in itertools.combinations(range(1, n + 1), 2) if rng.random() < 0.6}
        args: dict = {
            "met": met,
            "round_number": played + 1,
            "total_rounds": played + rng.randint(1, 3),
            "exact_limit": 100,
        }
        fast = pair_swiss(players, dutch="fast", **args)
        library = pair_swiss(players, dutch="library", **args)
        assert (fast.pairs, fast.bye, fast.extra_byes) == (
            library.pairs,
            library.bye,
            library.extra_byes,
        ), seed
    assert len(gave_up) > 10
