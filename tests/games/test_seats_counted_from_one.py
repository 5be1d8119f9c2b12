"""A rule broken by acting out of turn names the seats as people count them, from 1: the
engine's seat 0 is "posto 1" / "seat 1" in every game's message."""

from __future__ import annotations

import re

import pytest

from games.core import registry
from games.core.text import seat_no


def test_seat_no_counts_from_one():
    assert seat_no(0) == "1" and seat_no(3) == "4" and seat_no(None) == "—"


@pytest.mark.parametrize("slug", ["tarocco", "ergio", "ponte", "cardchess"])
def test_acting_out_of_turn_names_the_seat_to_act_counted_from_one(slug):
    game = registry.get(slug)
    seats = game.ruleset(None).seats
    state = game.new_game(game.ruleset(None), 4)
    bots = [game.bots["heuristic"](i) for i in range(seats)]
    for _ in range(200):  # Tarocco's bargaining has no order: go on until turns are fixed
        due = state.to_act()
        other = next(s for s in range(seats) if s != due)
        found = state.check(other, state.legal_actions(due)[0])
        if found:
            break
        state.apply_unchecked(due, bots[due].choose(state, due))
    assert found, "acting out of turn must be refused"
    text = " ".join(v.message["it"] + " " + v.message["en"] for v in found)
    assert re.search(rf"\b(posto|giocatore|[Ss]eat) {due + 1}\b", text), text
