"""Seeded randomness: the same seed always gives the same deal and the same bot choices."""

from __future__ import annotations

import random
from typing import Any


def rng(seed: int, *salt: int | str) -> random.Random:
    """A private generator for one purpose (the deal, a bot...), derived from the seed.

    Salting keeps streams independent: adding a bot never changes the deal of a seed.
    """
    return random.Random(repr((seed, *salt)))


#: bit lengths of 0..1024, read instead of calling int.bit_length for each card
_BITS: tuple[int, ...] = tuple(n.bit_length() for n in range(1025))


def _shuffle_same_as_random(rand: random.Random, items: list[Any]) -> None:
    # random.Random.shuffle's own steps (Fisher-Yates from the end, each index drawn by
    # rejection from getrandbits of its bit length) without its two calls per item
    getrandbits = rand.getrandbits
    bits = _BITS
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = bits[n] if n < 1025 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _agrees() -> bool:
    for size in (0, 1, 2, 7, 72, 77, 200):
        mine, theirs = list(range(size)), list(range(size))
        _shuffle_same_as_random(random.Random(f"check {size}"), mine)
        random.Random(f"check {size}").shuffle(theirs)
        if mine != theirs:
            return False
    return True


#: whether this Python's random.shuffle takes the steps copied above (checked at import, so a
#: Python that shuffles otherwise keeps its own shuffle and every seed deals as before)
_SAME: bool = _agrees()


def shuffle(rand: random.Random, items: list[Any]) -> None:
    """``rand.shuffle(items)``, to the same order, a little faster (the engines' deals)."""
    if _SAME:
        _shuffle_same_as_random(rand, items)
    else:
        rand.shuffle(items)
