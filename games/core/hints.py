"""A hint for a player: the move the game's heuristic bot would make now, and why, in words
(Italian and English). A game's heuristic bot may say its reason (``why(state, seat,
action)``), as a ``Reason``: its words and, as a small reference, the id of the rule of the
game's rule book it rests on; otherwise the hint says what the engine knows (the only move,
or how many there were) and that it is the bot's usual choice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core.bots import make_bot
from games.core.text import Text


@dataclass(frozen=True, slots=True)
class Reason(Text):
    """A hint's reason in words, with the id of the rule it rests on ("" for none): the
    pages show the words and the id only as a small link to the rule."""

    rule: str = ""


def hint(game: Any, state: Any, seat: int, seed: int) -> tuple[Any, Text]:
    """(action, reason): a legal move for ``seat``, which must be to act. The reason is a
    ``Reason`` when the game's bot names the rule behind it."""
    actions = state.legal_actions(seat)
    if not actions:
        raise RuntimeError(f"seat {seat} has no legal action")
    if len(actions) == 1:
        return actions[0], Text("È l'unica mossa possibile.", "It is the only legal move.")
    bot = make_bot(game, "heuristic" if "heuristic" in game.bots else "random", seed)
    action = bot.choose(state, seat)
    why = getattr(bot, "why", None)
    reason = why(state, seat, action) if why is not None else None
    if reason is None:
        n = len(actions)
        reason = Text(
            f"Fra le tue {n} mosse possibili è quella che sceglierebbe qui il bot euristico.",
            f"Of your {n} possible moves it is the one the heuristic bot would choose here.",
        )
    return action, reason


def rule_of(why: Text) -> str:
    """The rule id a hint's reason names ("" when it names none)."""
    return why.rule if isinstance(why, Reason) else ""
