"""What a deal check of a 3D cardChess match compares against (games/core/verify_deal.py,
the replay page's "check this deal"): the cards each seat and the table received as the
engine replays the record, every sfida's first deal and, with two players, every card dealt
after a reshuffle of the discards.

Keys are the checkers' own: "<sfida>:<seat>" and "<sfida>:table" for a sfida's first deal,
"<sfida>:<seat>:reshuffle" and "<sfida>:table:reshuffle" for the cards dealt from its
reshuffled deck (sfide counted from 1, seats from 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.cardchess import cards as C
from games.core import RecordError, registry


def replay_items(record: Mapping[str, Any]) -> dict[str, list[str]]:
    """Each seat's and the table's cards as dealt in the replay (see the module)."""
    engine: Any = registry.get("cardchess")
    out: dict[str, list[str]] = {}
    try:
        state = engine.start({k: v for k, v in record.items() if k != "actions"})
    except RecordError:
        return out
    codes = C.CODES

    def first_deal() -> None:
        k = state.sfida + 1
        for s, hand in enumerate(state.b.hands):
            out[f"{k}:{s}"] = [codes[c] for c in hand]
        out[f"{k}:table"] = [codes[c] for c in state.b.table]

    if state.sfida >= 0 and not state.waiting:
        first_deal()
    try:
        for i, raw in enumerate(record.get("actions") or []):
            if state.over or state.waiting:
                break
            seat, action = engine.decode_step(raw, f"actions[{i}]")
            sfida, before = state.sfida, [list(h) for h in state.b.hands]
            pile, shuffled = len(state.b.pile), state.b.reshuffled
            state.apply_unchecked(seat, action)
            if state.sfida != sfida:
                if not state.waiting:
                    first_deal()
                continue
            b = state.b
            if b.reshuffled and (not shuffled or len(b.pile) < pile):
                k = state.sfida + 1
                for s, hand in enumerate(b.hands):
                    got = out.setdefault(f"{k}:{s}:reshuffle", [])
                    got += [codes[c] for c in hand[len(before[s]) :]]
                out.setdefault(f"{k}:table:reshuffle", []).extend(codes[c] for c in b.table)
    except (RecordError, ValueError, KeyError, IndexError):
        pass  # what was dealt as far as the record goes
    return out
