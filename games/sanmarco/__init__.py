"""San Marco (Moon & Weissblum): the two-player variants' scoring and scoring round.

``GAME`` scores summaries of variants 1, 2 and 3 (docs/notation/sanmarco.md) and offers the
scoring round as a playable state. The full board game is a later capability.
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
