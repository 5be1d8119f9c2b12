"""A heuristic player: put cards that can capture on the most valuable pieces, keep the rest."""

from __future__ import annotations

from typing import Any

from games.cardchess import cards as C
from games.cardchess.state import CardChessState, Play
from games.core import rng

# worth of a table piece to this bot: its points, plus the reame pieces' promise
WORTH = tuple(
    C.POINTS[t] + (3 if C.piece(t) in (C.KING, C.QUEEN, C.CASTLE) else 0) for t in range(C.TYPES)
)


class HeuristicBot:
    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "cardchess-heuristic")

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        if len(actions) == 1 or not isinstance(actions[0], Play):
            return actions[0]
        assert isinstance(state, CardChessState)
        table = state.b.table
        can = state.t.can
        value = state.t.value
        best: list[Any] = []
        best_score = -1e9
        for action in actions:
            score = 0.0
            for pos, c in enumerate(action.cards):
                if c < 0:
                    continue
                t = table[pos]
                if can[c][t]:
                    # a capture is contested: a higher card is likelier to hold it
                    score += WORTH[t] + WORTH[c] + 0.3 * value[c]
                else:
                    score -= 0.2 * WORTH[c]  # a wasted card feeds someone else's capture
            if score > best_score + 1e-9:
                best_score, best = score, [action]
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return best[self._rng.randrange(len(best))]
