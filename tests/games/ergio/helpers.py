"""Build Er Giò states with chosen deck tops, for tests of single rules."""

from __future__ import annotations

from typing import Any

from games.core import Violation
from games.ergio import GAME
from games.ergio import cards as C
from games.ergio.state import ErGioState


def code(c: str) -> int:
    return C.BY_CODE[c]


def deck_with_top(side: int, advanced: bool, top: list[str]) -> list[int]:
    deck = C.deck(side, advanced)
    first = [code(c) for c in top]
    for c in first:
        deck.remove(c)
    return first + deck


def make(
    name: str = "base", t: list[str] | None = None, m: list[str] | None = None, **rs: Any
) -> ErGioState:
    ruleset = GAME.ruleset({"name": name, **rs})
    decks = (
        deck_with_top(0, ruleset.advanced, t or []),
        deck_with_top(1, ruleset.advanced, m or []),
    )
    return ErGioState(ruleset, decks, seed=7)


def rules(found: list[Violation]) -> list[str]:
    return [v.rule for v in found]


# Seat 0 (Tramontana) is dealt 12 and draws 2: these 14 hold one tris (Santa Maria).
T14 = [
    "SMA-MAG", "SMA-CAP", "SMA-7", "SFR-2", "SMI-3", "MAT-4", "CAL-5",
    "SAT-6", "T-CEL", "T-GCCC", "T-GCSC", "SFR-3", "SMI-4", "SMA-2",
]  # fmt: skip
# Seat 1 (Mezzogiorno) is dealt 12 and draws 2 on its turn: one tris (Sant'Antonio).
M14 = [
    "SAN-7", "SAN-6", "SAN-5", "SMR-2", "SMC-3", "LEO-4", "DRA-5",
    "DEL-6", "M-CEL", "M-GCCC", "M-GCSC", "SMR-3", "SMC-4", "LEO-5",
]  # fmt: skip
