"""schemathesis against /api/schema/: every operation, as an organiser (so that writes go
through) and anonymously, with generated valid and invalid requests. No answer may be a 5xx,
and every answer (status, content type, headers, body) must be what the schema documents.

The suite runs a fixed, small sample per operation; ``make fuzz-api`` runs a long random one
(FUZZ_API_EXAMPLES per operation)."""

from __future__ import annotations

import os

import pytest
from django.db import connection
from django.test import Client

from tests.hardening.api_fuzz import (
    api_schema,
    build_world,
    dump,
    fuzz_operation,
    hostile_operation,
    operations,
)

LONG = int(os.environ.get("FUZZ_API_EXAMPLES", "0"))


def test_the_schema_documents_every_operation_and_its_errors():
    labels = operations()
    assert len(labels) >= 45
    raw = api_schema().raw_schema
    assert "ApiError" in raw["components"]["schemas"]
    for path, ops in raw["paths"].items():
        for method, op in ops.items():
            assert {"400", "403", "404", "503"} <= set(op["responses"]), f"{method} {path}"


# On PostgreSQL each request commits on its own, as in production: the WSGI handler closes
# the connection between requests, which a test-wide transaction would not survive. (SQLite's
# in-memory test database ignores the close, and its append-only triggers refuse the flush
# that a transactional test ends with.)
@pytest.mark.django_db(transaction=connection.vendor == "postgresql")
@pytest.mark.parametrize(("who", "examples"), [("organiser", 8), (None, 4)])
def test_every_api_answer_matches_the_schema_and_none_is_a_server_error(people, who, examples):
    world = build_world(people)
    failures = []
    for label in operations():
        failures += fuzz_operation(label, world, who, LONG or examples, fixed=not LONG)
    assert not failures, f"{len(failures)} failure(s):\n" + dump(failures[:20])


@pytest.mark.django_db(transaction=connection.vendor == "postgresql")
@pytest.mark.parametrize("who", ["organiser", None, "a made-up token"])
def test_the_probes_hostile_inputs_reach_every_operation_and_none_is_a_server_error(people, who):
    """JSON nested 5,000 deep, a 3 MB body, numbers of 10^30, 1e30, NaN and Infinity in
    every body; every field of every body set to a list, an object, a string, null, true,
    1.5 and 2^64 in turn, and bodies that are not objects; NaN, 10^40 and the like in every
    query and path parameter. As an organiser, anonymously, and with a made-up token."""
    world = build_world(people)
    failures = []
    for label in operations():
        failures += hostile_operation(label, world, who)
    assert not failures, f"{len(failures)} failure(s):\n" + dump(failures[:20])


# --- what the fuzzing found, pinned down ----------------------------------------------------


def test_an_id_beyond_the_database_range_is_answered_not_a_server_error(people):
    client = people.client("organiser")
    # SQLite cannot even bind such a number (OverflowError): that is the caller's mistake.
    entrants = client.get("/api/v1/formats/competitions/58845121225575120896/entrants/")
    assert entrants.status_code in (200, 400), entrants.status_code
    result = client.get("/api/v1/results/58845121225575120896/")
    assert result.status_code in (400, 404), result.status_code
    assert set(result.json()) == {"error"}


def test_an_unknown_api_address_answers_json_in_the_error_shape(client, db):
    response = client.get("/api/v1/formats/competitions/-1.9/bracket/")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "not_found"
    page = client.get("/no-such-page/")
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")


def test_format_settings_give_bye_points_as_the_documented_decimal_string(people):
    from ledger.clubs.models import Competition

    swiss = Competition.objects.create(
        club=people.club, name="S", slug="s", game="cardchess", format="swiss"
    )
    client = people.client("organiser")
    address = f"/api/v1/formats/competitions/{swiss.pk}/settings/"
    # Unset, a bye is worth a win on the standings' scale: null, as the schema allows.
    assert client.get(address).json()["bye_points"] is None
    client.patch(address, {"bye_points": "0.5"}, format="json")
    assert client.get(address).json()["bye_points"] == "0.50"
    schema = api_schema().raw_schema["components"]["schemas"]
    settings = next(v for k, v in schema.items() if "bye_points" in v.get("properties", {}))
    assert settings["properties"]["bye_points"].get("nullable") is True


def test_a_result_not_superseded_shows_null_as_the_schema_allows(people):
    world = build_world(people)
    assert world.ids["id"]
    listed = people.client(None).get("/api/v1/results/").json()["results"]
    assert listed and all(r["superseded_by"] is None for r in listed)
    schema = api_schema().raw_schema["components"]["schemas"]["Result"]["properties"]
    assert schema["superseded_by"].get("nullable") is True


def test_a_limit_of_many_digits_is_cut_to_the_ceiling_not_a_server_error(people):
    response = people.client(None).get(
        "/api/v1/players/", {"limit": "1131064739239173996675072", "offset": "-5"}
    )
    assert response.status_code == 200
    assert response.json()["count"] == len(response.json()["results"]) > 0


def test_an_invitation_with_non_ascii_characters_is_refused_not_a_server_error(people):
    from ledger.play import services as play

    table = play.create_table(
        user=people.users["member"], club=people.club, game="cardchess", seats=["me", "open"]
    )
    client = people.client("organiser")
    response = client.post(
        f"/api/v1/play/tables/{table.pk}/join/", {"invite": "÷â;"}, format="json"
    )
    assert response.status_code == 403
    assert "invitation" in response.json()["error"]["message"]
    browser = Client()
    browser.force_login(people.users["organiser"])
    page = browser.post(f"/play/{table.pk}/join/%C3%B7%C3%A2/")
    assert page.status_code < 500
    assert table.seats.filter(kind="open").count() == 1
