"""Card conservation after every action, and long seeded runs (soak) for 2, 3 and 4 players."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cardchess import GAME, CardChessState
from games.cardchess.bots import HeuristicBot
from games.core import RandomBot

from .helpers import conserved


def play_checked(name: str, seed: int, bots: str = "random") -> CardChessState:
    ruleset = GAME.ruleset(name)
    state = GAME.new_game(ruleset, seed)
    factory: Any = RandomBot if bots == "random" else HeuristicBot
    players = [factory(seed * 31 + i) for i in range(ruleset.seats)]
    assert conserved(state)
    gold_before = 0
    for _ in range(GAME.info.max_actions):
        seat = state.to_act()
        if seat is None:
            break
        state.apply_unchecked(seat, players[seat].choose(state, seat))
        assert conserved(state), f"{name} seed {seed}: a card was lost or doubled"
        assert sum(state.gold) + state.gold_left == ruleset.gold
        assert sum(state.gold) >= gold_before
        gold_before = sum(state.gold)
    assert state.is_over()
    return state


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(["2p", "3p", "4p"]),
    st.integers(0, 10**9),
    st.sampled_from(["random", "heuristic"]),
)
def test_cards_are_conserved_after_every_action(name: str, seed: int, bots: str) -> None:
    play_checked(name, seed, bots)


@pytest.mark.parametrize("name", ["2p", "3p", "4p"])
def test_a_hundred_seeded_games_end_with_cards_conserved(name: str) -> None:
    for seed in range(100):
        play_checked(name, seed, "heuristic" if seed % 2 else "random")


@pytest.mark.soak
@pytest.mark.parametrize("name", ["2p", "3p", "4p"])
def test_thousands_of_seeded_games_end_with_cards_conserved_and_replay_valid(name: str) -> None:
    for seed in range(3000):
        state = play_checked(name, seed, "heuristic" if seed % 2 else "random")
        if seed % 10 == 0:
            verdict = GAME.validate(state.to_record())
            assert verdict.valid and verdict.outcome == state.outcome()


def test_the_heuristic_bot_beats_the_random_bot_more_often_than_not() -> None:
    wins = losses = 0
    for seed in range(60):
        ruleset = GAME.ruleset("2p")
        state = GAME.new_game(ruleset, seed)
        hero = seed % 2
        bots: list[Any] = [RandomBot(seed), RandomBot(seed + 1)]
        bots[hero] = HeuristicBot(seed)
        for _ in range(GAME.info.max_actions):
            seat = state.to_act()
            if seat is None:
                break
            state.apply_unchecked(seat, bots[seat].choose(state, seat))
        winners = state.outcome().winners
        wins += winners == (hero,)
        losses += winners == (1 - hero,)
    assert wins > losses
