"""Thousands of seeded games per ruleset with both bots, invariants after every action.

Marked soak: `make soak` (or `pytest -m soak tests/games/ergio`) runs it; the quick suite has
the same checks on fewer seeds (test_play_invariants.py).
"""

from __future__ import annotations

import json

import pytest

from games.ergio import GAME
from tests.games.ergio.test_play_invariants import play_checked

GAMES_PER_RULESET = 1000


@pytest.mark.soak
@pytest.mark.parametrize("name", list(GAME.rulesets))
def test_thousands_of_games_keep_every_invariant_and_replay_valid(name: str) -> None:
    for seed in range(GAMES_PER_RULESET):
        state = play_checked(name, seed, heuristic=seed % 2 == 1)
        if seed % 10 == 0:
            record = json.loads(json.dumps(state.to_record()))
            verdict = GAME.validate(record)
            assert verdict.valid, (seed, verdict.to_json()["violations"][:3])
            assert verdict.outcome == state.outcome()
            assert GAME.score(state.summary()).result == state.outcome().detail
