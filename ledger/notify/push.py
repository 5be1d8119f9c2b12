"""Web Push to the installed web app: each of a person's subscriptions gets the message
encrypted to its own keys (RFC 8291, aes128gcm) and signed with the site's VAPID key
(RFC 8292), through pywebpush. A subscription its push service says is gone (404, 410) is
forgotten."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from py_vapid import Vapid

from ledger.clubs.models import Player
from ledger.notify.models import PushSubscription


class PushFailed(Exception):
    """No subscription of the person took the message."""


def ready() -> bool:
    return bool(settings.LEDGER_VAPID_PRIVATE_KEY and settings.LEDGER_VAPID_PUBLIC_KEY)


def vapid() -> Vapid:
    key = settings.LEDGER_VAPID_PRIVATE_KEY.strip()
    if key.startswith("-----BEGIN"):
        return Vapid.from_pem(key.encode())
    return Vapid.from_string(key)


def send(player: Player, payload: dict[str, Any]) -> int:
    """Send ``payload`` (JSON) to every subscription of ``player``; how many took it."""
    # Imported here: pywebpush brings aiohttp and requests, a third of a second at every
    # process start otherwise, and only a sending worker needs them.
    from pywebpush import WebPushException, webpush

    if not ready():
        raise PushFailed("no VAPID keys are set")
    subscriptions = list(PushSubscription.objects.filter(player=player))
    data = json.dumps(payload, ensure_ascii=False)
    signer = vapid()
    taken, errors = 0, []
    for sub in subscriptions:
        try:
            webpush(
                subscription_info={
                    "endpoint": sub.endpoint,
                    "keys": {"p256dh": sub.p256dh, "auth": sub.auth},
                },
                data=data,
                vapid_private_key=signer,
                vapid_claims={"sub": settings.LEDGER_VAPID_SUBJECT},
                content_encoding="aes128gcm",
                ttl=3600,
                timeout=10,
            )
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in (404, 410):
                sub.delete()
                continue
            errors.append(f"{status or ''} {exc}".strip())
        except OSError as exc:  # the push service cannot be reached
            errors.append(str(exc))
        else:
            taken += 1
    if not taken and errors:
        raise PushFailed("; ".join(errors)[:500])
    if not taken:
        raise PushFailed("no subscription")
    return taken
