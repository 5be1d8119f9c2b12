"""A 3D cardChess ruleset: the seats' preset, the rooks' values, what is counted.

Kept apart from games/cardchess/state.py, which is compiled with mypyc (games/compiled.py):
a ruleset is a plain frozen dataclass subclassing games.core's, read by the ledger too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.cardchess import cards as C
from games.core import Ruleset

JSON = Any


@dataclass(frozen=True)
class CardChessRuleset(Ruleset):
    """``rook_values``: (blue, green) rook values, published (6, 5).

    ``counted``: which captured cards score: ``"all"`` (every card gained) or ``"table"``
    (only the table pieces captured). ``removed_pawn``: the value-1 pawn taken out for four.
    """

    rook_values: tuple[int, ...] = C.PUBLISHED_ROOKS
    counted: str = "all"
    removed_pawn: str = "bP1l"

    def to_json(self) -> dict[str, JSON]:
        # seats follow from the preset; core's Game.ruleset() refuses it as an override
        plain = super().to_json()
        plain.pop("seats", None)
        return plain

    @property
    def decks(self) -> int:
        return 1 if self.seats == 2 else 2

    @property
    def gold(self) -> int:
        return C.GOLD_PER_DECK * self.decks

    # cardchess.deal.deck: the published deck, two merged for three or four players, less one
    # value-1 pawn for four; the gold cards are kept apart (gold).
    def deck(self) -> list[int]:
        cards = C.one_deck() * self.decks
        if self.seats == 4:
            cards.remove(C.BY_CODE[self.removed_pawn])
        return cards
