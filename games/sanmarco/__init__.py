"""San Marco (Moon & Weissblum): the board game for three and four players and the three
two-player variants, and the two-player variants' scoring.

``GAME`` plays and referees the board game action by action (games/sanmarco/flow.py,
legal.py, table.py), scores summaries of variants 1, 2 and 3 (docs/notation/sanmarco.md)
and offers their scoring round as a playable state (games/sanmarco/state.py).
"""

from games.sanmarco.game import SanMarco
from games.sanmarco.rules import BOOK
from games.sanmarco.scoring import final_v3, score_summary
from games.sanmarco.state import Enter, SanMarcoRuleset, ScoringRound, Termination

GAME = SanMarco()

__all__ = [
    "BOOK",
    "GAME",
    "Enter",
    "SanMarcoRuleset",
    "ScoringRound",
    "Termination",
    "final_v3",
    "score_summary",
]
