"""3D cardChess (Sergio Fersini, Serfer Giochi) for 2, 3 and 4 players, with gold cards."""

from games.cardchess.game import CardChess
from games.cardchess.rules import BOOK
from games.cardchess.ruleset import CardChessRuleset
from games.cardchess.scoring import Termination
from games.cardchess.state import CardChessState, Play, Resolve

GAME = CardChess()

__all__ = [
    "BOOK",
    "GAME",
    "CardChessRuleset",
    "CardChessState",
    "Play",
    "Resolve",
    "Termination",
]
