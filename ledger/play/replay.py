"""From the move log to the game's state: the log is the truth, the state is derived.

Replaying a whole game costs well under a millisecond per move on every engine, so the
state is rebuilt on each request instead of being stored (nothing can drift from the log).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.core import registry
from games.core.bots import make_bot as core_make_bot
from games.core.engine import Bot, Game, State


def engine(slug: str) -> Game[Any, Any]:
    return registry.get(slug)


def bot_kinds(slug: str) -> list[str]:
    """The bot kinds a seat can be given for this game: random first, then the game's own."""
    return ["random", *[k for k in engine(slug).bots if k != "random"]]


def make_bot(slug: str, kind: str, seed: int) -> Bot:
    bot: Bot = core_make_bot(engine(slug), kind, seed)
    return bot


def bot_seed(table_seed: int, seat: int, step: int) -> int:
    # One seed per decision, so a bot's choice depends only on the table and the step
    # (the same whether it runs in the web process or in a worker, first time or retry).
    return (table_seed * 1_000_003 + seat * 7919 + step) % (2**31)


def as_step(seat: int, action: Mapping[str, Any]) -> dict[str, Any]:
    return {"seat": seat, **{k: v for k, v in action.items() if k != "seat"}}


def replay(slug: str, deal: Mapping[str, Any], moves: Iterable[tuple[int, Any]]) -> State:
    """The state after these (seat, encoded action) moves, on the unchecked path: every
    move in the log was checked when it was made."""
    game = engine(slug)
    state: State = game.start(deal)
    for seat, action in moves:
        _, decoded = game.decode_step(as_step(seat, action), "actions")
        state.apply_unchecked(seat, decoded)
    return state


def record(slug: str, deal: Mapping[str, Any], moves: Iterable[tuple[int, Any]]) -> dict[str, Any]:
    """The game's record in its notation: the deal and every move so far."""
    return replay(slug, deal, moves).to_record()
