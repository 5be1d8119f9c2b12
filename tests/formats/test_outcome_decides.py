"""Every format reads who won from the engine's Outcome kept in each result, never from
the points: an Er Giò match at 3-3 decided by the Bella Nazionale is a win in the Swiss's
table (page, API, CSV), its TRF, its next pairing and a knockout's bracket; players equal
on every criterion share their place."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ledger.clubs.models import Competition, Table
from ledger.clubs.projections.standings import standings
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from tests.formats.conftest import enter
from tests.formats.level_results import Typed, decided

pytestmark = pytest.mark.django_db


def bella_nazionale() -> Typed:
    typed = decided("ergio", 2)
    assert typed is not None and typed.level, "no Er Giò match level at the Bella Nazionale"
    assert typed.summary["scontri"] and typed.scores[0] == typed.scores[1]
    return typed


def ergio(club: Any, fmt: str, typed: Typed) -> Competition:
    return Competition.objects.create(
        club=club,
        name=f"Er Giò {fmt}",
        slug=f"ergio-{fmt}",
        game="ergio",
        format=fmt,
        ruleset={"name": typed.ruleset},
    )


def play_round(people: Any, comp: Competition, typed: Typed) -> list[Table]:
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    tables = list(Table.objects.filter(round=draw.round).prefetch_related("seats"))
    for table in tables:
        core.record_result(
            user=people.users["scorekeeper"], table=table, source="summary", record=typed.summary
        )
    return tables


def seated(table: Table) -> list[int]:
    return [s.player_id for s in sorted(table.seats.all(), key=lambda s: s.index)]


def test_a_bella_nazionale_at_three_all_is_a_win_in_every_projection_of_the_swiss(
    club: Any, people: Any
) -> None:
    typed = bella_nazionale()
    comp = ergio(club, "swiss", typed)
    enter(people, comp, 2)
    (table,) = play_round(people, comp, typed)
    winner = seated(table)[typed.winners[0]]
    loser = seated(table)[1 - typed.winners[0]]

    rows = {r["player"]: r for r in selectors.swiss_standings(comp)}
    assert (rows[winner]["wins"], rows[winner]["draws"], rows[winner]["score"]) == (1, 0, 2.0)
    assert (rows[loser]["losses"], rows[loser]["score"]) == (1, 0.0)
    assert (rows[winner]["rank"], rows[loser]["rank"]) == (1, 2)

    api = APIClient().get(f"/api/v1/formats/competitions/{comp.pk}/tiebreaks/").json()
    assert [(r["player"], r["score"]) for r in api] == [(winner, 2.0), (loser, 0.0)]

    body = Client().get(f"/c/{club.slug}/{comp.slug}/standings.csv").content.decode()
    lines = list(csv.DictReader(io.StringIO(body)))
    assert [(int(r["player_id"]), r["wins"], r["points"]) for r in lines] == [
        (winner, "1", "2"),
        (loser, "0", "0"),
    ]
    # The core standings (journal) agree with the Swiss's own table.
    core_rows = {r.player_id: r for r in standings(comp)}
    assert (core_rows[winner].wins, core_rows[loser].losses) == (1, 1)

    trf = selectors.trf_export(comp)
    results = {line[4:8].strip(): line for line in trf.splitlines() if line.startswith("001")}
    assert any(line.rstrip().endswith(" 1") for line in results.values())
    assert any(line.rstrip().endswith(" 0") for line in results.values())

    # The next pairing sees the winner a win ahead.
    players = {
        p.id: p.score
        for p in services._swiss_players(
            [(winner, 1, 0), (loser, 2, 0)],
            selectors.history(comp),
            2,
            *selectors.swiss_scale(comp),
        )
    }
    assert players == {winner: 1.0, loser: 0.0}


def test_the_round_page_names_the_winner_of_a_table_level_on_points(club: Any, people: Any) -> None:
    typed = bella_nazionale()
    comp = ergio(club, "swiss", typed)
    enter(people, comp, 2)
    play_round(people, comp, typed)
    view = selectors.round_view(comp, 1)
    assert view is not None
    (shown,) = view["tables"]
    names = [s["name"] for s in shown["seats"]]
    assert shown["winners"] == [names[typed.winners[0]]]
    assert not shown["drawn"]
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/c/{club.slug}/{comp.slug}/rounds/1/")
    assert f"Won by {names[typed.winners[0]]}" in page.content.decode()


def test_a_knockout_match_level_on_points_goes_to_the_outcomes_winner(
    club: Any, people: Any
) -> None:
    typed = bella_nazionale()
    comp = ergio(club, "knockout", typed)
    enter(people, comp, 2)
    (table,) = play_round(people, comp, typed)
    winner = seated(table)[typed.winners[0]]
    (match,) = services.KnockoutMatch.objects.filter(competition=comp)
    assert selectors.match_winner(comp, match) == winner
    (final,) = selectors.bracket_view(comp)
    (cell,) = final["matches"]
    assert not cell["undecided"]
    assert [s["player"] for s in cell["sides"] if s["won"]] == [winner]


def test_swiss_players_equal_on_every_criterion_share_the_place(
    club: Any, people: Any, points_game: str
) -> None:
    comp = Competition.objects.create(
        club=club, name="Svizzero", slug="svizzero", game=points_game, format="swiss"
    )
    enter(people, comp, 4)
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    for table in Table.objects.filter(round=draw.round):
        core.record_result(
            user=people.users["scorekeeper"], table=table, source="manual", scores=[2, 2]
        )
    rows = selectors.swiss_standings(comp)
    assert [r["rank"] for r in rows] == [1, 1, 1, 1]
    api = APIClient().get(f"/api/v1/formats/competitions/{comp.pk}/tiebreaks/").json()
    assert [r["rank"] for r in api] == [1, 1, 1, 1]
    body = Client().get(f"/c/{club.slug}/{comp.slug}/standings.csv").content.decode()
    assert [r["rank"] for r in csv.DictReader(io.StringIO(body))] == ["1", "1", "1", "1"]


def test_a_table_of_several_hands_is_won_by_the_side_that_won_more_hands(
    club: Any, people: Any, points_game: str
) -> None:
    comp = Competition.objects.create(
        club=club, name="Tre mani", slug="tre-mani", game=points_game, format="swiss"
    )
    services.update_settings(user=people.users["organiser"], competition=comp, hands_per_table=3)
    enter(people, comp, 2)
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    (table,) = Table.objects.filter(round=draw.round)
    # The first seat wins two hands by a point, the second one hand by ten: fewer points,
    # more hands won.
    for scores in ([1, 0], [1, 0], [0, 10]):
        core.record_result(
            user=people.users["scorekeeper"], table=table, source="manual", scores=scores
        )
    first, second = seated(table)
    rows = {r["player"]: r for r in selectors.swiss_standings(comp)}
    assert (rows[first]["wins"], rows[second]["losses"]) == (1, 1)
    view = selectors.round_view(comp, 1)
    assert view is not None
    (shown,) = view["tables"]
    assert [s["won"] for s in shown["seats"]] == [2, 1]
    assert shown["winners"] == [shown["seats"][0]["name"]]


def test_a_tarocco_swiss_ranks_by_the_games_points_on_every_page(club: Any, people: Any) -> None:
    typed = decided("tarocco", 4)
    assert typed is not None
    comp = Competition.objects.create(
        club=club,
        name="Svizzero di Tarocco",
        slug="svizzero-tarocco",
        game="tarocco",
        format="swiss",
        ruleset={"name": typed.ruleset},
    )
    enter(people, comp, 4)
    (table,) = play_round(people, comp, typed)
    winners = {seated(table)[w] for w in typed.winners}
    rows = selectors.standings_for(comp)
    assert {r["player"] for r in rows if r["wins"] == 1} == winners
    body = Client().get(f"/c/{club.slug}/{comp.slug}/standings.csv").content.decode()
    lines = list(csv.DictReader(io.StringIO(body)))
    assert {int(r["player_id"]) for r in lines if r["wins"] == "1"} == winners
    assert APIClient().get(f"/api/v1/formats/competitions/{comp.pk}/tiebreaks/").json() == []
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    assert 'id="by-points"' in client.get(f"/c/{club.slug}/{comp.slug}/tiebreaks/").content.decode()
    assert 'id="swiss-standings"' not in client.get(f"/c/{club.slug}/{comp.slug}/").content.decode()
