"""A round's draw downloads for a spreadsheet (.xlsx, .ods, CSV) from its pairings page:
one row per seat, seats counted from 1, numbers as numbers, the header frozen."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger.clubs.models import Table
from ledger.formats import services as formats
from tests.night.conftest import enter, night_competition

pytestmark = pytest.mark.django_db


def test_a_rounds_pairings_download_as_workbooks_and_csv(
    club: Any, people: Any, points_game: str
) -> None:
    import openpyxl
    from odf import opendocument, table

    competition = night_competition(club)
    enter(people, competition, 12)
    draw = formats.generate_round(user=people.users["organiser"], competition=competition)
    formats.publish_draw(user=people.users["organiser"], draw=draw)
    tables = list(
        Table.objects.filter(round=draw.round).prefetch_related("seats__player").order_by("id")
    )
    seated = sum(len(t.seats.all()) for t in tables)
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["organiser"])
    url = reverse("night-print-pairings", args=[club.slug, competition.slug, 1])
    page = client.get(url).content.decode()
    assert 'id="pairings-xlsx"' in page and "come cartella di lavoro Excel" in page

    response = client.get(url + "?format=xlsx")
    assert "pairings-round-1.xlsx" in response["Content-Disposition"]
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).worksheets[0]
    assert sheet.title == "Turno 1" and sheet.freeze_panes == "A2"
    header = [c.value for c in sheet[1]]
    rows = [dict(zip(header, [c.value for c in r], strict=True)) for r in sheet.iter_rows(2)]
    assert len(rows) == seated
    first = tables[0]
    assert rows[0]["table"] == first.label and rows[0]["seat"] == 1
    assert isinstance(rows[0]["player_id"], int) and isinstance(rows[0]["round"], int)
    assert rows[0]["player"] == first.seats.all()[0].player.name

    ods = client.get(url + "?format=ods")
    doc = opendocument.load(io.BytesIO(ods.content))
    (only,) = doc.spreadsheet.getElementsByType(table.Table)
    assert len(only.getElementsByType(table.TableRow)) == seated + 1

    text = client.get(url + "?format=csv").content.decode()
    assert len(list(csv.reader(io.StringIO(text)))) == seated + 1
