"""Build Er Giò states with chosen deck tops, for tests of single rules."""

from __future__ import annotations

import copyreg
import dataclasses
from typing import Any

from games.core import Violation
from games.ergio import GAME
from games.ergio import actions as A
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


def fields(obj: Any) -> dict[str, Any]:
    """An object's attributes by name: its ``__dict__`` in plain Python; compiled by mypyc
    (games/compiled.py), the attributes its class declares and the instance has set."""
    out = dict(getattr(obj, "__dict__", {}))
    for name in getattr(type(obj), "__mypyc_attrs__", ()):
        if name != "__dict__" and hasattr(obj, name):
            out[name] = getattr(obj, name)
    return out


def _rebuild_state(attrs: dict[str, Any]) -> ErGioState:
    # a compiled class's __new__ runs __init__: the game is dealt again from its own deal,
    # then every attribute is replaced
    state = ErGioState(attrs["ruleset"], attrs["deal"], attrs["seed"])
    for name, value in attrs.items():
        setattr(state, name, value)
    return state


def _reduce_state(state: ErGioState) -> tuple[Any, tuple[dict[str, Any]]]:
    return _rebuild_state, (fields(state),)


def _reduce_action(action: Any) -> tuple[Any, tuple[Any, ...]]:
    return type(action), tuple(getattr(action, f.name) for f in dataclasses.fields(action))


def copy_compiled_states() -> None:
    """Let ``copy.deepcopy`` and ``pickle`` copy Er Giò's states and actions when they are
    compiled: mypyc's instances have no ``__dict__`` of their attributes to copy, and its
    frozen dataclasses refuse the attributes being set one by one after they are made, so
    both are rebuilt from their attributes (plain Python needs nothing of this)."""
    if hasattr(ErGioState, "__mypyc_attrs__"):
        copyreg.pickle(ErGioState, _reduce_state)
    for cls in (
        A.Lay, A.Add, A.Swap, A.Celatino, A.Special, A.Pass, A.Draw, A.Arno, A.End,
        A.Sabotage, A.Send, A.Reinforce, A.Ready,
    ):  # fmt: skip
        if hasattr(cls, "__mypyc_attrs__"):
            copyreg.pickle(cls, _reduce_action)
