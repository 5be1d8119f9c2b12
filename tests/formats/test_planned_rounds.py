"""A competition ends after its planned rounds: it says it is concluded with its final
standings, offers no further round, and goes on only when the organiser adds rounds (a
round robin its return cycle). A knockout names its champion wherever its table is read."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client

from ledger.clubs.errors import Conflict
from ledger.clubs.models import Competition, Table
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from tests.formats.conftest import enter, make_competition

pytestmark = pytest.mark.django_db


def page(people: Any, comp: Competition, tail: str = "", role: str | None = None) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if role:
        client.force_login(people.users[role])
    return client.get(f"/c/{comp.club.slug}/{comp.slug}/{tail}").content.decode()


def play_round(people: Any, comp: Competition) -> None:
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    for table in Table.objects.filter(round=draw.round):
        core.record_result(
            user=people.users["scorekeeper"], table=table, source="manual", scores=[3, 1]
        )


def planned(club: Any, people: Any, fmt: str) -> Competition:
    """A competition of ``fmt`` with four players and a plan: two rounds where the format
    takes a number, a round robin's three, a knockout's two."""
    comp = make_competition(club, fmt)
    players = enter(people, comp, 4)
    if fmt == "team":
        for i, p in enumerate(players):
            services.create_team(
                user=people.users["organiser"], competition=comp, name=f"Squadra {i}", members=[p]
            )
    if fmt in ("swiss", "league", "team"):
        services.update_settings(user=people.users["organiser"], competition=comp, rounds=2)
    return comp


EXPECTED = {"swiss": 2, "league": 2, "team": 2, "round_robin": 3, "knockout": 2}


@pytest.mark.parametrize("fmt", sorted(EXPECTED))
def test_no_format_draws_a_round_past_its_plan(
    club: Any, people: Any, points_game: str, fmt: str
) -> None:
    comp = planned(club, people, fmt)
    assert selectors.planned_rounds(comp) == EXPECTED[fmt]
    for n in range(1, EXPECTED[fmt] + 1):
        assert f"Draw round {n}" in page(people, comp, "rounds/manage/", "organiser")
        play_round(people, comp)
    state = selectors.progress(comp)
    assert (state.published, state.all_drawn, state.concluded) == (EXPECTED[fmt], True, True)
    with pytest.raises(Conflict):
        services.generate_round(user=people.users["organiser"], competition=comp)
    manage = page(people, comp, "rounds/manage/", "organiser")
    assert f"Draw round {EXPECTED[fmt] + 1}" not in manage and 'id="generate"' not in manage
    assert "Concluded" in manage
    home = page(people, comp)
    assert 'id="concluded"' in home and "Final standings" in home
    assert ('id="extend"' in manage) == (fmt != "knockout")


def test_the_organiser_adds_rounds_to_go_on(club: Any, people: Any, points_game: str) -> None:
    comp = planned(club, people, "swiss")
    play_round(people, comp)
    play_round(people, comp)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["organiser"])
    url = f"/c/{club.slug}/{comp.slug}/rounds/manage/"
    answer = client.post(url, {"action": "extend", "rounds": "1"}, follow=True)
    assert "1 round added: 3 rounds are planned." in answer.content.decode()
    assert "Draw round 3" in answer.content.decode()
    assert not selectors.progress(comp).concluded
    play_round(people, comp)
    assert selectors.progress(comp).concluded


def test_the_api_tells_a_competition_is_over_and_adds_rounds(
    club: Any, people: Any, points_game: str
) -> None:
    comp = planned(club, people, "swiss")
    play_round(people, comp)
    play_round(people, comp)
    api = people.client("organiser")
    base = f"/api/v1/formats/competitions/{comp.pk}/"
    settings = api.get(base + "settings/").json()
    assert (settings["planned_rounds"], settings["concluded"]) == (2, True)
    refused = api.post(base + "rounds/generate/")
    assert refused.status_code == 409
    assert "add rounds" in refused.json()["error"]["message"]
    assert people.client("referee").post(base + "rounds/extend/", {"rounds": 1}).status_code == 403
    added = api.post(base + "rounds/extend/", {"rounds": 2}, format="json").json()
    assert (added["planned_rounds"], added["concluded"]) == (4, False)
    assert api.post(base + "rounds/generate/").status_code == 201


def test_a_round_robin_goes_on_with_its_return_cycle(
    club: Any, people: Any, points_game: str
) -> None:
    comp = planned(club, people, "round_robin")
    for _ in range(3):
        play_round(people, comp)
    services.extend_rounds(user=people.users["organiser"], competition=comp)
    assert selectors.planned_rounds(comp) == 6
    play_round(people, comp)
    with pytest.raises(Conflict):
        services.extend_rounds(user=people.users["organiser"], competition=comp)


def test_the_champion_is_named_on_the_bracket_the_standings_and_the_competition_page(
    club: Any, people: Any, points_game: str
) -> None:
    comp = planned(club, people, "knockout")
    play_round(people, comp)
    assert "Champion" not in page(people, comp, "bracket/")
    play_round(people, comp)
    champion = selectors.champion(comp)
    assert champion is not None
    name = champion["name"]
    assert f"Champion: {name}" in page(people, comp, "bracket/")
    home = page(people, comp)
    assert f"Champion: {name}" in home and 'id="knockout-standings"' in home
    body = Client().get(f"/c/{club.slug}/{comp.slug}/standings.csv").content.decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [r["rank"] for r in rows] == ["1", "2", "3", "3"]
    assert rows[0]["player"] == name
    api = people.client(None).get(f"/api/v1/formats/competitions/{comp.pk}/standings/").json()
    assert api["champion"]["name"] == name and api["concluded"] is True
    assert [r["place"] for r in api["rows"]] == [1, 2, 3, 3]
