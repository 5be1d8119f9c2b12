"""Thousands of seeded San Marco board games per ruleset, both bots, invariants after every
action, every record replayed. Marked soak: `make soak` (or `pytest -m soak
tests/games/sanmarco`) runs it; test_board_play.py has the same checks on fewer seeds."""

from __future__ import annotations

import pytest

from tests.games.sanmarco.helpers import BOARD_RULESETS, play_checked, replays_the_same

GAMES_PER_RULESET = 2000


@pytest.mark.soak
@pytest.mark.parametrize("name", BOARD_RULESETS)
def test_thousands_of_games_keep_every_invariant_and_replay_valid(name: str) -> None:
    for seed in range(GAMES_PER_RULESET):
        state = play_checked(name, 10_000 + seed, heuristic=seed % 2 == 1)
        replays_the_same(state)
