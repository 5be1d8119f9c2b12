"""Results whose winner only the engine's Outcome knows: the points are level between a
winner and a loser (an Er Giò match at 3-3 decided by the Bella Nazionale, a cardChess game
on the deciding sfida, a San Marco variant-3 tie-break). Each is a summary a scorekeeper
would type, written from a game the random bots played through the engine itself, so the
ledger scores it through the game's real ``score()``."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from games.core import RandomBot, play, registry


@dataclass(frozen=True)
class Typed:
    """A summary to type at a table, with what its Outcome says."""

    game: str
    ruleset: str
    summary: dict[str, Any]
    scores: tuple[Any, ...]
    winners: tuple[int, ...]
    level: bool  # a winner's points equal a loser's: only the Outcome knows who won
    sides: tuple[int, ...] = ()  # each seat's side, in a game of two sides


def _level(scores: tuple[Any, ...], winners: tuple[int, ...]) -> bool:
    losers = [s for s in range(len(scores)) if s not in winners]
    return any(scores[w] == scores[o] for w in winners for o in losers)


@functools.cache
def decided(game: str, seats: int, tries: int = 300) -> Typed | None:
    """A summary of ``game`` at a table of ``seats`` that somebody won (not everyone), with
    level points where one of the game's rulesets for that many seats allows it within
    ``tries`` random games; None when the game has no ruleset for that many seats."""
    engine = registry.get(game)
    names = [n for n in engine.rulesets if engine.ruleset(n).seats == seats]
    fallback: Typed | None = None
    for name in names:
        ruleset = engine.ruleset(name)
        for seed in range(tries):
            state = engine.new_game(ruleset, seed)
            play(engine, state, [RandomBot(seed + i) for i in range(seats)])
            outcome = state.outcome()
            if not outcome.winners or len(outcome.winners) == seats:
                continue
            summary = json.loads(json.dumps(state.summary()))
            found = Typed(game, name, summary, tuple(outcome.scores), tuple(outcome.winners), False)
            if _level(found.scores, found.winners):
                return Typed(game, name, summary, found.scores, found.winners, True)
            fallback = fallback or found
    return fallback
