"""Er Giò's ruleset: a variant and the options where clubs read the rule text differently.

It lives apart from games/ergio/state.py because that module is compiled by mypyc
(games/compiled.py), whose classes cannot extend ``Ruleset``, a dataclass of plain Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.core import Ruleset

JSON = Any


@dataclass(frozen=True)
class ErGioRuleset(Ruleset):
    """A variant of Er Giò and the options where clubs read the rule text differently.

    ``advanced``: specials, Celatini played singly, Guardie protecting hand and field.
    ``turn_draw``: cards drawn at the start of a Corteo turn (ragazzi: 3).
    ``hand_size``: cards dealt to each player; ``hand_limit``: most cards held at the end of a
    turn (0: no limit). ``battle_draw``: cards each player draws after a scontro.
    ``tie_order``: figures' order on equal force (``magistrato_first``, ``caposchiera_first``,
    ``count_first``). ``bella_sums``: what the Bella Nazionale adds up (``scontro``: the totals
    fought; ``laid``: the laid cards only). ``dry_corteo``: who wins a Corteo that nobody
    completes before the decks run dry (``most_complete`` or ``laid_force``). ``first_side``:
    who opens (the side that lost the last Gioco del Ponte). ``all_six``: fight all six scontri
    (false: stop when a side has four). ``max_turns``: Corteo turns before it is closed as dry.
    """

    advanced: bool = False
    turn_draw: int = 2
    hand_size: int = 12
    hand_limit: int = 12
    battle_draw: int = 2
    tie_order: str = "magistrato_first"
    bella_sums: str = "scontro"
    dry_corteo: str = "most_complete"
    first_side: str = "tramontana"
    all_six: bool = True
    max_turns: int = 200

    def to_json(self) -> dict[str, JSON]:
        plain = super().to_json()
        plain.pop("seats", None)
        return plain

    @property
    def multi(self) -> bool:
        return self.seats > 2

    @property
    def effects(self) -> bool:
        # ergio.multi.battle.specials_zero: with four or six this is false, so Celatini, Guardie and
        # specials placed face down count zero (battle.assess counts only combattenti then).
        """Celatini and Guardie act as reinforcements (advanced game for two only)."""
        return self.advanced and self.seats == 2
