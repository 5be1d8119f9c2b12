"""Background jobs are asked for by name (ledger/clubs/jobs.py): a worker gets the name and
the arguments, and without a broker the task registered under that name runs here."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.clubs import jobs, tasks

NAMES = [jobs.RECOMPUTE_RATINGS, jobs.RUN_IMPORT, jobs.SIGN_CHECKPOINT, jobs.DELIVER_WEBHOOK]


@pytest.mark.parametrize("name", NAMES)
def test_every_job_name_is_the_name_of_a_task(name: str) -> None:
    found = jobs.task(name)
    assert found.name == name
    assert found is getattr(tasks, name.rpartition(".")[2])


def test_with_a_broker_a_job_goes_to_the_worker_by_its_name(monkeypatch, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent: list[tuple[str, Any, Any]] = []

    def send_task(name: str, args: Any = None, countdown: Any = None, **kwargs: Any) -> None:
        sent.append((name, args, countdown))

    monkeypatch.setattr(jobs.current_app, "send_task", send_task)
    monkeypatch.setattr(jobs, "task", lambda name: pytest.fail("no task runs in this process"))
    jobs.enqueue(jobs.DELIVER_WEBHOOK, 7, countdown=30)
    jobs.enqueue(jobs.SIGN_CHECKPOINT, 3)
    jobs.delay(jobs.RECOMPUTE_RATINGS, 3, "tarocco")
    assert sent == [
        (jobs.DELIVER_WEBHOOK, (7,), 30),
        (jobs.SIGN_CHECKPOINT, (3,), None),
        (jobs.RECOMPUTE_RATINGS, (3, "tarocco"), None),
    ]


def test_without_a_broker_the_named_task_runs_here(monkeypatch, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.LEDGER_JOBS_IN_THREADS = False
    ran: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.ratings, "recompute", lambda *args: ran.append(args) or 0)
    jobs.enqueue(jobs.RECOMPUTE_RATINGS, 3, "tarocco")
    jobs.delay(jobs.RECOMPUTE_RATINGS, 4, "ergio")
    assert ran == [(3, "tarocco"), (4, "ergio")]
