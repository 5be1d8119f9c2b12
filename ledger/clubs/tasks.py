"""Background jobs. Without CELERY_BROKER_URL they run in the calling process: at once, or,
for the jobs a request must not wait for (``enqueue``), in a thread of their own after the
request's commit (LEDGER_JOBS_IN_THREADS, on by default; the tests turn it off)."""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import connections

from ledger.clubs import ratings

log = logging.getLogger(__name__)

# Eager jobs waiting for their thread, by task and arguments: asking again for a job that
# has not started yet adds nothing (a ratings replay asked for by five rulings runs once).
_waiting: set[tuple[str, tuple[Any, ...]]] = set()
_waiting_lock = threading.Lock()


def enqueue(task: Any, *args: Any, countdown: float | None = None) -> None:
    """Run ``task`` in the background: a worker's job when there is a broker; otherwise a
    thread of this process (or at once, when LEDGER_JOBS_IN_THREADS is off). Call it after
    the commit (``transaction.on_commit``): the job reads what the request wrote."""
    if not settings.CELERY_TASK_ALWAYS_EAGER:
        if countdown:
            task.apply_async(args=args, countdown=countdown)
        else:
            task.delay(*args)
        return
    if not getattr(settings, "LEDGER_JOBS_IN_THREADS", True):
        if not countdown:  # a later attempt is left to the periodic job
            task.apply(args=args)
        return
    key = (task.name, args)
    with _waiting_lock:
        if key in _waiting:
            return
        _waiting.add(key)

    def run() -> None:
        with _waiting_lock:
            _waiting.discard(key)
        try:
            task.apply(args=args)
        except Exception:
            log.exception("background job %s%r failed", task.name, args)
        finally:
            connections.close_all()

    if countdown:
        # A later attempt: lost if the process stops first (a worker with its beat keeps
        # them; see docs/operations.md).
        timer = threading.Timer(countdown, run)
        timer.daemon = True
        timer.start()
    else:
        # Not a daemon: a process that ends (a command, a restarted web worker) finishes
        # its jobs first.
        threading.Thread(target=run, name=f"job-{task.name}", daemon=False).start()


@shared_task
def recompute_ratings(club_id: int, game: str) -> int:
    return ratings.recompute(club_id, game)


@shared_task
def rebuild_standings(competition_id: int) -> None:
    from ledger.clubs import projections
    from ledger.clubs.models import Competition

    projections.rebuild_standings(Competition.objects.get(pk=competition_id))


@shared_task
def run_import(job_id: int) -> int:
    from ledger.clubs.imports import run_job

    return run_job(job_id).imported


@shared_task
def sign_checkpoint(club_id: int, reason: str = "interval", round_id: int | None = None) -> int:
    """Sign a checkpoint of the club's journal; its length (0 when nothing was signed)."""
    from ledger.clubs import checkpoints

    made = checkpoints.sign(club_id, reason, round_id)
    return made.length if made is not None else 0


@shared_task
def sign_checkpoints() -> int:
    """The periodic job: a checkpoint for every club whose journal grew."""
    from ledger.clubs import checkpoints

    return len(checkpoints.sign_all())


@shared_task
def deliver_webhook(delivery_id: int) -> bool:
    """One attempt at a webhook delivery; a failure asks for the next after its backoff
    (the periodic ``retry_webhooks`` also picks up any whose time has come)."""
    from ledger.clubs.models import WebhookDelivery
    from ledger.clubs.webhooks import deliver

    ok = deliver(delivery_id)
    if not ok:
        again = (
            WebhookDelivery.objects.filter(pk=delivery_id)
            .values_list("next_attempt_at", flat=True)
            .first()
        )
        if again is not None:
            from django.utils import timezone

            wait = max((again - timezone.now()).total_seconds(), 1.0)
            enqueue(deliver_webhook, delivery_id, countdown=wait)
    return ok


@shared_task
def backup(keep: int | None = None) -> str:
    """`manage.py backup` for a Celery beat schedule (docs/operations.md)."""
    from django.conf import settings

    from ledger.clubs.backup import make_backup

    made = make_backup(keep=settings.LEDGER_BACKUP_KEEP if keep is None else keep)
    return str(made.path)


@shared_task
def retry_webhooks() -> int:
    """The periodic job: every delivery whose next attempt is due."""
    from ledger.clubs.webhooks import deliver, due

    found = due()
    for delivery_id in found:
        deliver(delivery_id)
    return len(found)
