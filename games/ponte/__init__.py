"""The Bridge's Game (Il Gioco del Ponte, the board game): Tramontana against Mezzogiorno,
six challenges and a tie breaker, for 2, 3, 4 and 6 players in every mode."""

from games.ponte.game import Ponte
from games.ponte.model import Assign, Deploy, Equip, Fight, PonteRuleset, Termination
from games.ponte.rules import BOOK
from games.ponte.state import PonteState

GAME = Ponte()

__all__ = [
    "BOOK",
    "GAME",
    "Assign",
    "Deploy",
    "Equip",
    "Fight",
    "PonteRuleset",
    "PonteState",
    "Termination",
]
