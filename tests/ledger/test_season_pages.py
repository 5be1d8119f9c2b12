"""A season's page and files: the championship table in the reader's language, "as of" a
night, downloaded as CSV, .xlsx and .ods with numbers as numbers, and as a PDF; its rules
declared by the organiser on a form that keeps what was typed when it refuses it."""

from __future__ import annotations

import csv
import io
import zipfile
from typing import Any

import pytest

from ledger.formats.models import Championship
from tests.formats.season_fixture import make_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(club: Any, people: Any, points_game: str) -> Any:
    made, _results = make_season(club, people.users["organiser"])
    Championship.objects.create(
        season=made,
        game="punti",
        place_points=["10", "8", "6", "5", "4", "3"],
        best_of=4,
        min_nights=4,
        qualifiers=4,
    )
    return made


def test_the_season_page_shows_the_table_in_italian_with_the_line(client: Any, season: Any) -> None:
    page = client.get(f"/c/prova/seasons/{season.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Classifica del campionato" in text
    assert "Le migliori 4 serate su 6 contano." in text
    assert text.index("Anna") < text.index("Bruno") < text.index("Dario") < text.index("Elena")
    assert "qualification-line" in text and "in finale" in text
    assert "(5)" in text  # Anna's dropped night in brackets


def test_the_season_as_of_a_night(client: Any, season: Any) -> None:
    page = client.get(f"/c/prova/seasons/{season.pk}/?night=3", HTTP_ACCEPT_LANGUAGE="en")
    assert "after night 3" in page.content.decode()
    assert client.get(f"/c/prova/seasons/{season.pk}/?night=9").status_code == 404


def test_the_season_downloads_with_numbers_as_numbers(client: Any, season: Any) -> None:
    import openpyxl

    book = openpyxl.load_workbook(
        io.BytesIO(
            client.get(
                f"/c/prova/seasons/{season.pk}/table.xlsx", HTTP_ACCEPT_LANGUAGE="en"
            ).content
        )
    )
    sheet = book.worksheets[0]
    header = [c.value for c in sheet[1]]
    first = dict(zip(header, [c.value for c in sheet[2]], strict=True))
    assert first["Player"] == "Anna" and first["Points"] == 34
    assert sheet[2][header.index("Points")].data_type == "n"
    assert first["Serata 3"] == 6
    ods = client.get(f"/c/prova/seasons/{season.pk}/table.ods").content
    content = zipfile.ZipFile(io.BytesIO(ods)).read("content.xml").decode()
    assert 'office:value-type="float" office:value="34"' in content
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/c/prova/seasons/{season.pk}/table.csv").content.decode())
        )
    )
    assert rows[1][:2] == ["1", "Anna"] and rows[1][-3] == "34"
    pdf = client.get(f"/c/prova/seasons/{season.pk}/table.pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_the_club_and_each_night_link_to_the_season(client: Any, season: Any) -> None:
    address = f"/c/prova/seasons/{season.pk}/"
    assert address in client.get("/").content.decode()
    assert address in client.get("/c/prova/serata-2/").content.decode()


def test_the_organiser_declares_the_rules_and_bad_points_are_refused_at_the_field(
    client: Any, people: Any, season: Any
) -> None:
    client.force_login(people.users["organiser"])
    nights = [str(pk) for pk in season.competitions.values_list("pk", flat=True)]
    form = {
        "name": "Campionato sociale 2026",
        "starts_on": "2026-01-08",
        "ends_on": "2026-06-30",
        "game": "punti",
        "nights": nights,
        "scoring": "places",
        "place_points": "12-9-sette",
        "best_of": "3",
        "min_nights": "1",
        "tiebreak_1": "places",
        "qualifiers": "2",
    }
    refused = client.post(f"/c/prova/seasons/{season.pk}/rules/", form, HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 400
    text = refused.content.decode()
    assert "sette" in text and 'value="12-9-sette"' in text
    form["place_points"] = "12-9-7"
    saved = client.post(f"/c/prova/seasons/{season.pk}/rules/", form)
    assert saved.status_code == 302
    rules = Championship.objects.get(season=season)
    assert rules.place_points == ["12", "9", "7"] and rules.best_of == 3
    assert rules.tiebreaks == ["places"] and rules.qualifiers == 2


def test_only_organisers_change_a_seasons_rules(client: Any, people: Any, season: Any) -> None:
    client.force_login(people.users["scorekeeper"])
    assert client.get(f"/c/prova/seasons/{season.pk}/rules/").status_code == 403


def test_a_new_season_groups_nights_of_one_game_only(
    client: Any, people: Any, season: Any, club: Any
) -> None:
    from ledger.clubs.models import Competition

    other = Competition.objects.create(club=club, name="Scacchi", slug="scacchi", game="cardchess")
    client.force_login(people.users["organiser"])
    page = client.post(
        "/c/prova/seasons/new/",
        {
            "name": "Estate",
            "starts_on": "2026-07-01",
            "ends_on": "2026-08-31",
            "game": "punti",
            "nights": [str(other.pk)],
            "scoring": "points",
            "min_nights": "1",
        },
    )
    assert page.status_code == 400
    assert "Scacchi" in page.content.decode()


def test_the_season_names_its_final_and_the_office_lists_it(
    client: Any, people: Any, season: Any, club: Any
) -> None:
    from ledger.clubs.models import Competition
    from ledger.formats import stages

    final = Competition.objects.create(club=club, name="Finale", slug="finale", game="punti")
    stages.make_stage(
        user=people.users["organiser"],
        competition=final,
        sources=[],
        season=season,
        rule="top",
        count=4,
        threshold=None,
        carry_over=False,
    )
    page = client.get(f"/c/prova/seasons/{season.pk}/").content.decode()
    assert "/c/prova/finale/stage/" in page
    client.force_login(people.users["organiser"])
    hub = client.get("/c/prova/office/").content.decode()
    assert f"/c/prova/seasons/{season.pk}/rules/" in hub


def test_the_season_page_reads_two_queries_a_night(
    client: Any, season: Any, django_assert_num_queries: Any
) -> None:
    # The season, its rules, its nights, each night's last round and standings, its finals.
    with django_assert_num_queries(4 + 2 * 6):
        client.get(f"/c/prova/seasons/{season.pk}/")
    assert client.get(f"/c/prova/seasons/{season.pk}/?night=0").status_code == 404
    assert client.get(f"/c/prova/seasons/{season.pk}/?night=7").status_code == 404
