"""A heuristic player for San Marco's board: it values a position by what the districts
would pay its colour now, and plays the card, the offer and the Doge's stop that raise it most.

It reads only what its seat may see: the board, the scores, the offers it is shown.
"""

from __future__ import annotations

from games.core import rng
from games.sanmarco.actions import Act
from games.sanmarco.cards import BANISH, BRIDGE, DOGE, LIMIT_BASE, TRANSFER
from games.sanmarco.table import BoardState


class BoardBot:
    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "sanmarco-board-heuristic")

    def choose(self, state: BoardState, seat: int) -> Act:
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        if len(actions) == 1:
            return actions[0]
        colour = state.acting_colour()
        assert colour is not None
        do = actions[0].do
        if do == "pile":
            return self._divide(state, actions)
        if do == "choose":
            return max(actions, key=lambda a: (self._pile_value(state.piles[a.a]), -a.a))
        if do == "score":
            # variant 3: score the weaker colour, to keep the two close
            return min(actions, key=lambda a: (state.score[a.a], a.a))
        if do == "remove":
            # the strongest rival's aristocrats leave first
            return max(actions, key=lambda a: (state.score[a.a], -a.a))
        if do in ("doge", "stop") and state.pending is not None:
            return self._doge(state, colour, actions)
        scored = [(self._value(state, colour, a), i) for i, a in enumerate(actions)]
        best = max(v for v, _ in scored)
        pick = [i for v, i in scored if v == best]
        return actions[pick[self._rng.randrange(len(pick))]]

    # --- helpers --------------------------------------------------------------------------
    @staticmethod
    def _pile_value(pile: list[int]) -> float:
        actions = sum(1 for c in pile if c < LIMIT_BASE)
        limits = sum(c - LIMIT_BASE for c in pile if c >= LIMIT_BASE)
        return actions * 2.0 - limits * 1.2

    def _divide(self, state: BoardState, actions: list[Act]) -> Act:
        # keep the offers even in value: the next card goes to the weakest offer so far
        card = state.hand[len(state.assign)]
        worth = -1.2 * (card - LIMIT_BASE) if card >= LIMIT_BASE else 2.0
        sums: dict[int, float] = {}
        for c, q in zip(state.hand, state.assign, strict=False):
            sums[q] = sums.get(q, 0.0) + (-1.2 * (c - LIMIT_BASE) if c >= LIMIT_BASE else 2.0)
        if worth >= 0:
            return min(actions, key=lambda a: (sums.get(a.a, 0.0), a.a))
        return max(actions, key=lambda a: (sums.get(a.a, 0.0), -a.a))

    @staticmethod
    def _standing(state: BoardState, colour: int, d: int) -> int:
        return state.district_points(d, set())[colour]

    def _value(self, state: BoardState, colour: int, act: Act) -> float:
        """How much the action raises what the districts would pay this colour."""
        cubes = state.cubes
        if act.do == "district":
            d = act.b
            before = self._standing(state, colour, d)
            cubes[d][colour] += 1
            after = self._standing(state, colour, d)
            cubes[d][colour] -= 1
            return after - before + self._rng.random() * 0.1
        if act.do == "transfer":
            d, v = act.a, act.b
            before = self._standing(state, colour, d) - self._standing(state, v, d)
            cubes[d][v] -= 1
            cubes[d][colour] += 1
            after = self._standing(state, colour, d) - self._standing(state, v, d)
            cubes[d][v] += 1
            cubes[d][colour] -= 1
            return after - before + 0.5
        if act.do == "banish":
            others = sum(n for c, n in enumerate(cubes[act.a]) if c != colour)
            return min(others, 3) - cubes[act.a][colour] * 0.5
        if act.do == "bridge":
            return 0.5 + (cubes[act.a][colour] + cubes[act.b][colour]) * 0.1
        if act.do in ("doge", "stop"):
            here = state.district_points(state.doge, set())[colour]
            return here * 0.5 - (0 if act.do == "stop" else 0.3)
        if act.do == "skip":
            return -5.0 if act.a in (BRIDGE, TRANSFER, BANISH, DOGE) else -6.0
        return 0.0

    def _doge(self, state: BoardState, colour: int, actions: list[Act]) -> Act:
        here = state.district_points(state.doge, set())[colour]
        best, best_act = float(here), next(a for a in actions if a.do == "stop")
        for a in actions:
            if a.do != "doge":
                continue
            site, owner = state.bridges[a.a]
            x, y = state.board.sites[site]
            there = y if x == state.doge else x
            value = state.district_points(there, set())[colour] - (0 if owner == colour else 1)
            if value > best:
                best, best_act = value, a
        return best_act
