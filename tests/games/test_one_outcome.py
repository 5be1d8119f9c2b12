"""One Outcome for every engine entry: for every game and ruleset, the summary a
scorekeeper would write for a game scores to the same Outcome (scores, places, winners,
sides, termination) as the game's full record validated; and every action outside
``legal_actions`` is refused with at least one violation."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest

from games.core import RandomBot, RecordError, play, registry

GAMES = registry.available()
STEPS = 400  # actions looked at per game (a board game runs to thousands)


def _cases() -> list[tuple[str, str]]:
    return [(slug, name) for slug in GAMES for name in registry.get(slug).rulesets]


@pytest.mark.parametrize(("slug", "ruleset_name"), _cases())
def test_a_summary_scores_to_the_outcome_its_record_validates_to(
    slug: str, ruleset_name: str
) -> None:
    game = registry.get(slug)
    ruleset = game.ruleset(ruleset_name)
    played = 0
    for seed in range(12):
        if seed >= 2 and played > 6000:  # long board games: a few are enough
            break
        state = game.new_game(ruleset, seed)
        play(game, state, [RandomBot(seed * 7 + i) for i in range(ruleset.seats)])
        record = json.loads(json.dumps(state.to_record()))
        played += len(record["actions"])
        verdict = game.validate(record)
        assert verdict.outcome is not None
        summary = json.loads(json.dumps(state.summary()))
        report = game.score(summary, {"name": ruleset_name})
        assert report.valid, [v.rule for v in report.violations]
        assert report.outcome is not None
        assert report.outcome.standing() == verdict.outcome.standing(), (seed, summary)
        assert report.to_json()["outcome"]["winners"] == list(verdict.outcome.winners)


def _long_games(game: Any, ruleset: Any, count: int, start: int) -> list[int]:
    """The seeds, among thirty, of the games the random bots play longest."""
    lengths = []
    for seed in range(start, start + 30):
        state = game.new_game(ruleset, seed)
        play(game, state, [RandomBot(seed + i) for i in range(ruleset.seats)])
        lengths.append((-len(state.to_record()["actions"]), seed))
    return [seed for _, seed in sorted(lengths)[:count]]


@functools.cache
def _pool(slug: str) -> list[Any]:
    """Actions that were legal for some seat at some moment of a few games of any ruleset."""
    game = registry.get(slug)
    pick = random.Random(1)
    seen: list[Any] = []
    for name in game.rulesets:
        ruleset = game.ruleset(name)
        for seed in _long_games(game, ruleset, 2, 1):
            state = game.new_game(ruleset, seed)
            bots = [RandomBot(seed + i) for i in range(ruleset.seats)]
            for _ in range(min(game.info.max_actions, STEPS)):
                seat = state.to_act()
                if seat is None:
                    break
                legal = list(state.legal_actions(seat))
                for action in pick.sample(legal, min(len(legal), 4)):
                    if action not in seen:
                        seen.append(action)
                state.apply_unchecked(seat, bots[seat].choose(state, seat))
    return seen


@pytest.mark.parametrize(("slug", "ruleset_name"), _cases())
def test_every_action_outside_the_legal_ones_gets_a_violation(slug: str, ruleset_name: str) -> None:
    game = registry.get(slug)
    ruleset = game.ruleset(ruleset_name)
    pool = _pool(slug)
    pick = random.Random(f"{slug}-{ruleset_name}")
    checked = 0
    for seed in _long_games(game, ruleset, 2, 500):
        state = game.new_game(ruleset, seed)
        bots = [RandomBot(seed + i) for i in range(ruleset.seats)]
        for _ in range(min(game.info.max_actions, STEPS)):
            seat = state.to_act()
            if seat is None:
                break
            legal = list(state.legal_actions(seat))
            for action in pick.sample(pool, min(len(pool), 12)):
                if action in legal:
                    continue
                try:
                    found = state.check(seat, action)
                except RecordError:
                    continue  # an action that cannot physically happen is refused as such
                assert found, (slug, ruleset_name, seat, action)
                checked += 1
            for other in range(ruleset.seats):
                if other != seat and legal and legal[0] not in state.legal_actions(other):
                    assert state.check(other, legal[0]), (slug, "out of turn", other, legal[0])
            state.apply_unchecked(seat, bots[seat].choose(state, seat))
    assert checked > 0
