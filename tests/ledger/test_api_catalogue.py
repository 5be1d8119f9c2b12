"""Clubs, players, competitions and tables through the API, with permissions per role."""

from __future__ import annotations

import pytest

from ledger.clubs.models import Competition, Membership, Player


def test_clubs_are_public_and_read_only(people, club):
    client = people.client(None)
    assert client.get("/api/v1/clubs/").json()["results"][0]["slug"] == "prova"
    assert people.client("organiser").post("/api/v1/clubs/", {"name": "x"}).status_code == 405


@pytest.mark.parametrize(("who", "status"), [("organiser", 201), ("referee", 403), ("member", 403)])
def test_only_an_organiser_adds_players_to_the_club(people, club, who, status):
    response = people.client(who).post(
        "/api/v1/players/", {"name": "Nuova Giocatrice", "club": club.pk}, format="json"
    )
    assert response.status_code == status
    assert Player.objects.filter(name="Nuova Giocatrice").exists() == (status == 201)
    if status == 201:
        assert Membership.objects.get(player__name="Nuova Giocatrice").club == club


def test_players_are_filtered_by_club(people, club, other_club):
    Membership.objects.create(club=other_club, player=people.extra[0])
    listed = people.client(None).get("/api/v1/players/", {"club": other_club.pk}).json()
    assert [p["name"] for p in listed["results"]] == [people.extra[0].name]


def test_an_organiser_creates_a_competition_and_a_bad_ruleset_is_refused(people, club):
    client = people.client("organiser")
    body = {"club": club.pk, "name": "Lega", "slug": "lega", "game": "sanmarco", "format": "swiss"}
    assert client.post("/api/v1/competitions/", body, format="json").status_code == 201
    body2 = {**body, "slug": "lega2", "game": "scopa"}
    response = client.post("/api/v1/competitions/", body2, format="json")
    assert response.status_code == 400
    assert "game" in response.json()["error"]["fields"]


def test_a_referee_cannot_create_a_competition(people, club):
    body = {"club": club.pk, "name": "Lega", "slug": "lega", "game": "sanmarco"}
    assert (
        people.client("referee").post("/api/v1/competitions/", body, format="json").status_code
        == 403
    )
    assert not Competition.objects.filter(slug="lega").exists()


def test_a_scorekeeper_opens_a_table_with_its_players_in_seat_order(people, manual_competition):
    players = [people.extra[1].pk, people.extra[0].pk]
    response = people.client("scorekeeper").post(
        "/api/v1/tables/",
        {"competition": manual_competition.pk, "label": "Tavolo 9", "players": players},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert [s["player"] for s in response.json()["seats"]] == players


def test_a_table_with_an_unknown_player_names_the_field(people, manual_competition):
    response = people.client("scorekeeper").post(
        "/api/v1/tables/",
        {
            "competition": manual_competition.pk,
            "label": "T",
            "players": [people.extra[0].pk, 999999],
        },
        format="json",
    )
    assert response.status_code == 400
    assert "players" in response.json()["error"]["fields"]


def test_the_openapi_schema_and_its_docs_page_are_served(client, db):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/v1/results/" in schema.content
    assert b"Idempotency-Key" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200


def test_a_token_authenticates_api_writes(people, manual_table):
    response = people.client("scorekeeper").post(
        "/api/v1/results/",
        {"table": manual_table.pk, "source": "manual", "scores": [1, 1]},
        format="json",
    )
    assert response.status_code == 201
