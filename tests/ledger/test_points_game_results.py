"""Per-seat points typed for Punti, the tests' registered game, take the production path:
its engine scores them, the result keeps the Outcome, and the standings count from it."""

from __future__ import annotations

import pytest

from ledger.clubs.errors import Invalid
from ledger.clubs.models import Result, Standing
from ledger.clubs.results import services


def test_typed_points_are_scored_by_the_games_engine_and_keep_its_outcome(people, manual_table):
    result, *_rest = services.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[7, 7.5]
    )
    stored = Result.objects.get(pk=result.pk)
    assert stored.verdict["outcome"]["winners"] == [1]
    assert stored.verdict["outcome"]["places"] == [2, 1]
    rows = {s.player_id: s for s in Standing.objects.filter(competition=manual_table.competition)}
    first, second = (s.player_id for s in manual_table.seats.order_by("index"))
    assert (rows[first].wins, rows[first].losses) == (0, 1)
    assert (rows[second].wins, rows[second].losses) == (1, 0)


def test_a_real_engines_game_still_refuses_plain_points(people, club):
    from ledger.clubs.models import Competition

    competition = Competition.objects.create(club=club, name="S", slug="s", game="sanmarco")
    table = services.create_table(
        user=people.users["organiser"], competition=competition, label="T", players=people.extra[:2]
    )
    with pytest.raises(Invalid) as refused:
        services.record_result(
            user=people.users["scorekeeper"], table=table, source="manual", scores=[3, 1]
        )
    assert "source" in refused.value.fields
