"""What every engine shares: the interface, rule books, verdicts, seeded RNG and bots."""

from games.core.bots import RandomBot, make_bot
from games.core.declare import Choice, Figure
from games.core.engine import NOTATION_VERSION, Bot, Game, GameInfo, Ruleset, State, play
from games.core.errors import EngineError, IllegalAction, RecordError
from games.core.rng import rng
from games.core.rules import Rule, RuleBook
from games.core.text import Text
from games.core.verdict import (
    UNFINISHED,
    Outcome,
    ScoreReport,
    Verdict,
    Violation,
    places_by,
    rule_broken,
    violation,
)

__all__ = [
    "NOTATION_VERSION",
    "UNFINISHED",
    "Bot",
    "Choice",
    "EngineError",
    "Figure",
    "Game",
    "GameInfo",
    "IllegalAction",
    "Outcome",
    "RandomBot",
    "RecordError",
    "Rule",
    "RuleBook",
    "Ruleset",
    "ScoreReport",
    "State",
    "Text",
    "Verdict",
    "Violation",
    "make_bot",
    "places_by",
    "play",
    "rng",
    "rule_broken",
    "violation",
]
