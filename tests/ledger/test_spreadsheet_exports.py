"""Standings and the journal download as .xlsx and .ods workbooks besides CSV: numbers as
numbers (not text), a frozen header row, columns as wide as their cells, any "as of" round."""

from __future__ import annotations

import io
import zipfile
from decimal import Decimal

import pytest

from tests.ledger.helpers import record
from tests.ledger.test_standings_and_ratings import league, play_both_rounds

__all__ = ["league"]  # the fixture, shared with the CSV export's tests


def workbook(response):
    import openpyxl

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    return openpyxl.load_workbook(io.BytesIO(response.content))


def test_the_standings_xlsx_has_numbers_as_numbers_and_a_frozen_header(client, people, league):
    competition, tables, players = league
    play_both_rounds(people, tables, players)
    _a, _b, c, _d = players
    book = workbook(client.get(f"/c/prova/{competition.slug}/standings.xlsx"))
    sheet = book.worksheets[0]
    assert sheet.freeze_panes == "A2"
    header = [cell.value for cell in sheet[1]]
    assert header[:3] == ["rank", "player_id", "player"]
    first = dict(zip(header, [cell.value for cell in sheet[2]], strict=True))
    assert first["player"] == c.name
    assert first["points"] == 25 and isinstance(first["points"], int | float)
    assert isinstance(first["rank"], int) and isinstance(first["played"], int)
    assert sheet[2][header.index("points")].data_type == "n"
    # The names' column is as wide as the longest name, not the default.
    width = sheet.column_dimensions["C"].width
    assert width >= max(len(p.name) for p in players)
    assert (
        f"{competition.club.slug}-{competition.slug}-standings.xlsx"
        in (client.get(f"/c/prova/{competition.slug}/standings.xlsx")["Content-Disposition"])
    )


def test_the_standings_as_of_a_round_download_as_that_round_left_them(client, people, league):
    competition, tables, players = league
    play_both_rounds(people, tables, players)
    a = players[0]
    response = client.get(f"/c/prova/{competition.slug}/standings.xlsx?round=1")
    assert "standings-round-1.xlsx" in response["Content-Disposition"]
    sheet = workbook(response).worksheets[0]
    header = [cell.value for cell in sheet[1]]
    first = dict(zip(header, [cell.value for cell in sheet[2]], strict=True))
    assert (first["player"], first["points"]) == (a.name, 10)


def test_the_standings_ods_opens_with_its_numbers_as_floats(client, people, league):
    from odf import opendocument, table

    competition, tables, players = league
    record(people, tables[(1, players[0].name, players[1].name)], [10, 0])
    response = client.get(f"/c/prova/{competition.slug}/standings.ods")
    assert response["Content-Type"] == "application/vnd.oasis.opendocument.spreadsheet"
    doc = opendocument.load(io.BytesIO(response.content))
    (sheet,) = doc.spreadsheet.getElementsByType(table.Table)
    rows = sheet.getElementsByType(table.TableRow)
    header = [str(c) for c in rows[0].getElementsByType(table.TableCell)]
    cells = rows[1].getElementsByType(table.TableCell)
    points = cells[header.index("points")]
    assert points.getAttribute("valuetype") == "float"
    assert Decimal(points.getAttribute("value")) == 10
    # The header row is frozen (the view settings), the columns have their widths.
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        view = archive.read("settings.xml").decode()
        content = archive.read("content.xml").decode()
    assert "VerticalSplitPosition" in view
    assert "table:column-width" in content or "style:column-width" in content


def test_the_journal_downloads_as_workbooks_with_its_points_as_numbers(client, people, league):
    competition, tables, players = league
    record(people, tables[(1, players[0].name, players[1].name)], [10, 0])
    sheet = workbook(client.get(f"/c/prova/{competition.slug}/journal.xlsx")).worksheets[0]
    header = [cell.value for cell in sheet[1]]
    entries = [dict(zip(header, [c.value for c in row], strict=True)) for row in sheet.iter_rows(2)]
    assert [e["sequence"] for e in entries] == [1, 2]
    assert sorted(e["points"] for e in entries) == [0, 10]
    assert len(entries[0]["hash"]) == 64
    assert sheet.freeze_panes == "A2"
    ods = client.get(f"/c/prova/{competition.slug}/journal.ods")
    assert ods.status_code == 200 and ods.content.startswith(b"PK")


@pytest.mark.parametrize("language", ["it", "en"])
def test_the_competition_page_links_the_workbooks_in_words(client, people, league, language):
    competition, _tables, _players = league
    page = client.get(f"/c/prova/{competition.slug}/", HTTP_ACCEPT_LANGUAGE=language)
    text = page.content.decode()
    for name in ("standings.xlsx", "standings.ods", "journal.xlsx", "journal.ods"):
        assert f"/c/prova/{competition.slug}/{name}" in text
    words = "come cartella di lavoro Excel" if language == "it" else "as an Excel workbook"
    assert words in text
