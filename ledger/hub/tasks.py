"""The venue's sync as a background job, asked for by its name (ledger/clubs/jobs.py)."""

from __future__ import annotations

from celery import shared_task

from ledger.hub import client
from ledger.hub.models import SyncRun

SYNC = "ledger.hub.tasks.sync_club"


@shared_task(name=SYNC)
def sync_club(run_id: int) -> str:
    return client.run(SyncRun.objects.select_related("club").get(pk=run_id)).status
