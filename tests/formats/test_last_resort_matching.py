"""The Dutch engine's last-resort matcher: the first matching in the players' order in
which every pair may meet, as the pairing library's own backtracking finds it, but found
without searching every ordering first. The library's search took exponential time on a
group that cannot be paired (a Swiss draw of 24 players hung the suite)."""

from __future__ import annotations

import random
import time
from types import SimpleNamespace
from typing import Any

import pytest
from caissify_pairings.engines.dutch import DutchEngine

from ledger.formats.pairing import swiss

# The mixin's method, called on a plain object as the library's is.
OURS: Any = swiss._RankedSides._backtrack_match


def _players(n: int, met: set[tuple[int, int]]) -> list[Any]:
    out = [SimpleNamespace(id=i, opponents=set()) for i in range(1, n + 1)]
    for a, b in met:
        out[a - 1].opponents.add(b)
        out[b - 1].opponents.add(a)
    return out


def _ids(pairs: list[Any] | None) -> list[tuple[int, int]] | None:
    return None if pairs is None else [(a.id, b.id) for a, b in pairs]


def test_a_group_that_cannot_be_paired_is_said_so_at_once() -> None:
    # The last of 24 has met everyone: no complete pairing exists, and the library's
    # search would try every pairing of the other 23 first.
    met = {(i, 24) for i in range(1, 24)}
    # The work it took, in this thread's processor time: the wall clock also counts the
    # time other programs of a loaded machine hold the processor.
    started = time.thread_time()
    found = OURS(SimpleNamespace(), _players(24, met), relaxed=True)
    assert found is None
    assert time.thread_time() - started < 5


@pytest.mark.parametrize("seed", range(40))
def test_the_matching_found_is_the_pairing_librarys_own(seed: int) -> None:
    rnd = random.Random(seed)
    n = rnd.randint(2, 11)
    pairs = [(a, b) for a in range(1, n + 1) for b in range(a + 1, n + 1)]
    met = set(rnd.sample(pairs, rnd.randint(0, len(pairs))))
    ours = OURS(SimpleNamespace(), _players(n, met), relaxed=True)
    theirs = DutchEngine._backtrack_match(SimpleNamespace(), _players(n, met), relaxed=True)
    assert _ids(ours) == _ids(theirs), (n, sorted(met))
