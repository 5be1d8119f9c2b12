"""What a game declares about its summaries, for the pages and forms that are built from it.

A summary's field that takes one of a list of values (an Er Giò magistratura, a Bridge's
Game magistratura) is declared by the game as ``Choice`` values: the value the summary
carries, its words in Italian and English, and whom it concerns (the side it belongs to,
and under a ruleset the seat that commands it). The ledger builds its pickers from these and
never reads a game's internal tables.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.text import Text


@dataclass(frozen=True, slots=True)
class Choice:
    value: str
    label: Text
    side: int | None = None
    seat: int | None = None
