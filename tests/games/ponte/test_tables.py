"""The ruleset's tables: remembered legal choices are the ones the rules give in the position
at hand, and copies of a state share the tables instead of copying them."""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

import pytest

from games.ponte import GAME, Deploy, Fight
from games.ponte.state import DEPLOY, FIGHT, POWER, RESPOND, PonteState


@pytest.mark.parametrize("name", list(GAME.rulesets))
def test_remembered_choices_are_the_ones_worked_out_from_the_rules(name: str) -> None:
    ruleset = GAME.ruleset(name)
    for seed in range(8):
        state = GAME.new_game(ruleset, seed)
        chooser = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            if state.phase == FIGHT:
                assert legal == list(state._fight_choices(state.fight_side()))
            elif state.phase == POWER:
                pool = state._current_pool()
                assert pool is not None
                assert legal == state._assign_choices(pool[1])
            elif state.phase == DEPLOY:
                assert legal == state._legal_deploy()
            elif state.phase == RESPOND:
                assert legal == [Deploy(m) for m in state._respond_mags()]
            for other in range(ruleset.seats):
                if other != seat:
                    assert state.legal_actions(other) == []
            state.apply(seat, legal[chooser.randrange(len(legal))])


def test_a_remembered_list_is_the_callers_to_change() -> None:
    state = GAME.new_game(GAME.ruleset("2p-base"), 3)
    while state.phase != FIGHT:
        seat = state.to_act()
        assert seat is not None
        state.apply(seat, state.legal_actions(seat)[0])
    seat = state.to_act()
    assert seat is not None
    first = state.legal_actions(seat)
    first.clear()
    assert state.legal_actions(seat)


def test_copies_of_a_state_share_the_tables_and_play_on_their_own() -> None:
    state = GAME.new_game(GAME.ruleset("4p-advanced"), 5)
    for _ in range(40):
        seat = state.to_act()
        assert seat is not None
        state.apply(seat, state.legal_actions(seat)[-1])
    twin: PonteState = copy.deepcopy(state)
    assert twin.ruleset.tables is state.ruleset.tables
    seat = twin.to_act()
    assert seat is not None
    before = (list(state.actions), [list(h) for h in state.hand], list(state.pending))
    twin.apply(seat, twin.legal_actions(seat)[0])
    assert len(twin.actions) == len(state.actions) + 1
    assert (state.actions, state.hand, state.pending) == before
    assert state.to_act() == seat


@dataclass(frozen=True, slots=True)
class _Probe(Fight):
    """A fight choice that ``check`` does not look up among the remembered choices."""


@pytest.mark.parametrize("name", ["2p-base", "3p-advanced", "4p-expert", "6p-incognito"])
def test_check_finds_no_fault_exactly_in_the_legal_choices(name: str) -> None:
    ruleset = GAME.ruleset(name)
    codes = [None, *sorted(set(ruleset.fight_cards)), "A25000"]
    for seed in range(6):
        state = GAME.new_game(ruleset, seed)
        chooser = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            if state.phase == FIGHT:
                pairs = {(a.card, a.strategy) for a in legal}
                for code in codes:
                    for strategy in (None, 0, 1, 2, 3, 4, 5, 6):
                        for who in {seat, (seat + 1) % ruleset.seats}:
                            quick = state.check(who, Fight(code, strategy))
                            full = state.check(who, _Probe(code, strategy))
                            assert [v.rule for v in quick] == [v.rule for v in full]
                            legal_here = who == seat and (code, strategy) in pairs
                            assert (full == []) == legal_here
            state.apply(seat, legal[chooser.randrange(len(legal))])
