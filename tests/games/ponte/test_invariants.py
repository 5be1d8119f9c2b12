"""Power conservation after every action, over every mode and player count, and long seeded
runs (soak) that replay valid; the heuristic bot beats the random one."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import RandomBot
from games.ponte import GAME, PonteState
from games.ponte.bots import HeuristicBot

PRESETS = list(GAME.rulesets)


def play_checked(name: str, seed: int, bots: str = "mixed") -> PonteState:
    ruleset = GAME.ruleset(name)
    state = GAME.new_game(ruleset, seed)
    players: list[Any] = []
    for i in range(ruleset.seats):
        heuristic = bots == "heuristic" or (bots == "mixed" and (seed + i) % 2 == 1)
        players.append((HeuristicBot if heuristic else RandomBot)(seed * 31 + i))
    for _ in range(GAME.info.max_actions):
        seat = state.to_act()
        if seat is None:
            break
        state.apply_unchecked(seat, players[seat].choose(state, seat))
        assert state.ledger_ok(), f"{name} seed {seed}: power not conserved {state.ledger(0)}"
        assert min(state.fpower) >= 0
        if state.phase == "fight":
            assert abs(state.carrello) <= ruleset.bridge_slots
        on_bridge = 0 if state.in_tiebreak else sum(f is not None for f in state.fighter)
        assert sum(state.fought) == 2 * len(state.results) + on_bridge  # each fights once
    assert state.is_over()
    out = state.outcome()
    played = len(state.results) + (state.tiebreak is not None)
    assert sum(state.wins) == played
    assert sum(state.seat_wins) == played
    assert out.winners
    assert state.wins[0] != state.wins[1]
    return state


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(PRESETS),
    st.integers(0, 10**9),
    st.sampled_from(["random", "heuristic", "mixed"]),
)
def test_power_is_conserved_after_every_action(name: str, seed: int, bots: str) -> None:
    play_checked(name, seed, bots)


@pytest.mark.parametrize("name", PRESETS)
def test_seeded_games_end_in_every_mode_with_power_conserved(name: str) -> None:
    for seed in range(25):
        play_checked(name, seed)


@pytest.mark.soak
@pytest.mark.parametrize("name", PRESETS)
def test_thousands_of_seeded_games_end_conserved_and_replay_valid(name: str) -> None:
    for seed in range(1000):
        state = play_checked(name, seed)
        if seed % 10 == 0:
            verdict = GAME.validate(state.to_record())
            assert verdict.valid and verdict.outcome == state.outcome()


def test_the_heuristic_bot_beats_the_random_bot_more_often_than_not() -> None:
    wins = losses = 0
    for seed in range(60):
        ruleset = GAME.ruleset("2p-base")
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
