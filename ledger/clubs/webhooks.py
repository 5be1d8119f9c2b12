"""Signed webhooks: other club software follows accepted, corrected and ruled results.

A delivery is ``POST <url>`` with a JSON body and the headers ``X-Ledger-Event``,
``X-Ledger-Delivery`` (an id, the same on every retry) and ``X-Ledger-Signature:
sha256=<hex>``, the HMAC-SHA256 of ``<timestamp>.<body>`` under the webhook's secret, with
the timestamp in ``X-Ledger-Timestamp``. Deliveries are queued after the transaction commits
and retried by the worker; each attempt is kept.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from ledger.clubs import checkpoints
from ledger.clubs.models import Result, Webhook, WebhookDelivery


def sign(secret: str, timestamp: str, body: bytes) -> str:
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + digest.hexdigest()


def payload(event: str, result: Result, checkpoint: Any = None) -> dict[str, Any]:
    seats = list(result.table.seats.values_list("index", "player_id", "player__name"))
    return {
        "event": event,
        "club": result.club_id,
        "competition": result.competition_id,
        "result": {
            "id": result.pk,
            "status": result.status,
            "table": result.table_id,
            "source": result.source,
            "scores": list(result.scores),
            "supersedes": result.supersedes_id,
            "reason": result.reason,
            "seats": [{"seat": i, "player": p, "name": n} for i, p, n in seats],
        },
        # The club's latest signed checkpoint: a copy outside the database (see
        # docs/security.md); check it with the public key it carries.
        "checkpoint": checkpoints.summary(checkpoint),
    }


def announce(event: str, result: Result) -> None:
    """Queue a delivery to every webhook of the club that wants this event, once the
    current transaction commits (nothing is announced for a write that rolls back)."""
    announce_many(event, [result])


def _known_quiet(result: Result) -> bool:
    """True when the result's table was read for this write together with the fact that
    its club has no active webhook (services.table_for_write)."""
    return Result.table.is_cached(result) and getattr(result.table, "hooked", None) is False


def announce_many(event: str, results: Sequence[Result]) -> None:
    """``announce`` for several results, with one look-up of their clubs' webhooks."""
    if all(_known_quiet(r) for r in results):
        return
    clubs = sorted({r.club_id for r in results})
    # Most clubs have no webhook: find that out with the cheapest query there is.
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT DISTINCT club_id FROM {connection.ops.quote_name(Webhook._meta.db_table)} "
            f"WHERE club_id IN ({', '.join(['%s'] * len(clubs))}) AND active",
            clubs,
        )
        hooked = {club_id for (club_id,) in cursor.fetchall()}
    if not hooked:
        return
    by_club: dict[int, list[Webhook]] = {}
    for hook in Webhook.objects.filter(club_id__in=hooked, active=True).order_by("pk"):
        if hook.wants(event):
            by_club.setdefault(hook.club_id, []).append(hook)
    signed = {club_id: checkpoints.latest(club_id) for club_id in by_club}
    deliveries = WebhookDelivery.objects.bulk_create(
        [
            WebhookDelivery(
                webhook=hook,
                event=event,
                payload=payload(event, result, signed[result.club_id]),
            )
            for result in results
            for hook in by_club.get(result.club_id, [])
        ]
    )
    ids = [d.pk for d in deliveries]
    if not ids:
        return

    def send() -> None:
        from ledger.clubs import tasks

        for delivery_id in ids:
            tasks.deliver_webhook.delay(delivery_id)

    transaction.on_commit(send)


def deliver(delivery_id: int, timeout: float = 5.0) -> bool:
    delivery = WebhookDelivery.objects.select_related("webhook").get(pk=delivery_id)
    body = json.dumps(delivery.payload, sort_keys=True).encode()
    timestamp = str(int(time.time()))
    request = urllib.request.Request(
        delivery.webhook.url,
        data=body,
        method="POST",
        headers={
            "Content-Type": "application/json",
            "User-Agent": "club-ledger-webhooks/1",
            "X-Ledger-Event": delivery.event,
            "X-Ledger-Delivery": str(delivery.pk),
            "X-Ledger-Timestamp": timestamp,
            "X-Ledger-Signature": sign(delivery.webhook.secret, timestamp, body),
        },
    )
    status, error = None, ""
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status = response.status
    except urllib.error.HTTPError as exc:
        status, error = exc.code, str(exc)
    except (urllib.error.URLError, OSError) as exc:
        error = str(exc)
    ok = status is not None and 200 <= status < 300
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        attempts=delivery.attempts + 1,
        status_code=status,
        error=error[:500],
        delivered_at=timezone.now() if ok else None,
    )
    return ok
