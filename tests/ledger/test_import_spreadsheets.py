"""Imports read the files a club's secretary saves: CSV as Italian Excel writes it
(semicolons, decimal comma, UTF-8 with a byte-order mark), Windows-1252 CSV, .xlsx and
.ods workbooks; a bad row is named by its line (the sheet's row) and reason, and a file of
the wrong kind or layout is refused saying what an import takes."""

from __future__ import annotations

import csv
import io

import pytest
from django.utils import translation

from ledger.clubs.errors import Invalid
from ledger.clubs.models import Competition, ImportJob, Result
from ledger.clubs.transfer.imports import create_job, run_job
from ledger.clubs.transfer.selectors import in_words


@pytest.fixture
def tarocco(club):
    return Competition.objects.create(
        club=club, name="Tarocco", slug="tarocco-lega", game="tarocco"
    )


def sheet_rows(client, people, competition):
    """The template's header and three hands typed over its example: the third impossible
    (140 card points), the first with its points typed as a spreadsheet shows 61."""
    client.force_login(people.users["scorekeeper"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    text = client.get(f"/c/prova/import/template/{competition.slug}.csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    header, example = rows[0], rows[1]
    column = {name: n for n, name in enumerate(header)}
    hands = []
    for n, points in enumerate(["61,0", "52", "140"], start=1):
        row = list(example)
        row[column["outcome"]] = "solo"
        row[column["declarer"]] = "1"
        row[column["card_points"]] = points
        row[column["pair"]] = ""
        row[column["key"]] = f"hand-{n}"
        hands.append(row)
    return header, hands


def upload(people, raw, filename, fmt=None):
    job = create_job(
        user=people.users["scorekeeper"],
        club=people.club,
        filename=filename,
        raw=raw,
        fmt=fmt,
        language="en",
    )
    return job


def imported_two_and_named_the_bad_row(job, line=4):
    job = run_job(job.pk)
    assert (job.status, job.imported) == ("done", 2), job.errors
    assert [e["line"] for e in job.errors] == [line]
    assert "109" in job.errors[0]["message"]
    assert Result.objects.count() == 2


def test_an_italian_excel_csv_is_read_with_its_semicolons_decimal_comma_and_bom(
    client, people, tarocco
):
    header, hands = sheet_rows(client, people, tarocco)
    out = io.StringIO()
    csv.writer(out, delimiter=";", lineterminator="\r\n").writerows([header, *hands])
    job = upload(people, out.getvalue().encode("utf-8-sig"), "serata.csv")
    assert job.understood["separator"] == ";" and job.understood["rows"] == 3
    words = in_words(job.understood)
    assert words.startswith("CSV, semicolon-separated, UTF-8 with a byte-order mark: 3 rows;")
    assert "columns: competition, table, players, key, " in words
    imported_two_and_named_the_bad_row(job)


def test_a_windows_1252_tab_separated_csv_is_read(client, people, tarocco):
    header, hands = sheet_rows(client, people, tarocco)
    hands = [[c.replace("Table", "Tavolo è") for c in row] for row in hands]
    out = io.StringIO()
    csv.writer(out, delimiter="\t").writerows([header, *hands])
    job = upload(people, out.getvalue().encode("cp1252"), "serata.txt")
    assert (job.understood["encoding"], job.understood["separator"]) == ("cp1252", "\t")
    assert "tab-separated, Windows-1252" in in_words(job.understood)
    imported_two_and_named_the_bad_row(job)
    assert "è" in Result.objects.first().table.label


def test_an_xlsx_made_with_openpyxl_is_read_with_its_numbers(client, people, tarocco):
    import openpyxl

    header, hands = sheet_rows(client, people, tarocco)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Serata"
    sheet.append(header)
    for row in hands:
        # Numbers typed as numbers: 61.0 as the float a spreadsheet keeps.
        sheet.append(
            [float(c.replace(",", ".")) if c.replace(",", "").isdigit() else c for c in row]
        )
    sheet.append([])
    out = io.BytesIO()
    book.save(out)
    # Named .csv by mistake: the content says what it is.
    job = upload(people, out.getvalue(), "serata.csv", fmt="csv")
    assert job.format == "xlsx" and job.understood["sheet"] == "Serata"
    assert in_words(job.understood).startswith("Excel workbook, sheet “Serata”: 3 rows;")
    imported_two_and_named_the_bad_row(job)


def test_an_ods_made_with_odfpy_is_read(client, people, tarocco):
    from odf import opendocument, table, text

    header, hands = sheet_rows(client, people, tarocco)
    doc = opendocument.OpenDocumentSpreadsheet()
    sheet = table.Table(name="Serata")
    for values in [header, *hands]:
        row = table.TableRow()
        for value in values:
            if value.replace(",", "").isdigit():
                cell = table.TableCell(valuetype="float", value=value.replace(",", "."))
            else:
                cell = table.TableCell(valuetype="string")
            cell.addElement(text.P(text=value))
            row.addElement(cell)
        sheet.addElement(row)
    doc.spreadsheet.addElement(sheet)
    out = io.BytesIO()
    doc.write(out)
    job = upload(people, out.getvalue(), "serata.ods")
    assert job.format == "ods"
    assert in_words(job.understood).startswith("OpenDocument spreadsheet, sheet “Serata”: 3 rows;")
    imported_two_and_named_the_bad_row(job)


def test_a_file_of_the_wrong_layout_says_what_the_first_row_must_be(people, tarocco):
    with pytest.raises(Invalid) as caught:
        upload(people, b"Nome;Punti\nAnna;61\n", "punti.csv")
    message = caught.value.message
    assert "competition" in message and "Nome, Punti" in message
    assert "byte" not in message and ImportJob.objects.count() == 0


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 50, "Excel 97-2003"),
        (b"%PDF-1.7\n%junk", "PDF"),
        (b"PK\x03\x04junk that is no archive", "ZIP"),
    ],
)
def test_a_file_of_the_wrong_kind_says_what_it_is_and_what_is_expected(people, tarocco, raw, words):
    with pytest.raises(Invalid) as caught:
        upload(people, raw, "results.csv")
    assert words in caught.value.message
    assert "byte" not in caught.value.message


