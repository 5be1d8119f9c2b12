"""The fast paths agree with their plain definitions: the shuffle with random.shuffle, the
legal plays with every placement of the hand's cards, the shared actions with new ones."""

from __future__ import annotations

import itertools
import random

import pytest

from games.cardchess import GAME, CardChessState, Play, Resolve
from games.cardchess.state import NONE
from games.core.cards import shuffle


def test_the_shuffle_draws_what_random_shuffle_draws() -> None:
    for seed in range(200):
        for size in (0, 1, 2, 3, 20, 38, 75, 76):
            mine, theirs = list(range(size)), list(range(size))
            shuffle(mine, random.Random(seed))
            random.Random(seed).shuffle(theirs)
            assert mine == theirs, (seed, size)


def plain_plays(state: CardChessState, seat: int) -> list[tuple[int, ...]]:
    """Every way to put must_play cards of the hand under distinct table cards, table
    positions chosen first, then the hand's cards by position; a repeated play once."""
    hand = state.b.hands[seat]
    k, m = len(state.b.table), state.must_play(seat)
    out: dict[tuple[int, ...], None] = {}
    for where in itertools.combinations(range(k), m):
        for chosen in itertools.permutations(range(len(hand)), m):
            slots = [NONE] * k
            for pos, i in zip(where, chosen, strict=True):
                slots[pos] = hand[i]
            out[tuple(slots)] = None
    return list(out)


@pytest.mark.parametrize("name", ["2p", "3p", "4p"])
def test_legal_actions_are_the_plain_placements_in_order(name: str) -> None:
    shapes: set[tuple[int, int, bool]] = set()
    chooser = random.Random(5)
    for seed in range(12):
        state = GAME.new_game(GAME.ruleset(name), seed)
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            for other in range(state.n):
                if other != seat:
                    assert state.legal_actions(other) == []
            if state.resolve_at >= 0:
                assert legal == [Resolve(state.resolve_at, state.taker(state.resolve_at))]
            else:
                hand = state.b.hands[seat]
                shapes.add((len(state.b.table), len(hand), len(set(hand)) < len(hand)))
                assert [a.cards for a in legal] == plain_plays(state, seat)
                assert all(type(a) is Play and a == Play(a.cards) for a in legal)
                assert all(not state.check(seat, a) for a in legal)
            state.apply_unchecked(seat, legal[chooser.randrange(len(legal))])
    assert (3, 4, False) in shapes and (3, 4, True) in shapes  # the usual turn, both ways


def test_shared_actions_encode_and_compare_like_new_ones() -> None:
    state = GAME.new_game(GAME.ruleset("2p"), 2)
    for action in state.legal_actions(0):
        assert GAME.decode_action(GAME.encode_action(action)) == action
        assert hash(action) == hash(Play(tuple(action.cards)))
