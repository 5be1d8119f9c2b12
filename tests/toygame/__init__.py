"""Carta alta ("highest card wins"), a toy game that lives in the tests, not in games/: it
shows what a game must declare to be played through the whole club ledger.

Each seat is dealt two cards from twelve (1 to 12) and plays one, in turn; the highest card
played wins, and each seat's points are the card it played. It declares everything a game
declares (games/core/engine.py): its name, table sizes, rulesets and their labels, rule book,
bots, summary form and examples, what it says of a result, its standings' defaults, its
artificial scores, its points' name, how the desk groups its steps, its turn rule; beside it,
``words`` says its actions, cards and table in words.

Nothing outside this package names it: tests/ledger/test_a_toy_game_plays_everywhere.py
installs it as a distribution would (an entry point of the group ``club_ledger.games``).
"""

from tests.toygame.game import GAME

__all__ = ["GAME"]
