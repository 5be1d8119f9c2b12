"""A cloned cardChess state (the strong bot's search plays on clones) is the state again,
attribute for attribute, and shares nothing that a move changes: playing on the clone leaves
the original as it was. Holds for the compiled engine (games/compiled.py) and the source."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import pytest

from games.cardchess import GAME, CardChessState
from games.cardchess.bots import HeuristicBot


def fields(obj: Any) -> dict[str, Any]:
    """An object's attributes by name: its ``__dict__`` from source; compiled, the
    attributes its class declares."""
    names = getattr(type(obj), "__mypyc_attrs__", None)
    if names is None:
        return dict(vars(obj))
    return {n: getattr(obj, n) for n in names if n != "__dict__" and hasattr(obj, n)}


def plain(value: Any) -> Any:
    """A value with its dataclasses opened, to compare by content."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def snapshot(state: CardChessState) -> dict[str, Any]:
    return {name: plain(value) for name, value in fields(state).items()}


def states(ruleset: str, seed: int, every: int = 7) -> list[CardChessState]:
    """States met along a seeded game between heuristic bots."""
    state = GAME.new_game(GAME.ruleset(ruleset), seed)
    bots = [HeuristicBot(seed * 10 + s) for s in range(state.ruleset.seats)]
    out, step = [], 0
    while not state.is_over():
        seat = state.to_act()
        assert seat is not None
        if step % every == 0:
            out.append(state.clone())
        state.apply_unchecked(seat, bots[seat].choose(state, seat))
        step += 1
    return out


@pytest.mark.parametrize("ruleset", ["2p", "3p", "4p"])
def test_a_clone_is_the_state_and_playing_on_it_leaves_the_state_alone(ruleset: str) -> None:
    for original in states(ruleset, seed=5)[::9]:
        before = snapshot(original)
        for twin in (original.clone(), copy.deepcopy(original)):
            assert snapshot(twin) == before
            bots = [HeuristicBot(s) for s in range(twin.ruleset.seats)]
            for _move in range(40):
                seat = twin.to_act()
                if seat is None or twin.is_over():
                    break
                twin.apply_unchecked(seat, bots[seat].choose(twin, seat))
            assert snapshot(original) == before
