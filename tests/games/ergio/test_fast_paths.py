"""The engine's fast paths against their plain definitions, over seeded random games of every
ruleset.

The Corteo listing finds the mandatory tris and the cards that may be added in one pass over
the hand: at every Corteo decision it must give the same actions in the same order as the
listing stated plainly from the rule functions (``mandatory``, ``_add_problem``,
``over_limit``), written out here; the battle listing likewise from ``room`` and ``pool``.
``apply_unchecked`` applies the commonest actions in place: a copy of the game that applies
every action through ``_apply_corteo`` and ``_apply_battle`` must stay equal to it, field by
field."""

from __future__ import annotations

import random

import pytest

from games.ergio import GAME
from games.ergio import cards as C
from games.ergio.actions import (
    ADD,
    ARNO,
    DRAW_DECK,
    DRAW_PILE,
    END,
    NO,
    PASS,
    READY,
    REINFORCE,
    SEND,
    Action,
    Lay,
    Sabotage,
    Swap,
    lay,
)
from games.ergio.state import BATTLE, CORTEO, SABOTAGE, ErGioState, _tris_of
from tests.games.ergio.helpers import fields

RULESETS = list(GAME.rulesets)


def plain_corteo_actions(state: ErGioState, seat: int) -> list[Action]:
    side = seat % 2
    hand = state.hands[seat]
    if state.draws_left > 0:
        return [DRAW_DECK, DRAW_PILE] if state.decks[side] else [DRAW_PILE]
    must = state.mandatory(seat)
    if must:
        lays: set[Lay] = set()
        for unit in must:
            real = tuple(sorted(c for c in hand if C.UNIT_OF[c] == unit))
            lays.update(_tris_of(real))
        return sorted(lays, key=lambda a: a.cards)
    distinct = sorted(set(hand))
    out: list[Action] = []
    if state.ruleset.advanced:
        out += [lay(t) for t in state._patch_lays(seat)]
    out += [ADD[c] for c in distinct if not state._add_problem(seat, c)]
    if state.ruleset.advanced:
        for _unit, cards in sorted(state.field[side].items()):
            for p in sorted(set(cards)):
                if C.UNIT_OF[p] != -1:
                    continue
                out += [Swap(p, c) for c in distinct if not state._swap_problem(side, seat, p, c)]
        out += state._celatino_actions(seat)
        out += state._special_actions(seat)
    if state.ruleset.multi and state.passes < 2:
        out += [PASS[c] for c in distinct]
    if state.over_limit(seat):
        out += [ARNO[c] for c in distinct]
    else:
        out.append(END)
    return out


@pytest.mark.parametrize("name", RULESETS)
def test_corteo_listing_is_the_plain_listing_in_every_ruleset(name: str) -> None:
    ruleset = GAME.ruleset(name)
    chooser = random.Random(name)
    compared = 0
    for seed in range(40):
        state = GAME.new_game(ruleset, seed)
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            if state.phase is CORTEO:
                assert legal == plain_corteo_actions(state, seat), (name, seed, len(state.actions))
                compared += 1
            state.apply_unchecked(seat, legal[chooser.randrange(len(legal))])
    assert compared > 1000


def plain_apply(state: ErGioState, seat: int, action: Action) -> None:
    """apply_unchecked as it reads without its fast paths."""
    if state.phase is CORTEO:
        state._apply_corteo(seat, action)
    elif state.phase is BATTLE:
        state._apply_battle(seat % 2, action)
    else:
        assert state.phase is SABOTAGE
        assert isinstance(action, Sabotage)
        opp = 1 - state.corteo_winner
        if action.do:
            for _ in range(3):
                if state.decks[opp]:
                    state.arno.append(state.decks[opp].pop())
        state._start_battle()
    state.actions.append((seat, action))


def played(state: ErGioState) -> dict[str, object]:
    """The state's attributes, but for the cache of legal actions."""
    return {k: v for k, v in fields(state).items() if k != "_cache"}


@pytest.mark.parametrize("name", RULESETS)
def test_apply_unchecked_is_the_plain_apply_in_every_ruleset(name: str) -> None:
    ruleset = GAME.ruleset(name)
    chooser = random.Random(name)
    for seed in range(40):
        state = GAME.new_game(ruleset, seed)
        plain = state.clone()
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            action = legal[chooser.randrange(len(legal))]
            state.apply_unchecked(seat, action)
            plain_apply(plain, seat, action)
            assert played(state) == played(plain), (name, seed, len(state.actions))


@pytest.mark.parametrize(
    "hand",
    [
        ("SMA-7", "SMA-7", "SMA-6", "SFR-2"),  # a magistratura's card twice (a hand set by hand)
        ("SMA-7", "SMA-6", "SMA-5", "SMA-7", "SFR-2"),
        ("SMA-7", "SMA-6", "SMA-5", "SFR-2", "SFR-3", "SFR-4"),  # two tris
        ("T-CEL", "T-CEL", "M-CEL", "SMA-7"),  # a group of both sides
        ("SMA-7", "SMA-6", "SMA-5", "T-GCCC", "T-GCCC", "T-GCCC"),
    ],
)
def test_corteo_listing_is_the_plain_listing_for_odd_hands(hand: tuple[str, ...]) -> None:
    state = GAME.new_game(GAME.ruleset("base"), 0)
    state.hands[0] = [C.BY_CODE[code] for code in hand]
    assert state.legal_actions(0) == plain_corteo_actions(state, 0)


def plain_battle_actions(state: ErGioState, side: int) -> list[Action]:
    if state.sent[side] == NO:
        return [SEND[m] for m in C.side_mags(side) if m not in state.fought[side]]
    room = state.room(side)
    out: list[Action] = [
        REINFORCE[under][c]
        for c in sorted(set(state.pool(side)))
        for under, left in room.items()
        if left > 0
    ]
    return [*out, READY]


@pytest.mark.parametrize("name", RULESETS)
def test_battle_listing_is_the_plain_listing_in_every_ruleset(name: str) -> None:
    ruleset = GAME.ruleset(name)
    chooser = random.Random(name)
    compared = 0
    for seed in range(40):
        state = GAME.new_game(ruleset, seed)
        while not state.is_over():
            seat = state.to_act()
            assert seat is not None
            legal = state.legal_actions(seat)
            if state.phase is BATTLE:
                assert legal == plain_battle_actions(state, seat % 2), (name, seed)
                compared += 1
            state.apply_unchecked(seat, legal[chooser.randrange(len(legal))])
    assert compared > 500
