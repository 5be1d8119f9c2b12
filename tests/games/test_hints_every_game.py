"""Every game's hints along a game its heuristic bots play: a legal move on each turn, its
reason in both languages, and the rule it names one of the game's rule book."""

from __future__ import annotations

import pytest

from games.core import registry
from games.core.hints import hint, rule_of

#: A ruleset of each game whose bots play a whole game on the board (San Marco's board for
#: three, not its scoring round).
RULESETS = {"sanmarco": "base3"}


@pytest.mark.parametrize("slug", ["ergio", "ponte", "sanmarco", "cardchess", "tarocco"])
def test_each_hint_is_legal_says_why_in_both_languages_and_names_a_rule_of_the_game(
    slug: str,
) -> None:
    game = registry.get(slug)
    state = game.new_game(game.ruleset(RULESETS.get(slug)), 3)
    named = set()
    for step in range(150):
        seat = state.to_act()
        if seat is None or state.is_over():
            break
        action, why = hint(game, state, seat, step)
        assert not state.check(seat, action)
        assert why.it and why.en and why.it != why.en
        rule = rule_of(why)
        if rule:
            assert rule in game.rules, rule
            assert rule not in why.en and rule not in why.it  # a reference beside, not words
            named.add(rule)
        state.apply(seat, action)
    assert named, "no hint named its rule"
