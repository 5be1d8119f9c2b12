"""Er Giò (Canestrelli, Gianfaldoni): the card game of Pisa's Gioco del Ponte.

Rulesets: base, advanced and ragazzi for two players, and the four- and six-player game.
docs/rules/ergio.md lists every rule id and decision; docs/notation/ergio.md the formats.
"""

from games.ergio.actions import (
    Add,
    Arno,
    Celatino,
    Draw,
    End,
    Lay,
    Pass,
    Ready,
    Reinforce,
    Sabotage,
    Send,
    Special,
    Swap,
)
from games.ergio.game import ErGio
from games.ergio.rules import BOOK
from games.ergio.ruleset import ErGioRuleset
from games.ergio.state import ErGioState, Phase, Termination

GAME = ErGio()

__all__ = [
    "BOOK",
    "GAME",
    "Add",
    "Arno",
    "Celatino",
    "Draw",
    "End",
    "ErGio",
    "ErGioRuleset",
    "ErGioState",
    "Lay",
    "Pass",
    "Phase",
    "Ready",
    "Reinforce",
    "Sabotage",
    "Send",
    "Special",
    "Swap",
    "Termination",
]
