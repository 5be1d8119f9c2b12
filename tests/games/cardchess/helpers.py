"""Building typed records for tests: a deck with chosen first cards, the rest in any order."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.cardchess import GAME, CardChessState
from games.cardchess import cards as C


def deck_with(prefix: list[str], ruleset: str = "2p") -> list[str]:
    rest = Counter(GAME.ruleset(ruleset).deck())
    for code in prefix:
        rest[C.BY_CODE[code]] -= 1
    assert all(v >= 0 for v in rest.values()), "the prefix has more copies than the deck"
    return prefix + [C.CODES[t] for t in sorted(rest.elements())]


def record(prefix: list[str], actions: list[dict[str, Any]], ruleset: str = "2p") -> dict[str, Any]:
    return {
        "game": "cardchess",
        "version": 1,
        "ruleset": {"name": ruleset},
        "deal": {"sfide": [{"deck": deck_with(prefix, ruleset)}]},
        "actions": actions,
    }


def conserved(state: CardChessState) -> bool:
    """Every card of the sfida's deck is in exactly one place."""
    return state.cards_in_play() == Counter(state.ruleset.deck())
