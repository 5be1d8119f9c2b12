"""Bulk import: every row checked by the engine, bad rows reported by line, no half rows."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from games.core import registry
from ledger.clubs.models import Entry, ImportJob, Result, Standing, Table
from ledger.clubs.transfer.imports import create_job, run_job


def names(people, n=2):
    return "|".join(p.name for p in people.extra[:n])


def job_for(people, content, fmt="csv", who="scorekeeper"):
    job = create_job(
        user=people.users[who],
        club=people.club,
        filename=f"results.{fmt}",
        raw=content.encode(),
        fmt=fmt,
        language="en",
    )
    return run_job(job.pk)


def test_good_csv_rows_are_imported_and_bad_ones_reported_by_line(people, manual_competition):
    content = (
        "competition,table,players,scores,key\n"
        f"coppa,A,{names(people)},3|4,k1\n"
        f"coppa,A,{names(people)},3|x,k2\n"
        f"nowhere,A,{names(people)},1|1,k3\n"
        f"coppa,B,{names(people)}|Nobody,1|1,k4\n"
        f"coppa,A,{names(people)},5|6,k5\n"
    )
    job = job_for(people, content)
    assert (job.status, job.total, job.imported) == ("done", 5, 2)
    assert [e["line"] for e in job.errors] == [3, 4, 5]
    assert "score" in job.errors[0]["message"] and "nowhere" in job.errors[1]["message"]
    assert Result.objects.filter(source="import").count() == 2
    assert Entry.objects.count() == 4
    assert Table.objects.filter(label="A").count() == 1


def test_importing_the_same_file_twice_changes_nothing(people, manual_competition):
    content = f"competition,table,players,scores,key\ncoppa,A,{names(people)},3|4,k1\n"
    job_for(people, content)
    again = job_for(people, content)
    assert (again.imported, again.replayed) == (0, 1)
    assert Result.objects.count() == 1


def test_jsonl_rows_are_checked_by_the_engine_with_their_rule(people, club):
    from games.core import registry
    from ledger.clubs.models import Competition

    if "tarocco" not in registry.available():
        pytest.skip("no Tarocco engine")
    Competition.objects.create(club=club, name="T", slug="tarocco", game="tarocco")
    four = [p.name for p in people.extra[:4]]
    rows = [
        {
            "competition": "tarocco",
            "players": four,
            "record": {"outcome": "solo", "dealer": 3, "declarer": 0, "card_points": 61},
        },
        {
            "competition": "tarocco",
            "players": four,
            "record": {"outcome": "solo", "dealer": 3, "declarer": 0, "card_points": 140},
        },
        "not an object",
    ]
    content = "\n".join(json.dumps(r) for r in rows) + "\n{broken\n"
    job = job_for(people, content, fmt="jsonl")
    assert job.imported == 1
    assert [e["line"] for e in job.errors] == [2, 3, 4]
    assert job.errors[0]["rules"] and job.errors[0]["rules"][0].startswith("tarocco.")
    assert Result.objects.get().source == "import"
    assert Standing.objects.filter(competition__slug="tarocco").count() == 4


def test_a_file_neither_utf8_nor_windows_1252_is_refused_with_a_reason(people, manual_competition):
    from ledger.clubs.errors import Invalid

    with pytest.raises(Invalid, match="Windows-1252"):
        create_job(
            user=people.users["scorekeeper"],
            club=people.club,
            filename="x.csv",
            raw=b"competition\nCaff\xe8\x81",
            fmt="csv",
        )
    assert not ImportJob.objects.exists()


def test_a_member_cannot_import(people, manual_competition):
    from ledger.clubs.errors import NotAllowed

    with pytest.raises(NotAllowed):
        job_for(people, "competition\n", who="member")


def test_the_import_command_reports_bad_rows_with_their_line(people, manual_competition, tmp_path):
    path = tmp_path / "r.csv"
    path.write_text(
        f"competition,players,scores\ncoppa,{names(people)},1|2\ncoppa,{names(people)},1\n"
    )
    with pytest.raises(CommandError, match="1 imported"):
        call_command("import_results", str(path), "--club", "prova", "--user", "scorekeeper")
    assert Result.objects.count() == 1


def test_the_upload_page_says_what_it_read_then_runs_the_import_once_confirmed(
    client, people, manual_competition, django_capture_on_commit_callbacks
):
    client.force_login(people.users["scorekeeper"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    content = f"competition,players,scores\ncoppa,{names(people)},1|2\n"
    response = client.post(
        "/c/prova/import/", {"file": SimpleUploadedFile("r.csv", content.encode())}
    )
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "CSV, comma-separated, UTF-8: 1 row; columns: competition, players, scores." in page
    assert 'id="confirm-import"' in page and Result.objects.count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = client.post(response["Location"], {"confirm": "1"})
    assert confirmed.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert 'id="import-progress"' in page and 'value="100"' in page
    assert Result.objects.count() == 1
    # Confirming again queues nothing twice.
    client.post(response["Location"], {"confirm": "1"})
    assert Result.objects.count() == 1


def test_a_file_put_aside_on_the_upload_page_records_nothing(client, people, manual_competition):
    client.force_login(people.users["scorekeeper"])
    content = f"competition,players,scores\ncoppa,{names(people)},1|2\n"
    response = client.post(
        "/c/prova/import/", {"file": SimpleUploadedFile("r.csv", content.encode())}
    )
    client.post(response["Location"], {"discard": "1"})
    assert not ImportJob.objects.exists() and Result.objects.count() == 0


def test_the_imports_api_accepts_a_file_and_reports_progress(
    people, manual_competition, django_capture_on_commit_callbacks
):
    api = people.client("scorekeeper")
    content = f"competition,players,scores\ncoppa,{names(people)},1|2\ncoppa,x,1\n"
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post(
            "/api/v1/imports/",
            {"club": people.club.pk, "file": SimpleUploadedFile("r.csv", content.encode())},
            format="multipart",
        )
    assert response.status_code == 202
    job = api.get(response["Location"]).json()
    assert job["status"] == "done" and job["percent"] == 100 and job["imported"] == 1
    assert job["errors"][0]["line"] == 3
    assert people.client("stranger").get("/api/v1/imports/").json()["count"] == 0


@pytest.mark.parametrize("game", registry.installed())
def test_a_file_made_from_a_games_template_records_its_rows(client, people, club, game):
    import csv
    import io

    from ledger.clubs.models import Competition

    competition = Competition.objects.create(club=club, name=game, slug=f"{game}-lega", game=game)
    client.force_login(people.users["scorekeeper"])
    response = client.get(f"/c/prova/import/template/{competition.slug}.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:4] == ["competition", "table", "players", "key"]
    assert "record" not in rows[0]  # plain columns, no JSON
    assert len(rows) >= 2  # example rows to overwrite
    job = job_for(people, response.content.decode())
    assert job.errors == [], rows
    assert job.imported == len(rows) - 1
    assert Result.objects.filter(competition=competition).count() == len(rows) - 1


def test_a_bad_row_of_a_template_says_which_and_why(client, people, club):
    import csv
    import io

    from ledger.clubs.models import Competition

    competition = Competition.objects.create(
        club=club, name="T", slug="tarocco-lega", game="tarocco"
    )
    client.force_login(people.users["scorekeeper"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    text = client.get(f"/c/prova/import/template/{competition.slug}.csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    bad = list(rows[1])
    bad[header.index("card_points")] = "140"
    bad[header.index("key")] = "bad-one"
    out = io.StringIO()
    csv.writer(out).writerows([header, rows[1], bad])
    job = job_for(people, out.getvalue())
    assert job.imported == 1
    assert [e["line"] for e in job.errors] == [3]
    assert "109" in job.errors[0]["message"]


def test_the_import_page_has_a_column_guide_and_a_template_per_competition(client, people, club):
    from ledger.clubs.models import Competition

    Competition.objects.create(club=club, name="Ergio", slug="ergio-lega", game="ergio")
    client.force_login(people.users["scorekeeper"])
    page = client.get("/c/prova/import/").content.decode()
    assert 'id="column-guide"' in page
    assert "/c/prova/import/template/ergio-lega.csv" in page
    assert "scontri.2.tramontana.force" in page
