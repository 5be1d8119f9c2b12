"""Every bad input is a 4xx that says what to fix, never a 500: bodies too large (413),
JSON nested too deep, NaN and Infinity (400), numbers beyond any game's range. The probe's
findings: JSON nested 5,000 deep on six endpoints (the anonymous referee check among them),
points of 10^30 in a summary, ruling scores of 1e30 that also left a stray case behind,
3 and 20 MB bodies answered as HTML, NaN in a record stored as null."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from ledger.clubs.models import Result
from ledger.referee.models import Case

DEEP = "[" * 5000 + "]" * 5000
ENDPOINTS = [
    "/api/v1/results/",
    "/api/v1/referee/check",
    "/api/v1/referee/rulings",
    "/api/v1/tables/",
    "/api/v1/players/",
    "/api/v1/competitions/",
]


def _json(client: Any, url: str, body: str, **extra: Any) -> Any:
    return client.post(url, body, content_type="application/json", **extra)


@pytest.mark.parametrize("url", ENDPOINTS)
def test_json_nested_five_thousand_deep_is_a_400_in_the_error_shape(people, url):
    for client in (people.client(None), people.client("organiser")):
        answer = _json(client, url, DEEP)
        assert answer.status_code == 400, (url, answer.status_code)
        assert answer.json()["error"]["code"] == "malformed"
        assert "nested" in answer.json()["error"]["message"]


@pytest.mark.parametrize("size", [3_000_000, 20_000_000])
def test_a_body_of_several_megabytes_is_a_413_in_the_error_shape(people, size):
    body = json.dumps({"table": 1, "record": {"pad": "x" * size}})
    answer = _json(people.client("scorekeeper"), "/api/v1/results/", body)
    assert answer.status_code == 413
    assert answer["Content-Type"] == "application/json"
    assert "too large" in answer.json()["error"]["message"]
    page = Client(HTTP_ACCEPT_LANGUAGE="en").post(
        "/login/", "username=" + "x" * size, content_type="application/x-www-form-urlencoded"
    )
    assert page.status_code == 413 and "too large" in page.content.decode()


@pytest.mark.parametrize("token", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_not_stored_as_null(people, manual_table, token):
    body = (
        f'{{"table": {manual_table.pk}, "source": "manual", "scores": [1, 0], '
        f'"record": {{"x": {token}}}}}'
    )
    answer = _json(people.client("scorekeeper"), "/api/v1/results/", body)
    assert answer.status_code == 400
    assert "NaN" in answer.json()["error"]["message"]
    assert not Result.objects.exists()
    # Inside a string they are just words.
    fine = body.replace(token, f'"{token}"')
    assert _json(people.client("scorekeeper"), "/api/v1/results/", fine).status_code == 201


@pytest.mark.parametrize("points", ["1e30", "1000000000000000000000000000000", "-1e9", "1e-30"])
def test_points_beyond_any_games_range_are_a_400(people, manual_table, points):
    body = f'{{"table": {manual_table.pk}, "source": "manual", "scores": [{points}, 0]}}'
    answer = _json(people.client("scorekeeper"), "/api/v1/results/", body)
    assert answer.status_code == 400, answer.content
    assert not Result.objects.exists()


def test_a_summary_whose_points_are_ten_to_the_thirty_is_a_400(people, club):
    from games.core import registry
    from ledger.clubs.models import Competition
    from ledger.clubs.results.services import create_table

    if "tarocco" not in registry.available():
        pytest.skip("no Tarocco engine")
    competition = Competition.objects.create(club=club, name="T", slug="t", game="tarocco")
    table = create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:4],
    )
    body = json.dumps(
        {
            "table": table.pk,
            "source": "summary",
            "record": {"outcome": "solo", "declarer": 1, "card_points": 10**30},
        }
    )
    answer = _json(people.client("scorekeeper"), "/api/v1/results/", body)
    assert answer.status_code == 400, answer.content
    assert answer["Content-Type"] == "application/json"


def test_ruling_scores_of_1e30_are_a_400_and_leave_no_case(people, manual_table):
    answer = _json(
        people.client("scorekeeper"),
        "/api/v1/results/",
        json.dumps({"table": manual_table.pk, "source": "manual", "scores": [1, 0]}),
    )
    result = answer.json()["id"]
    ruling = _json(
        people.client("referee"),
        "/api/v1/referee/rulings",
        json.dumps({"result": result, "kind": "assigned", "scores": [1e30, 0], "note": "x"}),
    )
    assert ruling.status_code == 400, ruling.content
    assert not Case.objects.exists()
