"""The strong bots (games/core/search.py): they read only their seat's view, they are
deterministic given a seed, and they only ever play legal actions."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from games.core import registry
from games.core.rng import rng

STRONG = ("tarocco", "ergio", "cardchess")


def _bots(slug: str) -> Any:
    return importlib.import_module(f"games.{slug}.bots")


def _positions(slug: str, seeds: range, *, every: int = 7) -> list[tuple[Any, int]]:
    """Positions from seeded heuristic games where the seat to act has a real choice."""
    game = registry.get(slug)
    bots = _bots(slug)
    out: list[tuple[Any, int]] = []
    for seed in seeds:
        state = game.new_game(game.ruleset(None), seed)
        players = [bots.HeuristicBot(seed * 10 + i) for i in range(state.ruleset.seats)]
        step = 0
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            if len(state.legal_actions(seat)) > 1 and step % every == seed % every:
                out.append((_copy(state), seat))
            state.apply_unchecked(seat, players[seat].choose(state, seat))
            step += 1
    return out


def _copy(state: Any) -> Any:
    import copy

    return copy.deepcopy(state)


def _search(slug: str) -> Any:
    """The game's part of the search (how it draws a deal from a seat's view)."""
    return _bots(slug).strong_bot(0).game


@pytest.mark.parametrize("slug", STRONG)
def test_strong_bot_decides_from_its_seats_view_alone(slug: str) -> None:
    """Two full states that show the seat the same view, with the hidden cards elsewhere
    dealt differently, get the same decision."""
    search = _search(slug)
    bots = _bots(slug)
    checked = 0
    for state, seat in _positions(slug, range(3))[:12]:
        other = search.sample(state, seat, rng(99, "other deal"))
        assert other.view(seat) == state.view(seat)
        hidden = [other.view(s) != state.view(s) for s in range(state.ruleset.seats) if s != seat]
        if not any(hidden):
            continue  # nothing hidden left to deal differently here
        a = bots.strong_bot(5, playouts=3, budget=None).choose(state, seat)
        b = bots.strong_bot(5, playouts=3, budget=None).choose(other, seat)
        assert a == b
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("slug", STRONG)
def test_strong_bot_is_deterministic_given_its_seed(slug: str) -> None:
    bots = _bots(slug)
    for state, seat in _positions(slug, range(2))[:4]:
        first = bots.strong_bot(11, playouts=3, budget=None).think(state, seat)
        again = bots.strong_bot(11, playouts=3, budget=None).think(_copy(state), seat)
        assert first == again


@pytest.mark.parametrize("slug", STRONG)
def test_strong_bot_plays_only_legal_actions(slug: str) -> None:
    """Seeded games with the strong bot in each seat in turn: every move passes the checked
    path, and the game ends."""
    game = registry.get(slug)
    bots = _bots(slug)
    rs = game.ruleset(None)
    for seed in range(rs.seats):
        state = game.new_game(rs, seed)
        players: list[Any] = [bots.HeuristicBot(seed * 10 + i) for i in range(rs.seats)]
        players[seed % rs.seats] = bots.strong_bot(seed, playouts=1, budget=None)
        for _ in range(game.info.max_actions):
            seat = state.to_act()
            if seat is None:
                break
            state.apply(seat, players[seat].choose(state, seat))  # the checked path
        assert state.is_over()
