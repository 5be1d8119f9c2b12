"""The probe's findings that other files of tests/hardening do not reproduce, each pinned here
by the number it has in the issue: 2 (the creator of a digital table chose the deal), 4 (a
ruling's cost grew with the club), 6 (imports ran inside an uncapped upload) and 9 (the demo's
superuser with a published password)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.core.fair import commitment
from ledger.clubs.models import ImportJob, Result
from ledger.clubs.results import services
from ledger.clubs.transfer import imports
from ledger.play import services as play_services
from ledger.play.models import GameTable
from tests.hardening.reliability import body, competition_with_tables

# --- 2. the deal is the server's ------------------------------------------------------------


def test_2_the_creator_of_a_counted_digital_table_cannot_choose_its_deal(
    people, django_capture_on_commit_callbacks
):
    client = people.client("member")
    data = {"club": people.club.pk, "game": "cardchess", "seats": ["me", "open"]}
    refused = client.post("/api/v1/play/tables/", {**data, "seed": 7}, format="json")
    assert refused.status_code == 400 and "seed" in refused.json()["error"]["fields"]
    assert not GameTable.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        made = client.post("/api/v1/play/tables/", data, format="json").json()
    table = GameTable.objects.get(pk=made["id"])
    # The server drew the seed and published only its seal; the seed shows at the end.
    seed = play_services.secrets_of(table)[0]
    assert made["seed"] is None and made["commitment"] == commitment(seed, table.pk)
    assert str(seed) not in str(client.get(f"/api/v1/play/tables/{table.pk}/").json())


# --- 4. a ruling does no work over the whole club -------------------------------------------


def _ruling_queries(people, result: Result) -> int:
    api = people.client("referee")
    with CaptureQueriesContext(connection) as seen:
        answer = api.post(
            "/api/v1/referee/rulings",
            {"result": result.pk, "kind": "assigned", "scores": [30, -10, -10, -10]},
            format="json",
        )
    assert answer.status_code == 201, answer.content
    return len(seen.captured_queries)


def test_4_a_rulings_queries_do_not_grow_with_the_clubs_results(people):
    """A club of 5 results and the same club with 125: the ruling (and what it locks) asks the
    database the same number of questions. The ratings replay it asks for runs after the
    commit, off the request."""
    _league, tables = competition_with_tables(people)
    writer = people.users["scorekeeper"]

    def write(n: int, start: int) -> list[Result]:
        return [
            services.record_result(
                user=writer, table=tables[i % 6], source="summary", record=body(tables, i)["record"]
            )[0]
            for i in range(start, start + n)
        ]

    small = write(5, 0)
    api_key_warmup = _ruling_queries(people, small[0])  # tokens and caches warmed once
    few = _ruling_queries(people, small[1])
    large = write(120, 5)
    many = _ruling_queries(people, large[60])
    assert api_key_warmup >= few
    assert many == few, f"{few} queries in a club of 5 results, {many} in one of 125"


# --- 6. imports: capped, answered at once, applied by a job in batches ------------------------


def _csv(people, rows: int) -> bytes:
    names = "|".join(p.name for p in people.extra[:2])
    return ("competition,players,scores\n" + f"coppa,{names},1|2\n" * rows).encode()


def test_6_an_upload_over_the_cap_is_refused_and_nothing_is_kept(
    people, manual_competition, settings
):
    settings.LEDGER_IMPORT_MAX_BYTES = 2_000
    api = people.client("scorekeeper")
    answer = api.post(
        "/api/v1/imports/",
        {"club": people.club.pk, "file": SimpleUploadedFile("r.csv", _csv(people, 100))},
        format="multipart",
    )
    assert answer.status_code in (400, 413)
    assert answer["Content-Type"].startswith("application/json")
    assert not ImportJob.objects.exists() and not Result.objects.exists()


def test_6_the_upload_answers_at_once_and_a_job_applies_it_in_batches(
    people, manual_competition, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(imports, "BATCH", 4)
    seen: list[int] = []
    api = people.client("scorekeeper")
    with django_capture_on_commit_callbacks(execute=False) as later:
        answer = api.post(
            "/api/v1/imports/",
            {"club": people.club.pk, "file": SimpleUploadedFile("r.csv", _csv(people, 10))},
            format="multipart",
        )
    # Answered before a single line was applied: the job waits for its worker.
    assert answer.status_code == 202
    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.QUEUED and not Result.objects.exists()
    assert later, "the job is started after the upload's commit"
    original = imports._Importer.one

    def one(self, row):
        seen.append(ImportJob.objects.get(pk=job.pk).processed)
        return original(self, row)

    monkeypatch.setattr(imports._Importer, "one", one)
    for callback in later:
        callback()
    done = api.get(answer["Location"]).json()
    assert done["status"] == "done" and done["imported"] == 10 and done["percent"] == 100
    # Progress moved batch by batch (4, 4, 2), each batch committed on its own.
    assert sorted(set(seen)) == [0, 4, 8]


# --- 9. the demo's superuser ----------------------------------------------------------------


@pytest.mark.django_db
def test_9_seed_demo_makes_no_superuser_outside_demo_mode(capsys, monkeypatch):
    monkeypatch.delenv("LEDGER_DEMO", raising=False)
    call_command("seed_demo")
    demo = get_user_model().objects.get(username="demo")
    assert not demo.is_superuser and not demo.is_staff
    assert not demo.check_password("pisa-demo-2026")
    # Its random password is printed once, when the login is made.
    printed = capsys.readouterr().out
    assert demo.check_password(printed.split("demo / ", 1)[1].split()[0])
