"""The Bridge's Game's strong bot (games/ponte/bots.py, PonteSearch): what it draws from a
seat's view, in every mode and table size, and that its decision depends on that view alone."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from games.core import registry
from games.core.rng import rng
from games.ponte.bots import (
    FIGHT_CANDIDATES,
    HeuristicBot,
    PonteSearch,
    _sheet,
    fight_scores,
    strong_bot,
)
from games.ponte.model import side_mags
from games.ponte.state import FIGHT, PonteState

GAME = registry.get("ponte")
MODES = ("2p-base", "2p-advanced", "2p-expert", "2p-incognito", "4p-advanced", "3p-expert")


def _positions(name: str, seeds: range, every: int = 5) -> list[tuple[PonteState, int]]:
    """Copies of states from seeded heuristic matches where the seat to act has a choice."""
    rs = GAME.ruleset(name)
    search = PonteSearch()
    out: list[tuple[PonteState, int]] = []
    for seed in seeds:
        state = GAME.new_game(rs, seed)
        players = [HeuristicBot(seed * 10 + i) for i in range(rs.seats)]
        step = 0
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            if len(state.legal_actions(seat)) > 1 and step % every == seed % every:
                out.append((search.clone(state), seat))
            state.apply_unchecked(seat, players[seat].choose(state, seat))
            step += 1
    return out


def _enemy_hidden(a: PonteState, b: PonteState, seat: int) -> bool:
    """The two states differ in something the seat's side cannot see."""
    enemy = 1 - a.layout.side_of_seat(seat)
    mags = side_mags(enemy)
    return (
        [a.strategy_of[m] for m in mags] != [b.strategy_of[m] for m in mags]
        or [a.initial[m] for m in mags] != [b.initial[m] for m in mags]
        or a.pending != b.pending
    )


@pytest.mark.parametrize("name", MODES)
def test_a_drawn_state_shows_the_seat_exactly_what_it_saw(name: str) -> None:
    """Outside Incognito every drawn state gives the seat the same view (Incognito hides
    so much that a draw the view rules out is drawn again, a few times at most)."""
    search = PonteSearch()
    same = differ = 0
    positions = _positions(name, range(3))
    for state, seat in positions:
        view = state.view(seat)
        world = search.sample(state, seat, rng(7, "draw", len(state.actions)))
        if world.view(seat) == view:
            same += 1
        if _enemy_hidden(state, world, seat):
            differ += 1
        assert world.to_act() == state.to_act()
        assert world.legal_actions(seat) == state.legal_actions(seat)
    if name.endswith("incognito"):
        assert same >= len(positions) // 2
    else:
        assert same == len(positions)
    assert differ > 0  # the enemy's hidden cards and values really were drawn anew


def test_the_enemys_secret_fight_choice_is_drawn_again() -> None:
    """Mezzogiorno, answering a move, does not see Tramontana's choice: a drawn state holds
    one of its own (a heuristic player's), not the real one."""
    search = PonteSearch()
    found = 0
    for state, seat in _positions("2p-base", range(4), every=1):
        if state.phase != FIGHT or state.fight_side() != 1:
            continue
        draws = {search.sample(state, seat, rng(s, "again")).pending[0] for s in range(12)}
        assert all(d is not None for d in draws)
        if len(draws) > 1:
            found += 1
    assert found > 0


@pytest.mark.parametrize("name", MODES)
def test_the_strong_bot_decides_from_its_seats_view_alone(name: str) -> None:
    """Two full states showing the seat the same view, the enemy's hidden cards, values and
    secret choice drawn differently, get the same decision."""
    search = PonteSearch()
    checked = 0
    for state, seat in _positions(name, range(3), every=9)[:14]:
        other = search.sample(state, seat, rng(99, "other", len(state.actions)))
        if other.view(seat) != state.view(seat) or not _enemy_hidden(state, other, seat):
            continue
        a = strong_bot(5, playouts=2, budget=None).think(state, seat)
        b = strong_bot(5, playouts=2, budget=None).think(other, seat)
        assert a == b
        checked += 1
    assert checked >= 3


def test_a_copy_plays_on_without_touching_the_original() -> None:
    search = PonteSearch()
    for state, _seat in _positions("2p-expert", range(1), every=11):
        before = [state.view(s) for s in range(2)]
        copy = search.clone(state)
        assert [copy.view(s) for s in range(2)] == before
        players = [HeuristicBot(3), HeuristicBot(4)]
        while not copy.is_over():
            who = copy.to_act()
            assert who is not None
            copy.apply_unchecked(who, players[who].choose(copy, who))
        assert [state.view(s) for s in range(2)] == before


@pytest.mark.parametrize("seed", range(40))
def test_an_expert_sheet_is_drawn_within_the_rules_keeping_what_is_known(seed: int) -> None:
    r = random.Random(seed)
    rs = GAME.ruleset("2p-expert")
    state = GAME.new_game(rs, seed)
    players = [HeuristicBot(seed), HeuristicBot(seed + 1)]
    while state.phase == "power":
        who = state.to_act()
        assert who is not None
        state.apply_unchecked(who, players[who].choose(state, who))
    mags = sorted(side_mags(1), key=lambda m: state.rank[m] or 0)
    real = [int(state.initial[m] or 0) for m in mags]
    known: list[int | None] = [v if r.random() < 0.4 else None for v in real]
    drawn = _sheet(known, rs.side_total, rs.min_power, rs.chip, r)
    assert sum(drawn) == rs.side_total
    assert all(a >= b for a, b in itertools.pairwise(drawn))
    assert all(v >= rs.min_power and v % rs.chip == 0 for v in drawn)
    assert all(k is None or k == v for k, v in zip(known, drawn, strict=True))


@pytest.mark.parametrize(
    "spec",
    [
        "2p-base",
        "2p-incognito",
        "4p-expert",
        "6p-advanced",
        {"name": "4p-incognito", "incognito_reveal": True},
    ],
)
def test_the_strong_bot_plays_only_legal_actions_in_every_mode(spec: Any) -> None:
    rs = GAME.ruleset(spec)
    state = GAME.new_game(rs, 3)
    players: list[Any] = [HeuristicBot(30 + i) for i in range(rs.seats)]
    players[1] = strong_bot(1, playouts=1, budget=None)
    for _ in range(GAME.info.max_actions):
        seat = state.to_act()
        if seat is None:
            break
        state.apply(seat, players[seat].choose(state, seat))  # the checked path
    assert state.is_over()


def test_a_fight_weighs_the_heuristics_choice_against_its_best_rated_others() -> None:
    """Among a dozen fight choices the search plays out the heuristic's own and the others
    it rates best; the power sheets it leaves to the heuristic."""
    search = PonteSearch()
    fights = setups = 0
    for state, seat in _positions("2p-base", range(2), every=1):
        actions = sorted(state.legal_actions(seat), key=repr)
        offered = search.candidates(state, seat, actions, 17)
        assert offered[0] == HeuristicBot(17).choose(state, seat)
        assert len(set(offered)) == len(offered) and set(offered) <= set(actions)
        if state.phase == "power":
            assert offered == offered[:1]
            setups += 1
        elif state.phase == FIGHT and len(actions) > FIGHT_CANDIDATES:
            assert len(offered) == FIGHT_CANDIDATES
            worth = dict(zip(actions, fight_scores(state, actions), strict=True))
            left_out = [a for a in actions if a not in offered]
            assert min(worth[a] for a in offered[1:]) >= max(worth[a] for a in left_out)
            fights += 1
    assert fights > 10 and setups > 0
