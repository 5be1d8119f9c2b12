"""Provably fair deals: a table's seed is committed to before the first card and revealed
after the last one.

The commitment is the SHA-256 of the seed and the table's id, written as ``"<seed>:<table>"``
in ASCII. Anyone holding the revealed seed recomputes it and replays the deal with
``python -m games GAME deal --seed S --table N``: the same seed always deals the same cards
(games.core.rng), so a deal that matches its commitment was fixed before anyone played.
"""

from __future__ import annotations

import hashlib


def commitment(seed: int, table: int) -> str:
    """The hex SHA-256 of ``"<seed>:<table>"``."""
    return hashlib.sha256(f"{int(seed)}:{int(table)}".encode("ascii")).hexdigest()
