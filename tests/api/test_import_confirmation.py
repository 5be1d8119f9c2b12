"""The imports API answers what it understood of a file (its kind, separator, encoding, rows
and columns, and the same in words, as the import page says it) and, sent with ``preview``,
waits for the scorekeeper's confirmation before importing anything."""

from __future__ import annotations

import io

import openpyxl
from django.core.files.uploadedfile import SimpleUploadedFile

from ledger.clubs.models import ImportJob, Result


def _names(people):
    return "|".join(p.name for p in people.extra[:2])


def _italian_excel_csv(people):
    rows = [f"coppa;{_names(people)};3|4", f"coppa;{_names(people)};5|6"]
    text = "\r\n".join(["competition;players;scores", *rows]) + "\r\n"
    return "\ufeff".encode() + text.encode()


def _send(api, people, raw, name, **extra):
    return api.post(
        "/api/v1/imports/",
        {"club": people.club.pk, "file": SimpleUploadedFile(name, raw), **extra},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="en",
    )


def test_a_previewed_csv_says_its_separator_encoding_rows_and_columns_and_imports_nothing(
    people, manual_competition, django_capture_on_commit_callbacks
):
    api = people.client("scorekeeper")
    with django_capture_on_commit_callbacks(execute=True):
        sent = _send(api, people, _italian_excel_csv(people), "risultati.csv", preview="true")
    assert sent.status_code == 202
    job = sent.json()
    assert job["status"] == "preview"
    assert job["understood"] == {
        "kind": "csv",
        "separator": "semicolon",
        "encoding": "utf-8-sig",
        "sheet": None,
        "rows": 2,
        "columns": ["competition", "players", "scores"],
        "in_words": "CSV, semicolon-separated, UTF-8 with a byte-order mark: 2 rows; "
        "columns: competition, players, scores.",
    }
    assert Result.objects.count() == 0
    assert api.get(sent["Location"]).json()["status"] == "preview"


def test_a_confirmed_preview_is_imported_once(
    people, manual_competition, django_capture_on_commit_callbacks
):
    api = people.client("scorekeeper")
    job = _send(api, people, _italian_excel_csv(people), "r.csv", preview="true").json()
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = api.post(f"/api/v1/imports/{job['id']}/confirm/")
    assert confirmed.status_code == 202
    done = api.get(f"/api/v1/imports/{job['id']}/").json()
    assert (done["status"], done["imported"]) == ("done", 2)
    assert Result.objects.count() == 2
    again = api.post(f"/api/v1/imports/{job['id']}/confirm/", HTTP_ACCEPT_LANGUAGE="en")
    assert again.status_code == 409
    assert "not waiting for a confirmation" in again.json()["error"]["message"]
    assert Result.objects.count() == 2


def test_a_preview_put_aside_records_nothing_and_a_done_import_cannot_be_put_aside(
    people, manual_competition, django_capture_on_commit_callbacks
):
    api = people.client("scorekeeper")
    job = _send(api, people, _italian_excel_csv(people), "r.csv", preview="true").json()
    assert api.delete(f"/api/v1/imports/{job['id']}/").status_code == 204
    assert not ImportJob.objects.exists() and Result.objects.count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        done = _send(api, people, _italian_excel_csv(people), "r.csv").json()
    assert api.delete(f"/api/v1/imports/{done['id']}/").status_code == 409
    assert Result.objects.count() == 2


def test_a_workbook_says_its_sheet_and_an_italian_reader_reads_it_in_italian(
    people, manual_competition
):
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Serata"
    sheet.append(["competition", "players", "scores"])
    sheet.append(["coppa", _names(people), "3|4"])
    out = io.BytesIO()
    book.save(out)
    api = people.client("scorekeeper")
    sent = api.post(
        "/api/v1/imports/",
        {
            "club": people.club.pk,
            "file": SimpleUploadedFile("serata.xlsx", out.getvalue()),
            "preview": "true",
        },
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="it",
    ).json()
    seen = sent["understood"]
    assert (seen["kind"], seen["sheet"], seen["separator"], seen["rows"]) == (
        "xlsx",
        "Serata",
        None,
        1,
    )
    assert seen["in_words"].startswith("Cartella di lavoro Excel, foglio “Serata”: 1 riga")


def test_only_the_clubs_scorekeepers_confirm_an_import(people, manual_competition):
    job = _send(
        people.client("scorekeeper"), people, _italian_excel_csv(people), "r.csv", preview="true"
    ).json()
    refused = people.client("member").post(f"/api/v1/imports/{job['id']}/confirm/")
    assert refused.status_code in (403, 404)
    assert ImportJob.objects.get().status == "preview"
