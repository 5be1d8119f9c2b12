"""A move a game declares public (GameInfo.public_moves) is one every other seat can already
read on its board the moment it is made: whatever the move names (a card, a bid, a colour,
a district) is in each other seat's view. The move list says such moves to everyone while a
game runs; this test is what keeps it from saying a hidden card. It reads the words of a move,
not its numbers (any view holds a 3 somewhere): a kind that carries a secret number (written
points, a power sheet) is never declared public, which the game's rule book says."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from games.core import registry
from games.core.bots import make_bot

SEEDS = range(6)


def _named(value: Any) -> Iterator[str]:
    """The words of a move's notation: card codes, districts, colours (not numbers, which
    any view holds somewhere)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _named(item)
    elif isinstance(value, list):
        for item in value:
            yield from _named(item)


def _unseen(slug: str, kinds: frozenset[str]) -> list[str]:
    """Every move of one of ``kinds`` (random bots, each ruleset, a few deals) that names
    something another seat's view does not hold right after it."""
    game = registry.get(slug)
    found: list[str] = []
    for name in game.rulesets:
        ruleset = game.ruleset(name)
        for seed in SEEDS:
            state = game.new_game(ruleset, seed)
            bots = [make_bot(game, "random", seed * 31 + i) for i in range(ruleset.seats)]
            for _ in range(game.info.max_actions * 4):
                if state.is_over():
                    break
                seat = state.to_act()
                assert seat is not None
                action = bots[seat].choose(state, seat)
                state.apply(seat, action)
                said = game.encode_action(action)
                if not any(key in kinds for key in said):
                    continue
                for other in range(ruleset.seats):
                    if other == seat:
                        continue
                    view = json.dumps(state.view(other))
                    missing = [w for w in _named(said) if json.dumps(w) not in view]
                    if missing:
                        found.append(f"{name} seed {seed}: {said} unseen by seat {other}")
    return found


@pytest.mark.parametrize("slug", registry.available())
def test_a_move_declared_public_names_only_what_every_other_seat_already_sees(slug):
    game = registry.get(slug)
    if not game.info.public_moves:
        pytest.skip(f"{slug} declares no public move: the move list keeps others' moves")
    unseen = _unseen(slug, game.info.public_moves)
    assert not unseen, "\n".join(unseen[:5])


def test_tarocco_keeps_the_discard_to_the_monte_to_its_seat():
    # The check above can fail: the discard names cards the others never see.
    assert registry.get("tarocco").info.is_public({"play": "B-01"})
    assert not registry.get("tarocco").info.is_public({"discard": ["B-01", "C-02", "D-03"]})
    assert _unseen("tarocco", frozenset({"discard"}))
