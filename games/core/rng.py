"""Seeded randomness: the same seed always gives the same deal and the same bot choices."""

from __future__ import annotations

import random


def rng(seed: int, *salt: int | str) -> random.Random:
    """A private generator for one purpose (the deal, a bot...), derived from the seed.

    Salting keeps streams independent: adding a bot never changes the deal of a seed.
    """
    return random.Random(repr((seed, *salt)))
