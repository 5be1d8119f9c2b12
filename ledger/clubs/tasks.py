"""Background jobs. Without CELERY_BROKER_URL they run at once, in the calling process."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from ledger.clubs import ratings


@shared_task
def recompute_ratings(club_id: int, game: str) -> int:
    return ratings.recompute(club_id, game)


@shared_task
def rebuild_standings(competition_id: int) -> None:
    from ledger.clubs import services
    from ledger.clubs.models import Competition

    services.rebuild_standings(Competition.objects.get(pk=competition_id))


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


@shared_task(bind=True, max_retries=5, default_retry_delay=30)
def deliver_webhook(self: Any, delivery_id: int) -> bool:
    from ledger.clubs.webhooks import deliver

    ok = deliver(delivery_id)
    if not ok and not self.request.is_eager:
        raise self.retry(countdown=30 * 2**self.request.retries)
    return ok


@shared_task
def backup(keep: int | None = None) -> str:
    """`manage.py backup` for a Celery beat schedule (docs/operations.md)."""
    from django.conf import settings

    from ledger.clubs.backup import make_backup

    made = make_backup(keep=settings.LEDGER_BACKUP_KEEP if keep is None else keep)
    return str(made.path)
