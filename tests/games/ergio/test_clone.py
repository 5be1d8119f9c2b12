"""A state's clone (the strong bot plays on clones) is a full, independent copy."""

from __future__ import annotations

import copy
import random

import pytest

from games.ergio import GAME
from games.ergio.state import ErGioState
from tests.games.ergio.helpers import fields


def _same(a: ErGioState, b: ErGioState) -> None:
    assert a.to_record() == b.to_record()
    assert a.view(None) == b.view(None)
    assert [a.view(s) for s in range(a.ruleset.seats)] == [
        b.view(s) for s in range(b.ruleset.seats)
    ]
    assert a.all_cards() == b.all_cards()
    who = a.to_act()
    assert who == b.to_act()
    if who is not None:
        assert a.legal_actions(who) == b.legal_actions(who)


@pytest.mark.parametrize("name", ["base", "advanced", "ragazzi", "4p", "6p"])
def test_a_clone_plays_on_alone_and_leaves_the_state_as_it_was(name: str) -> None:
    chooser = random.Random(name)
    for seed in range(4):
        state = GAME.new_game(GAME.ruleset(name), seed)
        step = 0
        while not state.is_over():
            if step % 17 == 3:
                clone = state.clone()
                assert fields(clone).keys() == fields(state).keys()
                kept = copy.deepcopy(state)
                _same(clone, state)
                while not clone.is_over():  # the clone plays to its end
                    who = clone.to_act()
                    assert who is not None
                    legal = clone.legal_actions(who)
                    clone.apply_unchecked(who, legal[chooser.randrange(len(legal))])
                _same(state, kept)
            who = state.to_act()
            assert who is not None
            legal = state.legal_actions(who)
            state.apply_unchecked(who, legal[chooser.randrange(len(legal))])
            step += 1
