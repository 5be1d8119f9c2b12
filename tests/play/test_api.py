"""/api/v1/play/: make a table, join a seat, read your view, act."""

from __future__ import annotations

import json

import pytest

from games.core.fair import commitment
from ledger.play.models import GameTable


def _create(client, people, **body):
    data = {"club": people.club.pk, "game": "cardchess", "seats": ["me", "heuristic"]}
    data.update(body)
    return client.post("/api/v1/play/tables/", data, format="json")


def test_it_creates_a_table_and_returns_the_seats(people, django_capture_on_commit_callbacks):
    client = people.client("member")
    with django_capture_on_commit_callbacks(execute=True):
        response = _create(client, people)
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "playing"
    assert [s["kind"] for s in body["seats"]] == ["human", "heuristic"]
    assert body["your_seat"] == 0
    assert body["invite"].startswith(f"/play/{body['id']}/join/")


def test_it_refuses_a_bad_seat_list_with_what_to_fix(people):
    response = _create(people.client("member"), people, seats=["me", "me"])
    assert response.status_code == 400
    assert response.json()["error"]["fields"]["seats"]
    response = _create(people.client("member"), people, seats=["me"])
    assert response.status_code == 400
    assert "2" in response.json()["error"]["message"]


def test_it_needs_a_login_to_create(people):
    assert _create(people.client(None), people).status_code in (401, 403)


def test_a_player_joins_by_invite_reads_the_view_and_acts(
    people, django_capture_on_commit_callbacks
):
    owner = people.client("member")
    with django_capture_on_commit_callbacks(execute=True):
        body = _create(owner, people, seats=["open", "me"]).json()
    table_id = body["id"]
    invite = body["invite"].rstrip("/").rsplit("/", 1)[-1]
    guest = people.client("scorekeeper")
    assert guest.get(f"/api/v1/play/tables/{table_id}/view/").status_code == 403
    wrong = guest.post(f"/api/v1/play/tables/{table_id}/join/", {"invite": "x"}, format="json")
    assert wrong.status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        joined = guest.post(
            f"/api/v1/play/tables/{table_id}/join/", {"invite": invite}, format="json"
        )
    assert joined.status_code == 200 and joined.json()["status"] == "playing"
    view = guest.get(f"/api/v1/play/tables/{table_id}/view/").json()
    assert view["seat"] == 0 and view["your_turn"] and view["legal_actions"]
    assert "hand" in view["view"]
    # The owner, not on turn, is refused with the rule.
    refused = owner.post(
        f"/api/v1/play/tables/{table_id}/act/",
        {"action": view["legal_actions"][0]},
        format="json",
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "rule_violation"
    assert refused.json()["error"]["violations"][0]["rule"] == "cardchess.turn.order"
    first = guest.post(
        f"/api/v1/play/tables/{table_id}/act/",
        {"action": view["legal_actions"][0], "move_id": "one"},
        format="json",
    )
    assert first.status_code == 201
    again = guest.post(
        f"/api/v1/play/tables/{table_id}/act/",
        {"action": view["legal_actions"][0], "move_id": "one"},
        format="json",
    )
    assert again.status_code == 200
    assert again.json()["moves"] == first.json()["moves"]


def test_it_plays_a_whole_game_and_gives_the_record(people, django_capture_on_commit_callbacks):
    client = people.client("member")
    with django_capture_on_commit_callbacks(execute=True):
        table_id = _create(client, people, game="sanmarco").json()["id"]
    assert client.get(f"/api/v1/play/tables/{table_id}/record/").status_code == 409
    for i in range(20):
        view = client.get(f"/api/v1/play/tables/{table_id}/view/").json()
        if view["status"] != "playing":
            break
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                f"/api/v1/play/tables/{table_id}/act/",
                {"action": view["legal_actions"][-1]},
                format="json",
                HTTP_IDEMPOTENCY_KEY=f"k{i}",
            )
        assert response.status_code == 201, response.json()
    # Against a bot the game is practice: over, with its record, and nothing in the ledger.
    assert view["status"] == "finished" and view["result"] is None and view["outcome"]
    record = client.get(f"/api/v1/play/tables/{table_id}/record/").json()
    assert record["game"] == "sanmarco" and len(record["actions"]) == 4
    summary = client.get(f"/api/v1/play/tables/{table_id}/").json()
    assert (
        summary["practice"] is True and summary["seed"] == GameTable.objects.get(pk=table_id).seed
    )
    assert commitment(summary["seed"], table_id) == summary["commitment"]


def test_it_refuses_a_clients_seed_unless_the_table_is_practice(people):
    client = people.client("member")
    refused = _create(client, people, seats=["me", "open"], seed=7)
    assert refused.status_code == 400 and "seed" in refused.json()["error"]["fields"]
    made = _create(client, people, seats=["me", "open"], seed=7, practice=True)
    assert made.status_code == 201
    body = made.json()
    assert body["practice"] and body["named_deal"] and body["seed"] is None
    assert body["commitment"] == commitment(7, body["id"])


@pytest.mark.parametrize("path", ["", "view/", "record/"])
def test_an_unknown_table_is_a_404(people, path):
    assert people.client("member").get(f"/api/v1/play/tables/999/{path}").status_code == 404


def test_the_play_endpoints_are_in_the_schema(client, db):
    schema = client.get("/api/schema/").content.decode()
    for path in ["/api/v1/play/tables/", "/api/v1/play/tables/{id}/act/", "join/", "view/"]:
        assert path in schema


def test_it_asks_for_game_and_seats_unless_a_scheduled_table_is_given(people):
    response = people.client("member").post(
        "/api/v1/play/tables/", {"club": people.club.pk}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()["error"]["fields"]) == {"game", "seats"}


def test_it_opens_a_scheduled_table_for_its_players(people, django_capture_on_commit_callbacks):
    from ledger.clubs.models import Competition
    from ledger.clubs.results.services import create_table

    comp = Competition.objects.create(
        club=people.club, name="Lega", slug="lega", game="ergio", ruleset={"name": "base"}
    )
    sitting = create_table(
        user=people.users["organiser"],
        competition=comp,
        label="T1",
        players=[people.players["member"], people.players["referee"]],
    )
    response = people.client("member").post(
        "/api/v1/play/tables/",
        {"club": people.club.pk, "ledger_table": sitting.pk},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["ledger_table"] == sitting.pk and body["competition"] == comp.pk
    assert [s["kind"] for s in body["seats"]] == ["human", "open"]
    assert body["seats"][1]["name"] == "Referee"


def test_a_table_made_through_the_api_may_have_a_clock(people, django_capture_on_commit_callbacks):
    client = people.client("member")
    with django_capture_on_commit_callbacks(execute=True):
        made = _create(client, people, clock={"kind": "game", "seconds": 300, "increment": 3})
    assert made.status_code == 201, made.json()
    table = GameTable.objects.get(pk=made.json()["id"])
    assert (table.clock_kind, table.clock_seconds, table.clock_increment) == ("game", 300, 3)
    refused = _create(client, people, clock={"kind": "move", "seconds": 2})
    assert refused.status_code == 400
    assert "5" in json.dumps(refused.json()["error"]["fields"])
