"""An import is bounded in work, not only in size: a row budget checked before anything is
written, a time budget and a budget of refused rows. A job over one stops with a message
that says what to fix, and leaves nothing half-applied (the batch it was in is rolled
back whole; the batches before it were committed whole). The probe's finding: a 1.2 MB
junk import held a worker for 118 s."""

from __future__ import annotations

import random
import time
from types import SimpleNamespace

import pytest

from ledger.clubs.models import Entry, ImportJob, Result, Table
from ledger.clubs.transfer import imports
from ledger.clubs.transfer.imports import create_job, run_job

HEADER = "competition,table,players,scores,key\n"


def _upload(people, content: str) -> ImportJob:
    job = create_job(
        user=people.users["scorekeeper"],
        club=people.club,
        filename="results.csv",
        raw=content.encode(),
        fmt="csv",
        language="en",
    )
    return run_job(job.pk)


def _junk(people, size: int) -> str:
    """About ``size`` bytes of rows that reach the engine and are refused there: the real
    competition and players, a new table label each (so each row makes its table first),
    and scores the game cannot have. The most expensive junk a row can be."""
    rng = random.Random(7)
    names = "|".join(p.name for p in people.extra[:2])
    lines = [HEADER]
    total = len(HEADER)
    n = 0
    while total < size:
        junk = "".join(rng.choice("abcdefxyz") for _ in range(rng.randint(3, 20)))
        line = f"coppa,{junk}-{n},{names},{junk}|1e30,\n"
        lines.append(line)
        total += len(line)
        n += 1
    return "".join(lines)


def _good(people, rows: int, start: int = 0) -> str:
    names = "|".join(p.name for p in people.extra[:2])
    return HEADER + "".join(f"coppa,T,{names},{i % 7}|1,k{i}\n" for i in range(start, rows))


def _stop(job: ImportJob) -> str:
    assert job.status == ImportJob.Status.FAILED, (job.status, job.errors[:3])
    assert job.errors[0].get("stopped"), job.errors[:3]
    return str(job.errors[0]["message"])


def _nothing_written() -> None:
    assert not Result.objects.exists()
    assert not Entry.objects.exists()
    assert not Table.objects.exists()


def test_a_junk_file_stops_within_its_budget_with_the_message_and_writes_nothing(
    people, manual_competition, settings
):
    # Its refused rows stop it, long before a time budget a busy machine could reach.
    settings.LEDGER_IMPORT_MAX_SECONDS = 30
    content = _junk(people, 1_200_000)
    started = time.monotonic()
    job = _upload(people, content)
    took = time.monotonic() - started
    message = _stop(job)
    # Whole batches of refused rows may be behind it: what matters is that nothing of the
    # junk was written, and the message says where it stopped.
    assert "stopped at line" in message
    # Its budget of refused rows (or of time) ran out long before the file did.
    assert took < settings.LEDGER_IMPORT_MAX_SECONDS + 10, took
    assert len(job.errors) <= settings.LEDGER_IMPORT_MAX_REFUSED + 2
    _nothing_written()


def test_an_import_over_its_time_stops_and_keeps_only_whole_batches(
    people, manual_competition, settings, monkeypatch
):
    monkeypatch.setattr(imports, "BATCH", 5)
    settings.LEDGER_IMPORT_MAX_SECONDS = 1
    original = imports._Importer.one
    # The importer's clock moves only where this test says time passes. On the machine's
    # own clock lines 1 to 12 had to be imported within the second, which a loaded machine
    # need not do: the import then stopped a batch early.
    clock = SimpleNamespace(now=0.0)
    monkeypatch.setattr(imports, "time", SimpleNamespace(monotonic=lambda: clock.now))

    def slow(self, row):  # type: ignore[no-untyped-def]
        if row.line == 13:  # in the third batch (lines 12-16): 1.2 s pass
            clock.now += 1.2
        return original(self, row)

    monkeypatch.setattr(imports._Importer, "one", slow)
    job = _upload(people, _good(people, 30))
    message = _stop(job)
    assert "stopped at line 14" in message and "1 seconds" in message
    assert "up to line 11 were imported" in message and "from line 12" in message
    # The two batches before the stop, whole; nothing of the one it stopped in.
    assert Result.objects.count() == job.imported == 10
    # Importing the rest, from line 12, as the message says, completes the file: every one
    # of its 20 rows is new (none of the stopped batch had been kept).
    monkeypatch.setattr(imports._Importer, "one", original)
    rest = _upload(people, _good(people, 30, start=10))
    assert (rest.status, rest.imported, rest.replayed) == (ImportJob.Status.DONE, 20, 0)
    assert Result.objects.count() == 30


def test_a_file_over_the_row_budget_is_refused_before_anything_is_written(
    people, manual_competition, settings
):
    settings.LEDGER_IMPORT_MAX_ROWS = 50
    job = _upload(people, _good(people, 51))
    message = _stop(job)
    assert "51 rows" in message and "at most 50" in message and "split" in message
    assert job.total == 51 and job.processed == 0
    _nothing_written()
    assert _upload(people, _good(people, 50)).imported == 50


@pytest.mark.parametrize("budget", [5, 40])
def test_an_import_stops_after_its_budget_of_refused_rows(
    people, manual_competition, settings, budget
):
    settings.LEDGER_IMPORT_MAX_REFUSED = budget
    job = _upload(people, _junk(people, 20_000))
    assert f"more than {budget} rows were refused" in _stop(job)
    assert len(job.errors) == budget + 2  # the stop, then each refused row
    _nothing_written()


def test_the_budgets_are_documented_settings():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    for name in (
        "LEDGER_IMPORT_MAX_ROWS",
        "LEDGER_IMPORT_MAX_SECONDS",
        "LEDGER_IMPORT_MAX_REFUSED",
    ):
        assert name in (root / "docs" / "imports.md").read_text()
        assert name in (root / "docs" / "operations.md").read_text()
        assert name in (root / "ledger" / "settings.py").read_text()


def test_the_import_page_says_why_a_job_stopped_in_the_persons_language(
    people, manual_competition, settings
):
    from django.test import Client

    settings.LEDGER_IMPORT_MAX_REFUSED = 3
    job = create_job(
        user=people.users["scorekeeper"],
        club=people.club,
        filename="results.csv",
        raw=_junk(people, 2_000).encode(),
        fmt="csv",
        language="it",
    )
    job = run_job(job.pk)
    browser = Client(HTTP_ACCEPT_LANGUAGE="it")
    browser.force_login(people.users["scorekeeper"])
    page = browser.get(f"/c/{people.club.slug}/import/{job.pk}/").content.decode()
    assert 'id="import-stopped"' in page
    assert "importazione si è fermata alla riga" in page
    assert "Non è stato importato nulla" in page
    # The stop is said once, above the table; the rows refused are counted without it.
    assert "0 importati, 0 già presenti, 4 rifiutati." in page
