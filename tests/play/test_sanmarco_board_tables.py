"""San Marco's board game at a digital table: a person against bots, to the ledger."""

from __future__ import annotations

import pytest

from games.core import registry
from ledger.clubs.models import Competition, Result
from ledger.play import services
from ledger.play.models import GameTable
from tests.play.conftest import dealt, play_out


@pytest.mark.parametrize(("name", "seats"), [("variant3-board", 2), ("base3", 3)])
def test_a_board_game_against_bots_reaches_the_ledger(commit, people, name, seats):
    # Games with bots count only in a competition that lets them (else they are practice).
    league = Competition.objects.create(
        club=people.club,
        name="San Marco",
        slug="san-marco",
        game="sanmarco",
        ruleset={"name": name},
        bot_tables_count=True,
    )
    with dealt(5):
        table = commit(
            services.create_table,
            user=people.users["scorekeeper"],
            club=people.club,
            game="sanmarco",
            seats=["me"] + ["heuristic"] * (seats - 1),
            competition=league,
        )
    assert table.status == GameTable.Status.PLAYING and not table.practice
    play_out(commit, people.users["scorekeeper"], table)
    table.refresh_from_db()
    assert table.status == GameTable.Status.FINISHED
    result = table.result
    assert result.status == Result.Status.ACCEPTED and len(result.scores) == seats
    verdict = registry.get("sanmarco").validate(result.record)
    assert verdict.valid and [str(s) for s in verdict.outcome.scores] == list(result.scores)


def test_the_board_game_table_page_offers_every_legal_move(people, commit):
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["member"])
    commit(
        client.post,
        "/play/new/",
        {"club": people.club.pk, "ruleset": "sanmarco:base3", "others": "heuristic"},
    )
    table = GameTable.objects.get()
    state = services.state_of(table)
    page = client.get(f"/play/{table.pk}/").content.decode()
    assert page.count('class="play-action"') == len(state.legal_actions(0))
    assert "lays a bridge between" in page  # seat 0 lays its first starting bridge
