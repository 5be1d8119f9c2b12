"""Web Push to a local push endpoint that decrypts what it receives with each
subscription's own keys (RFC 8291, aes128gcm) and checks the site's VAPID signature: a round
published sends each subscribed player exactly one push with their table and seat, in their
language; a second run of the job sends nothing; a subscription the service says is gone is
forgotten."""

from __future__ import annotations

import base64
import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from py_vapid import Vapid

from ledger.clubs import events
from ledger.notify import tasks
from ledger.notify.models import Delivery, PushSubscription
from tests.notify.conftest import publish_round


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def point(key: ec.EllipticCurvePublicKey) -> bytes:
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


class PushService:
    """A push service on loopback: each subscription an address of its own; what arrives is
    decrypted with that subscription's private key and auth secret."""

    def __init__(self) -> None:
        self.keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self.received: list[tuple[str, dict[str, Any], dict[str, str]]] = []
        self.gone: set[str] = set()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                name = self.path.rsplit("/", 1)[-1]
                if name in service.gone:
                    self.send_response(410)
                    self.end_headers()
                    return
                private, auth = service.keys[name]
                plain = http_ece.decrypt(
                    body, private_key=private, auth_secret=auth, version="aes128gcm"
                )
                headers = {k.lower(): v for k, v in self.headers.items()}
                service.received.append((name, json.loads(plain), headers))
                self.send_response(201)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def subscribe(self, player: Any) -> PushSubscription:
        """What a browser does: a key pair and an auth secret of its own, and an endpoint."""
        private = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        name = f"sub{len(self.keys)}"
        self.keys[name] = (private, auth)
        return PushSubscription.objects.create(
            player=player,
            endpoint=f"{self.base}/push/{name}",
            p256dh=b64(point(private.public_key())),
            auth=b64(auth),
        )

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service(settings: Any) -> Iterator[PushService]:
    vapid = Vapid()
    vapid.generate_keys()
    raw = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    settings.LEDGER_VAPID_PRIVATE_KEY = b64(raw)
    settings.LEDGER_VAPID_PUBLIC_KEY = b64(point(vapid.public_key))
    settings.LEDGER_VAPID_SUBJECT = "mailto:arbitro@example.org"
    service = PushService()
    try:
        yield service
    finally:
        service.close()


def test_a_round_published_pushes_each_subscribed_player_their_seat(
    push_service: PushService,
    drawn: dict[str, Any],
    django_capture_on_commit_callbacks: Any,
    settings: Any,
) -> None:
    subscriptions = {p.pk: push_service.subscribe(p) for p in drawn["players"]}
    draw = publish_round(drawn, django_capture_on_commit_callbacks)
    assert len(push_service.received) == 8
    by_endpoint = {s.endpoint.rsplit("/", 1)[-1]: pid for pid, s in subscriptions.items()}
    ids = [p.pk for p in drawn["players"]]
    for name, payload, headers in push_service.received:
        player_id = by_endpoint[name]
        i = ids.index(player_id)
        (table,) = [t for t in draw.tables if player_id in t["players"]]
        seat = table["players"].index(player_id) + 1
        if i % 2:
            assert f"table {table['label']}, seat {seat}" in payload["title"]
            assert payload["lang"] == "en"
        else:
            assert f"tavolo {table['label']}, posto {seat}" in payload["title"]
            assert payload["lang"] == "it"
        assert payload["url"].endswith("/c/prova/autunno/")
        # Signed with the site's VAPID key, for this push service's origin.
        scheme, _, rest = headers["authorization"].partition(" ")
        assert scheme == "vapid"
        parts = dict(p.split("=", 1) for p in rest.split(","))
        assert parts["k"] == settings.LEDGER_VAPID_PUBLIC_KEY
        signed, _, signature = parts["t"].rpartition(".")
        raw = unb64(signature)
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(parts["k"])).verify(
            encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
            signed.encode(),
            ec.ECDSA(hashes.SHA256()),
        )
        claims = json.loads(unb64(signed.split(".")[1]))
        assert claims["aud"] == push_service.base
        assert claims["sub"] == "mailto:arbitro@example.org"
        assert headers["content-encoding"] == "aes128gcm"
    assert Delivery.objects.filter(channel="push", status="sent").count() == 8
    # The same job again: nothing more.
    tasks.deliver.apply(args=[events.ROUND_PUBLISHED, json.dumps({"draw": draw.pk})])
    assert len(push_service.received) == 8


def test_push_switched_off_for_seats_sends_none(
    push_service: PushService, drawn: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    from ledger.notify.models import Preferences

    for p in drawn["players"]:
        push_service.subscribe(p)
        Preferences.objects.update_or_create(player=p, defaults={"muted": ["seat:push"]})
    publish_round(drawn, django_capture_on_commit_callbacks)
    assert push_service.received == []


def test_a_subscription_the_service_says_is_gone_is_forgotten(
    push_service: PushService, drawn: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    first = drawn["players"][0]
    gone = push_service.subscribe(first)
    kept = push_service.subscribe(first)
    push_service.gone.add(gone.endpoint.rsplit("/", 1)[-1])
    publish_round(drawn, django_capture_on_commit_callbacks)
    assert [n for n, _p, _h in push_service.received] == [kept.endpoint.rsplit("/", 1)[-1]]
    assert list(PushSubscription.objects.filter(player=first)) == [kept]
    assert Delivery.objects.get(player=first, channel="push").status == "sent"


def test_the_settings_page_keeps_a_browser_subscription(
    push_service: PushService, people: Any, settings: Any
) -> None:
    from django.test import Client
    from django.urls import reverse

    settings.DEBUG = False
    client = Client()
    client.force_login(people.users["member"])
    page = client.get(reverse("notify-settings")).content.decode()
    assert f'data-key="{settings.LEDGER_VAPID_PUBLIC_KEY}"' in page
    body = {
        "endpoint": "https://push.example/abc",
        "keys": {"p256dh": "BPk", "auth": "a2V5"},
    }
    answer = client.post(reverse("notify-push"), json.dumps(body), content_type="application/json")
    assert answer.json() == {"subscribed": True}
    assert PushSubscription.objects.get().player == people.players["member"]
    refused = client.post(
        reverse("notify-push"), json.dumps({"nothing": 1}), content_type="application/json"
    )
    assert refused.status_code == 400
    dropped = client.post(
        reverse("notify-push"),
        json.dumps({"endpoint": "https://push.example/abc", "drop": True}),
        content_type="application/json",
    )
    assert dropped.json() == {"subscribed": False}
    assert not PushSubscription.objects.exists()
