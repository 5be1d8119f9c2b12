"""Background jobs: the top of ledger/clubs, importing what each job runs. Nothing in the
ledger imports this module: a job is asked for by its name (ledger/clubs/jobs.py), which
is the name each task here is registered under."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from ledger.clubs import jobs, ratings, webhooks
from ledger.clubs.journal import checkpoints
from ledger.clubs.models import Competition, WebhookDelivery
from ledger.clubs.projections import projections
from ledger.clubs.transfer.backup import make_backup
from ledger.clubs.transfer.imports import run_job


@shared_task(name=jobs.RECOMPUTE_RATINGS)
def recompute_ratings(club_id: int, game: str) -> int:
    return ratings.recompute(club_id, game)


@shared_task
def rebuild_standings(competition_id: int) -> None:
    projections.rebuild_standings(Competition.objects.get(pk=competition_id))


@shared_task(name=jobs.RUN_IMPORT)
def run_import(job_id: int) -> int:
    return run_job(job_id).imported


@shared_task(name=jobs.SIGN_CHECKPOINT)
def sign_checkpoint(club_id: int, reason: str = "interval", round_id: int | None = None) -> int:
    """Sign a checkpoint of the club's journal; its length (0 when nothing was signed)."""
    made = checkpoints.sign(club_id, reason, round_id)
    return made.length if made is not None else 0


@shared_task
def sign_checkpoints() -> int:
    """The periodic job: a checkpoint for every club whose journal grew."""
    return len(checkpoints.sign_all())


@shared_task(name=jobs.DELIVER_WEBHOOK)
def deliver_webhook(delivery_id: int) -> bool:
    """One attempt at a webhook delivery; a failure asks for the next after its backoff
    (the periodic ``retry_webhooks`` also picks up any whose time has come)."""
    ok = webhooks.deliver(delivery_id)
    if not ok:
        again = (
            WebhookDelivery.objects.filter(pk=delivery_id)
            .values_list("next_attempt_at", flat=True)
            .first()
        )
        if again is not None:
            wait = max((again - timezone.now()).total_seconds(), 1.0)
            jobs.enqueue(jobs.DELIVER_WEBHOOK, delivery_id, countdown=wait)
    return ok


@shared_task
def backup(keep: int | None = None) -> str:
    """`manage.py backup` for a Celery beat schedule (docs/operations.md)."""
    made = make_backup(keep=settings.LEDGER_BACKUP_KEEP if keep is None else keep)
    return str(made.path)


@shared_task
def retry_webhooks() -> int:
    """The periodic job: every delivery whose next attempt is due."""
    found = webhooks.due()
    for delivery_id in found:
        webhooks.deliver(delivery_id)
    return len(found)
