"""Tarocco Siciliano as played at Calatafimi: four players, 63 cards, one smazzata per game.

``GAME`` plays a whole smazzata (deal, bargaining, solo or pairs, monte, tricks, count),
replays and validates full records, and scores scorekeepers' summaries
(docs/notation/tarocco.md). Rule ids and decisions: docs/rules/tarocco.md.
"""

from games.tarocco.bots import HeuristicBot
from games.tarocco.game import DOSSENA, DUMMETT, STRICT, Tarocco
from games.tarocco.rules import BOOK
from games.tarocco.scoring import pairs_scores, score_hand, solo_scores
from games.tarocco.state import (
    Bid,
    Call,
    Declare,
    Discard,
    Phase,
    Play,
    Quindici,
    TaroccoRuleset,
    TaroccoState,
    Termination,
    Venti,
)

GAME = Tarocco()

__all__ = [
    "BOOK",
    "DOSSENA",
    "DUMMETT",
    "GAME",
    "STRICT",
    "Bid",
    "Call",
    "Declare",
    "Discard",
    "HeuristicBot",
    "Phase",
    "Play",
    "Quindici",
    "TaroccoRuleset",
    "TaroccoState",
    "Termination",
    "Venti",
    "pairs_scores",
    "score_hand",
    "solo_scores",
]
