"""The engine states its rules twice: ``legal_actions`` lists the legal actions and ``_is_legal``
decides one action directly (the fast path ``check`` uses). Over seeded random games of every
ruleset, at every decision point, the two must agree on every legal action and on a wide set of
illegal candidates: every card in every card-taking action, other states' legal actions, and
perturbed fields (unsorted or wrong-sized tris, unknown places and sources, odd value types:
compiled, the actions' classes refuse those themselves)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from games.compiled import is_compiled
from games.core import RandomBot
from games.ergio import GAME
from games.ergio import actions as A
from games.ergio import cards as C
from games.ergio.actions import (
    CELATINO_TARGETS,
    NO,
    UNDER,
    Add,
    Arno,
    Celatino,
    Draw,
    End,
    Lay,
    Pass,
    Ready,
    Reinforce,
    Sabotage,
    Send,
    Special,
    Swap,
)
from games.ergio.state import ErGioState

RULESETS = list(GAME.rulesets)
SEEDS = range(3)
ALL_CARDS = range(C.TYPES)
MAGS = range(-1, len(C.MAGISTRATURE) + 1)
ODD = (True, "SMA-7", 1.0, None, -1, C.TYPES)  # not plain ints, or ints outside the deck


def _odd(out: list[Any], cls: Any, *fields: Any) -> None:
    """Add an action with a field of the wrong type to ``out``. In plain Python it is made
    and the engine must refuse it; compiled by mypyc (games/compiled.py), the action's class
    refuses the value itself, so no such action can reach the engine at all."""
    try:
        out.append(cls(*fields))
    except TypeError:
        assert is_compiled(A), f"{cls.__name__}{fields!r} refused in plain Python"


def _perturbed(a: Any, rnd: random.Random) -> list[Any]:
    """Near misses of a legal action: one field changed."""
    out: list[Any] = []
    if isinstance(a, Lay):
        cards = a.cards
        out.append(Lay(tuple(reversed(cards))))  # not sorted
        out.append(Lay(cards[:2]))  # too short
        out.append(Lay((*cards, cards[-1])))  # too long
        _odd(out, Lay, list(cards))  # a list, not a tuple
        for i in range(len(cards)):
            for c in [*rnd.sample(ALL_CARDS, 6), C.TYPES, -1]:
                changed = list(cards)
                changed[i] = c
                out.append(Lay(tuple(changed)))
                out.append(Lay(tuple(sorted(changed))))
    elif isinstance(a, Swap):
        out += [Swap(a.patch, c) for c in rnd.sample(ALL_CARDS, 8)]
        out += [Swap(p, a.card) for p in rnd.sample(ALL_CARDS, 8)]
    elif isinstance(a, Celatino):
        out += [Celatino(t, a.card, a.victim) for t in CELATINO_TARGETS]
        out += [Celatino(a.target, c, a.victim) for c in rnd.sample(ALL_CARDS, 8)]
        out += [Celatino(a.target, a.card, v) for v in range(-1, 7)]
    elif isinstance(a, Special):
        out += [Special(a.card, t) for t in [NO, *rnd.sample(ALL_CARDS, 8)]]
        out += [Special(c, a.target) for c in rnd.sample(ALL_CARDS, 8)]
    elif isinstance(a, Reinforce):
        out += [Reinforce(a.card, u) for u in (*UNDER, "river")]
        out += [Reinforce(c, a.under) for c in rnd.sample(ALL_CARDS, 8)]
        for x in ODD:
            _odd(out, Reinforce, x, a.under)
    return out


def _candidates(seen: list[Any], legal: list[Any], rnd: random.Random) -> list[Any]:
    out: list[Any] = list(legal)
    for a in legal:
        out += _perturbed(a, rnd)
    # every card in every action that names one card
    for c in ALL_CARDS:
        out += [Add(c), Arno(c), Pass(c)]
    out += [Reinforce(c, rnd.choice(UNDER)) for c in ALL_CARDS]
    out += [Send(m) for m in MAGS]
    for cls in (Add, Arno, Pass, Send):
        for x in ODD:
            _odd(out, cls, x)
    out += [Draw("deck"), Draw("pile"), Draw("river"), End(), Ready()]
    out += [Sabotage(True), Sabotage(False)]
    out += [Lay(tuple(sorted(rnd.sample(ALL_CARDS, 3)))) for _ in range(10)]
    _odd(out, Lay, ("SMA-7", "SMA-6", "SMA-5"))
    # legal actions of other states and seats (earlier in this game and in earlier games)
    out += rnd.sample(seen, min(len(seen), 60))
    return out


def _listed(legal: list[Any], legal_set: set[Any], a: Any) -> bool:
    try:
        return a in legal_set
    except TypeError:  # an unhashable field (a list of cards): compare one by one
        return a in legal


def _agree_through_one_game(name: str, seed: int, seen: list[Any]) -> Counter[str]:
    ruleset = GAME.ruleset(name)
    state: ErGioState = GAME.new_game(ruleset, seed)
    bots = [RandomBot(seed * 31 + i) for i in range(ruleset.seats)]
    rnd = random.Random(f"{name}-{seed}")
    tally: Counter[str] = Counter()
    for _ in range(GAME.info.max_actions):
        seat = state.to_act()
        if seat is None:
            break
        state._cache = None  # the reference list is computed afresh, never a cached one
        legal = list(state.legal_actions(seat))
        assert legal, f"{name} seed {seed}: seat {seat} has no legal action"
        legal_set = set(legal)
        for a in _candidates(seen, legal, rnd):
            listed = _listed(legal, legal_set, a)
            decided = state._is_legal(seat, a)
            assert decided == listed, (
                f"{name} seed {seed}, action {len(state.actions)} ({state.phase}), seat {seat}: "
                f"_is_legal says {decided} for {a!r}, legal_actions says {listed}"
            )
            tally[f"{'legal' if listed else 'illegal'} {type(a).__name__}"] += 1
        seen += rnd.sample(legal, min(len(legal), 3))
        del seen[:-400]
        state.apply_unchecked(seat, bots[seat].choose(state, seat))
    assert state.is_over()
    return tally


@pytest.mark.parametrize("name", RULESETS)
def test_is_legal_accepts_exactly_the_actions_legal_actions_lists(name: str) -> None:
    seen: list[Any] = []
    tally: Counter[str] = Counter()
    for seed in SEEDS:
        tally += _agree_through_one_game(name, seed, seen)
    # the comparison reached both answers for the kinds the fast path decides itself: the
    # common ones in every ruleset, the draws where players choose deck or pile (four and six)
    kinds = {"Lay", "Add", "End", "Send", "Reinforce", "Ready"}
    if GAME.ruleset(name).multi:
        kinds.add("Draw")
    for kind in kinds:
        assert tally[f"legal {kind}"] > 0, (name, kind, tally)
    for kind in kinds | {"Arno"}:
        assert tally[f"illegal {kind}"] > 0, (name, kind, tally)