def test_the_import_page_says_what_it_read_in_italian(client, people, tarocco):
    from django.core.files.uploadedfile import SimpleUploadedFile

    header, hands = sheet_rows(client, people, tarocco)
    out = io.StringIO()
    csv.writer(out, delimiter=";").writerows([header, *hands])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "it"
    response = client.post(
        "/c/prova/import/", {"file": SimpleUploadedFile("serata.csv", out.getvalue().encode())}
    )
    page = client.get(response["Location"]).content.decode()
    assert "CSV, separato da punto e virgola, UTF-8: 3 righe; colonne: competition" in page
    assert "Importa queste 3 righe" in page


def test_the_xlsx_template_has_the_competitions_players_and_notes_and_imports_as_it_is(
    client, people, tarocco
):
    import openpyxl

    from ledger.clubs.results.services import create_table

    seated = people.extra[:4]
    create_table(user=people.users["organiser"], competition=tarocco, label="T", players=seated)
    client.force_login(people.users["scorekeeper"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "it"
    response = client.get(f"/c/prova/import/template/{tarocco.slug}.xlsx")
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    book = openpyxl.load_workbook(io.BytesIO(response.content))
    results, players, notes = book.worksheets
    assert (results.title, players.title, notes.title) == ("Risultati", "Giocatori", "Note")
    header = [c.value for c in results[1]]
    assert header[:4] == ["competition", "table", "players", "key"]
    assert results.freeze_panes == "A2"
    first = dict(zip(header, [c.value for c in results[2]], strict=True))
    assert first["players"] == "|".join(sorted(p.name for p in seated))
    assert isinstance(first["card_points"], int)  # a number, not text
    assert sorted(c.value for c in players["A"][1:]) == sorted(p.name for p in seated)
    explained = {row[0].value: row[1].value for row in notes.iter_rows(min_row=2)}
    assert "posti" in explained["players"] and "card_points" in explained
    job = upload(people, response.content, "modello.xlsx")
    assert run_job(job.pk).errors == []
    assert Result.objects.filter(competition=tarocco).count() == job.understood["rows"]


def test_the_ods_template_opens_and_imports_as_it_is(client, people, tarocco):
    from odf import opendocument, table

    client.force_login(people.users["scorekeeper"])
    response = client.get(f"/c/prova/import/template/{tarocco.slug}.ods")
    assert response["Content-Type"] == "application/vnd.oasis.opendocument.spreadsheet"
    doc = opendocument.load(io.BytesIO(response.content))
    assert len(doc.spreadsheet.getElementsByType(table.Table)) == 3
    job = upload(people, response.content, "modello.ods")
    assert job.understood["rows"] >= 1
    assert run_job(job.pk).errors == []


def test_the_import_page_offers_the_templates_as_workbooks(client, people, tarocco):
    client.force_login(people.users["scorekeeper"])
    page = client.get("/c/prova/import/").content.decode()
    for ext in ("csv", "xlsx", "ods"):
        assert f"/c/prova/import/template/{tarocco.slug}.{ext}" in page


def test_a_workbook_beyond_the_row_budget_is_refused_whole_before_it_is_read_on(
    people, tarocco, settings
):
    import openpyxl
    from odf import opendocument, table, text

    settings.LEDGER_IMPORT_MAX_ROWS = 5
    book = openpyxl.Workbook()
    book.active.append(["competition", "players", "scores"])
    for n in range(8):
        book.active.append(["coppa", "A|B", f"{n}|0"])
    out = io.BytesIO()
    book.save(out)
    with pytest.raises(Invalid, match="al massimo 5"):
        upload(people, out.getvalue(), "big.xlsx")

    # One row repeated a million times, as a spreadsheet can write it in a few bytes.
    doc = opendocument.OpenDocumentSpreadsheet()
    sheet = table.Table(name="S")
    for values, repeat in ((["competition", "players"], 1), (["coppa", "A|B"], 1_000_000)):
        row = table.TableRow(numberrowsrepeated=repeat)
        for value in values:
            cell = table.TableCell(valuetype="string", numbercolumnsrepeated=1)
            cell.addElement(text.P(text=value))
            row.addElement(cell)
        sheet.addElement(row)
    doc.spreadsheet.addElement(sheet)
    out = io.BytesIO()
    doc.write(out)
    with translation.override("en"), pytest.raises(Invalid, match="at most 5"):
        upload(people, out.getvalue(), "repeated.ods")
    assert ImportJob.objects.count() == 0


def test_a_workbook_that_unpacks_into_too_much_is_refused_before_it_is_read(
    client, people, tarocco, monkeypatch
):
    from ledger.clubs.transfer import sheets

    client.force_login(people.users["scorekeeper"])
    monkeypatch.setattr(sheets, "MAX_UNPACKED", 1000)
    for kind in ("ods", "xlsx"):
        raw = client.get(f"/c/prova/import/template/{tarocco.slug}.{kind}").content
        with translation.override("en"), pytest.raises(Invalid, match="unpacks into more"):
            upload(people, raw, f"t.{kind}")
