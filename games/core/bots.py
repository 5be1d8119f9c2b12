"""Bots shared by every game: a random legal player, and the one factory that makes any
game's bot by its kind. Heuristic bots live with their game."""

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


def make_bot(game: Any, kind: str, seed: int) -> Any:
    """A bot of ``kind`` for ``game`` from ``seed``: "random" for every game, else one of the
    kinds the game declares in ``bots`` (a KeyError names an unknown kind)."""
    if kind == "random":
        return RandomBot(seed)
    return game.bots[kind](seed)
