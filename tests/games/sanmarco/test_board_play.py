"""Seeded bot games of every board ruleset play to the end with every invariant held.

The quick suite plays a few hundred games per ruleset; test_board_soak.py plays thousands.
"""

from __future__ import annotations

import pytest

from tests.games.sanmarco.helpers import BOARD_RULESETS, play_checked, replays_the_same

GAMES_PER_RULESET = 200


@pytest.mark.parametrize("name", BOARD_RULESETS)
def test_hundreds_of_games_keep_the_invariants_and_replay_valid(name: str) -> None:
    for seed in range(GAMES_PER_RULESET):
        state = play_checked(name, seed, heuristic=seed % 2 == 1, every=seed % 4 == 0)
        if seed % 5 == 0:
            replays_the_same(state)


@pytest.mark.parametrize("name", BOARD_RULESETS)
def test_a_game_has_three_passages_and_ends_in_the_final_scoring(name: str) -> None:
    state = play_checked(name, 7)
    assert state.passage == 3 and len(state.passage_log) == 3
    finals = [e for e in state.score_log if e["why"] == "final"]
    assert sorted({e["district"] for e in finals}) == sorted(
        {d for d in range(6) if sum(state.cubes[d]) > 0 and any(state.cubes[d])}
    )
    assert state.outcome().termination == "final_scoring"
