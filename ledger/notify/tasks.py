"""The notifications' background jobs (asked for by name through ledger/clubs/jobs.py;
nothing imports this module)."""

from __future__ import annotations

import json
from typing import Any

from celery import shared_task
from django.conf import settings

from ledger.notify import sending

DELIVER = "ledger.notify.tasks.deliver"


@shared_task(name=DELIVER, bind=True, max_retries=None)
def deliver(self: Any, event: str, ids: str) -> int:
    """Hear ``event`` and send what it owes; a message that failed is tried again later,
    waiting twice as long each time (the rows keep what was already sent)."""
    failed = sending.deliver(event, json.loads(ids))
    # Eager (no broker): the beat's sweep, or the next event, sends what waits.
    retries = self.request.retries
    if failed and not self.request.is_eager and retries + 1 < settings.LEDGER_NOTIFY_ATTEMPTS:
        raise self.retry(countdown=30 * 2**retries)
    return failed


@shared_task(name="ledger.notify.tasks.retry_notifications")
def retry_notifications() -> int:
    """The beat's sweep: send every message still waiting."""
    return sending.retry_due()
