"""The club's export page: organisers only, linked from the club, the whole club as a
file that reads back line by line, and the CSV extracts."""

from __future__ import annotations

import io

import pytest
from django.test import Client

from ledger.clubs.results import services
from ledger.clubs.transfer import transfer

pytestmark = pytest.mark.django_db


@pytest.fixture
def recorded(people, manual_table):
    services.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3, -3]
    )
    return manual_table


def client_of(people, name: str | None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if name:
        client.force_login(people.users[name])
    return client


def test_it_is_linked_from_the_club_for_organisers_only(people, recorded):
    assert "/c/prova/export/" in client_of(people, "organiser").get("/").content.decode()
    assert "/c/prova/export/" not in client_of(people, "referee").get("/").content.decode()


def test_only_the_clubs_organisers_may_export(people, recorded):
    for name in ("member", "scorekeeper", "referee", "stranger"):
        assert client_of(people, name).get("/c/prova/export/").status_code == 403
        assert client_of(people, name).get("/c/prova/export/club.jsonl").status_code == 403
    assert client_of(people, None).get("/c/prova/export/").status_code == 302
    page = client_of(people, "organiser").get("/c/prova/export/")
    assert page.status_code == 200
    assert "/c/prova/export/club.jsonl" in page.content.decode()
    assert "/c/prova/coppa/standings.csv" in page.content.decode()


def test_the_download_is_the_club_file_without_secrets(people, recorded):
    response = client_of(people, "organiser").get("/c/prova/export/club.jsonl")
    assert response.status_code == 200
    assert 'filename="prova-' in response["Content-Disposition"]
    data = b"".join(response.streaming_content)
    assert b'"password"' not in data
    kinds = [row["t"] for _n, row, _h in transfer._Reader(io.BytesIO(data))]
    assert kinds[0] == "header" and kinds[-1] == "end"
    assert kinds.count("entry") == 2 and kinds.count("result") == 1


def test_the_results_extract_has_a_row_per_seat(people, recorded):
    response = client_of(people, "organiser").get("/c/prova/export/results.csv")
    lines = b"".join(response.streaming_content).decode().splitlines()
    assert lines[0].startswith("result,competition,round,table,status")
    assert len(lines) == 3
    assert "Accepted" in lines[1] and lines[1].endswith(",3") and lines[2].endswith(",-3")
