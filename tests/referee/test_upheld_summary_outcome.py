"""A ruling that upholds a result typed as a summary keeps who won by the game's rules
(found by the club model, tests/ledger/club_model.py)."""

from __future__ import annotations

from typing import Any

import pytest

from games.core import RandomBot, play, registry
from ledger.clubs.models import Competition, Standing
from ledger.clubs.results import services as ledger
from ledger.referee import services

pytestmark = pytest.mark.django_db


def level_match_decided_by_the_bella() -> dict[str, Any]:
    """An Er Giò summary at 3-3 in scontri whose Bella Nazionale gives one side the win."""
    engine = registry.get("ergio")
    ruleset = engine.ruleset("ragazzi")
    for seed in range(200):
        state = engine.new_game(ruleset, seed)
        play(engine, state, [RandomBot(seed * 7), RandomBot(seed * 7 + 1)])
        outcome = state.outcome()
        if outcome.scores[0] == outcome.scores[1] and len(outcome.winners) == 1:
            return state.summary()
    raise AssertionError("no level match in 200 seeds")


def test_an_upheld_ruling_on_a_summary_keeps_the_engines_winner(people: Any, club: Any) -> None:
    competition = Competition.objects.create(
        club=club, name="Er Giò", slug="ergio", game="ergio", ruleset={"name": "ragazzi"}
    )
    table = ledger.create_table(
        user=people.users["organiser"],
        competition=competition,
        label="E1",
        players=people.extra[:2],
    )
    summary = level_match_decided_by_the_bella()
    result, _ = ledger.record_result(
        user=people.users["scorekeeper"], table=table, source="summary", record=summary
    )
    winner = result.verdict["outcome"]["winners"][0]
    case = services.contest(user=people.users["scorekeeper2"], result=result, reason="Forza?")
    upheld = services.rule(user=people.users["referee"], case=case, kind="upheld", note="Giusto")

    assert upheld.verdict["outcome"]["winners"] == [winner]
    assert upheld.scores == result.scores
    rows = {s.player_id: (s.wins, s.draws, s.losses) for s in Standing.objects.all()}
    assert rows[people.extra[winner].pk] == (1, 0, 0)
    assert rows[people.extra[1 - winner].pk] == (0, 0, 1)
