"""Steps the engine writes out for speed (a die, a deal's draws, a banishment's removals, a
toll) give what their plain definitions give, position by position."""

from __future__ import annotations

import copy
import itertools
import random

import pytest

from games.core import RecordError
from games.core import rng as make_rng
from games.sanmarco import GAME
from games.sanmarco.cards import ACTION_DECK, CARD_NAMES, LIMIT_DECK
from games.sanmarco.chance import Chance
from games.sanmarco.flow import Pending
from games.sanmarco.table import BoardState


def test_a_die_rolls_what_randint_rolls_from_the_same_seed() -> None:
    for seed in range(20):
        chance, theirs = Chance(seed, None), make_rng(seed, "sanmarco-chance")
        rolls = [chance.die() for _ in range(40)]
        assert rolls == [theirs.randint(1, 6) for _ in range(40)]
        assert chance.used["dice"] == rolls


def test_a_deal_writes_the_names_of_the_cards_it_draws_and_agrees_with_what_is_written() -> None:
    for seed in range(10):
        plain = Chance(seed, None)
        deck, discard, limits, limit_discard = list(ACTION_DECK), [], list(LIMIT_DECK), []
        drawn = []
        for _ in range(6):
            drawn += plain.cards("action_cards", deck, discard, 5)
            plain.cards("limit_cards", limits, limit_discard, 3)
        assert plain.used["action_cards"] == [CARD_NAMES[c] for c in drawn]
        for cut in (0, 1, 7, 18, 30):  # written as far as it goes: the rest is the seed's
            given = {k: v[:cut] for k, v in plain.used.items()}
            again = Chance(seed, given)
            deck, limits = list(ACTION_DECK), list(LIMIT_DECK)
            for _ in range(6):
                again.cards("action_cards", deck, [], 5)
                again.cards("limit_cards", limits, [], 3)
            assert again.used == plain.used
        for i in (0, 4, 5, 29):  # a card written otherwise: refused where it differs
            wrong = copy.deepcopy(plain.used)
            wrong["action_cards"][i] = next(
                n for n in CARD_NAMES if n != plain.used["action_cards"][i]
            )
            other = Chance(seed, wrong)
            deck, limits = list(ACTION_DECK), list(LIMIT_DECK)
            with pytest.raises(RecordError) as caught:
                for _ in range(6):
                    other.cards("action_cards", deck, [], 5)
                    other.cards("limit_cards", limits, [], 3)
            assert caught.value.path == f"deal.chance.action_cards[{i}]"


def _plain_auto_remove(state: BoardState, colour: int) -> None:
    """sanmarco.base.banish as first written: remove while one colour only may lose one."""
    p = state.pending
    assert p is not None
    while p.left > 0:
        options = state._removable(colour, p.district)
        if len(options) != 1:
            return
        state.cubes[p.district][options[0]] -= 1
        state.supply[options[0]] += 1
        p.left -= 1


def test_a_banishments_removals_follow_the_plain_definition_for_every_small_district() -> None:
    state = GAME.new_game(GAME.ruleset("base4"), 1)
    assert isinstance(state, BoardState)
    for row in itertools.product(range(3), repeat=4):
        for colour, left in itertools.product(range(4), (1, 2, 6)):
            ours, plain = copy.deepcopy(state), copy.deepcopy(state)
            for s in (ours, plain):
                s.cubes[3] = list(row)
                s.pending = Pending("remove", 3, left=left)
            ours._auto_remove(colour)
            _plain_auto_remove(plain, colour)
            assert (ours.cubes, ours.supply, ours.pending) == (
                plain.cubes,
                plain.supply,
                plain.pending,
            ), (row, colour, left)


def _plain_toll(state: BoardState, mover: int, owner: int) -> None:
    """sanmarco.base.doge_toll through ``_credit``, as first written."""
    if owner == mover:
        return
    paid = 1 if state.ruleset.toll_below_zero else min(1, max(state.score[mover], 0))
    points = [0] * len(state.kinds)
    points[mover] -= paid
    ctrl = state.controller
    same_seat = ctrl[owner] is not None and ctrl[owner] == ctrl[mover]
    if not same_seat and (state.kinds[owner] != "ghost" or state.ruleset.ghost_tolls):
        points[owner] += paid
    state._credit("toll", points, mover=mover, owner=owner)


@pytest.mark.parametrize("name", ["base4", "variant1-board", "variant2-board", "variant3-board"])
@pytest.mark.parametrize("below_zero", [False, True])
def test_a_toll_moves_and_writes_what_the_plain_credit_does(name: str, below_zero: bool) -> None:
    state = GAME.new_game(GAME.ruleset({"name": name, "toll_below_zero": below_zero}), 2)
    assert isinstance(state, BoardState)
    chooser = random.Random(name)
    colours = range(len(state.kinds))
    for mover, owner in itertools.product(colours, colours):
        for score in (-2, 0, 1, 5):
            scores = [chooser.choice((-1, 0, 3)) for _ in colours]
            scores[mover] = score
            ours, plain = copy.deepcopy(state), copy.deepcopy(state)
            for s in (ours, plain):
                s.score = list(scores)
            ours._pay_toll(mover, owner)
            _plain_toll(plain, mover, owner)
            assert (ours.score, ours.score_log) == (plain.score, plain.score_log)
