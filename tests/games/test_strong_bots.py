"""The strong bots (games/core/search.py): they read only their seat's view, they are
deterministic given a seed, and they only ever play legal actions."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from games.core import registry
from games.core.rng import rng

STRONG = ("tarocco", "ergio", "cardchess", "ponte")


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


class _Toy:
    """One seat picks a number, then the game is over: worth ``worth[number]``."""

    def __init__(self, worth: dict[int, float]) -> None:
        self.worth = worth
        self.picked: int | None = None

    def to_act(self) -> int | None:
        return 0 if self.picked is None else None

    def legal_actions(self, seat: int) -> list[int]:
        return sorted(self.worth) if self.picked is None else []

    def apply_unchecked(self, seat: int, action: int) -> None:
        self.picked = action

    def is_over(self) -> bool:
        return self.picked is not None

    def view(self, seat: int) -> dict[str, Any]:
        return {"picked": self.picked}


class _ToySearch:
    def __init__(self, policy_choice: int) -> None:
        self.policy_choice = policy_choice

    def sample(self, state: _Toy, seat: int, rand: Any) -> _Toy:
        return _Toy(dict(state.worth))

    def policy(self, seed: int) -> Any:
        raise AssertionError("the toy game ends with the seat's move")

    def candidates(self, state: Any, seat: int, actions: Any, seed: int) -> list[int]:
        return [self.policy_choice, *(a for a in actions if a != self.policy_choice)]

    def playout_over(self, state: _Toy, root: _Toy) -> bool:
        return state.is_over()

    def reward(self, state: _Toy, seat: int, root: _Toy) -> float:
        assert state.picked is not None
        return state.worth[state.picked]

    def clone(self, state: _Toy) -> _Toy:
        return _Toy(dict(state.worth))


def test_the_search_keeps_the_policys_choice_unless_another_scores_better() -> None:
    from games.core.search import SearchBot

    level = _Toy({0: 1.0, 1: 1.0, 2: 1.0})
    assert SearchBot(_ToySearch(2), 1, playouts=4, budget=None).choose(level, 0) == 2
    better = _Toy({0: 1.0, 1: 3.0, 2: 1.0})
    thought = SearchBot(_ToySearch(2), 1, playouts=4, budget=None).think(better, 0)
    assert thought.action == 1 and thought.deals == 4
    assert dict(thought.means) == {0: 1.0, 1: 3.0, 2: 1.0}


def test_the_search_stops_at_its_time_budget() -> None:
    """On the tables the clock bounds a move: past the budget no further deal is drawn."""
    from games.core.search import SearchBot

    ticks = iter(range(1000))
    bot = SearchBot(_ToySearch(0), 1, playouts=400, budget=2.5, clock=lambda: float(next(ticks)))
    thought = bot.think(_Toy({0: 1.0, 1: 2.0}), 0)
    assert thought.deals == 3 and thought.action == 1
