"""Bots shared by every game: a random legal player. Heuristic bots live with their game."""

from __future__ import annotations

from typing import Any

from games.core.rng import rng


class RandomBot:
    """Picks uniformly among the legal actions, from its own seeded stream."""

    def __init__(self, seed: int) -> None:
        self._rng = rng(seed, "random-bot")

    def choose(self, state: Any, seat: int) -> Any:
        actions = state.legal_actions(seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has no legal action")
        return actions[self._rng.randrange(len(actions))]
