"""Signed webhooks: other club software follows accepted, corrected and ruled results.

A delivery is ``POST <url>`` with a JSON body and the headers ``X-Ledger-Event``,
``X-Ledger-Delivery`` (an id, the same on every retry) and ``X-Ledger-Signature:
sha256=<hex>``, the HMAC-SHA256 of ``<timestamp>.<body>`` under the webhook's secret, with
the timestamp in ``X-Ledger-Timestamp``. Every body carries the club's latest signed
checkpoint (docs/security.md).

Deliveries are made by a background job after the transaction commits, never inside the
request. Only ``https://`` addresses (``http://`` when LEDGER_WEBHOOKS_ALLOW_HTTP is set, for
development) whose host resolves, at delivery time, to public addresses only: loopback,
private, link-local, multicast and reserved ranges are refused unless
LEDGER_WEBHOOKS_ALLOW_PRIVATE is set, and the connection goes to the address that was
checked. Redirects are not followed (a 3xx is a failed attempt). A failed attempt is retried
with exponential backoff (30 s, 1 min, 2 min, ... up to LEDGER_WEBHOOK_ATTEMPTS attempts);
each delivery keeps its attempts, last status and error, which organisers read on the
club's webhook page.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import http.client
import json
import socket
import ssl
import time
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs import jobs
from ledger.clubs.addresses import Refused, check_url, resolve
from ledger.clubs.journal import selectors as journal_reads
from ledger.clubs.models import Result, Webhook, WebhookDelivery
from ledger.clubs.office.roles import require_role


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
            "reason": (
                result.void_reason if result.status == Result.Status.VOIDED else result.reason
            ),
            "seats": [{"seat": i, "player": p, "name": n} for i, p, n in seats],
        },
        # The club's latest signed checkpoint: a copy outside the database (see
        # docs/security.md); check it with the public key it carries.
        "checkpoint": journal_reads.summary(checkpoint),
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
    signed = {club_id: journal_reads.latest(club_id) for club_id in by_club}
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

    def send_all() -> None:
        for delivery_id in ids:
            _enqueue(delivery_id)

    transaction.on_commit(send_all)


class _PinnedHTTP(http.client.HTTPConnection):
    """A connection to the address that was checked, whatever the name resolves to now."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        # The certificate is checked against the host's name, as for any https request.
        self.sock = self.tls.wrap_socket(sock, server_hostname=self.host)


def send(url: str, body: bytes, headers: dict[str, str], timeout: float) -> int:
    """POST the body; the answer's status. Raises Refused for an address not allowed and
    OSError when the connection fails. Never follows a redirect."""
    scheme, host, port, path = check_url(url)
    address = resolve(host, port)
    pinned = _PinnedHTTPS if scheme == "https" else _PinnedHTTP
    connection_ = pinned(host, port, address, timeout)
    try:
        connection_.request("POST", path, body=body, headers=headers)
        answer = connection_.getresponse()
        answer.read(65536)
        return answer.status
    finally:
        connection_.close()


def backoff(attempts: int) -> int:
    """Seconds before the next attempt, after ``attempts`` failed ones: 30 s, doubling."""
    return int(min(30 * 2 ** max(attempts - 1, 0), 6 * 3600))


def deliver(delivery_id: int, timeout: float | None = None) -> bool:
    """One attempt at a delivery: True when the receiver answered 2xx. A failure is kept
    with its reason and, while attempts remain, the time of the next one."""
    delivery = WebhookDelivery.objects.select_related("webhook").get(pk=delivery_id)
    if delivery.delivered_at is not None:
        return True
    hook = delivery.webhook
    body = json.dumps(delivery.payload, sort_keys=True).encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "club-ledger-webhooks/1",
        "X-Ledger-Event": delivery.event,
        "X-Ledger-Delivery": str(delivery.pk),
        "X-Ledger-Timestamp": timestamp,
        "X-Ledger-Signature": sign(hook.secret, timestamp, body),
    }
    status, error, final = None, "", False
    if not hook.active:
        error, final = _("The webhook is switched off."), True
    else:
        try:
            status = send(hook.url, body, headers, timeout or settings.LEDGER_WEBHOOK_TIMEOUT)
        except Refused as exc:
            error = str(exc)
        except (OSError, http.client.HTTPException) as exc:
            error = str(exc) or type(exc).__name__
    ok = status is not None and 200 <= status < 300
    if status is not None and 300 <= status < 400:
        error = _("The receiver answered with a redirect, which is not followed.")
    elif status is not None and not ok:
        error = _("The receiver answered %(status)d.") % {"status": status}
    attempts = delivery.attempts + 1
    limit = getattr(settings, "LEDGER_WEBHOOK_ATTEMPTS", 8)
    again = None
    if not ok and not final and attempts < limit:
        again = timezone.now() + datetime.timedelta(seconds=backoff(attempts))
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        attempts=attempts,
        status_code=status,
        error=error[:500],
        delivered_at=timezone.now() if ok else None,
        next_attempt_at=again,
    )
    return ok


def send_test(*, user: Any, webhook: Webhook) -> WebhookDelivery:
    """An organiser's test delivery (event ``ping``), made by the background job after the
    commit like any other."""
    require_role(user, webhook.club, "organiser")
    with transaction.atomic():
        delivery = WebhookDelivery.objects.create(
            webhook=webhook,
            event="ping",
            payload={
                "event": "ping",
                "club": webhook.club_id,
                "checkpoint": journal_reads.summary(journal_reads.latest(webhook.club_id)),
            },
        )
        transaction.on_commit(lambda: _enqueue(delivery.pk))
    return delivery


def _enqueue(delivery_id: int) -> None:
    jobs.enqueue(jobs.DELIVER_WEBHOOK, delivery_id)


def due() -> list[int]:
    """Deliveries whose next attempt is due (the periodic job retries them)."""
    return list(
        WebhookDelivery.objects.filter(
            delivered_at__isnull=True, next_attempt_at__lte=timezone.now()
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:500]
    )


def add_webhook(*, user: Any, club: Any, url: str, events: Sequence[str]) -> tuple[Webhook, str]:
    """A club's new webhook, made by one of its organisers, with a signing secret drawn here
    (returned once, for the receiver to check signatures with). Refused: an address no
    delivery may go to, or an event the club does not send."""
    import secrets

    require_role(user, club, "organiser")
    check_url(url)
    unknown = [e for e in events if e not in Webhook.EVENTS]
    if unknown:
        raise Refused(_("Unknown event: %(e)s") % {"e": ", ".join(unknown)})
    secret = secrets.token_hex(32)
    hook = Webhook.objects.create(club=club, url=url, secret=secret, events=list(events))
    return hook, secret


def switch_webhook(*, user: Any, webhook: Webhook, active: bool) -> Webhook:
    """An organiser switches a webhook off (no new deliveries; its log stays) or on again."""
    require_role(user, webhook.club, "organiser")
    Webhook.objects.filter(pk=webhook.pk).update(active=active)
    webhook.active = active
    return webhook
