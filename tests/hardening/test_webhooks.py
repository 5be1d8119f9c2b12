"""Webhooks go only where they should, never slow a request, and are retried.

The probe's findings: loopback and ftp:// targets were accepted, a redirect was followed with
the signature headers, the result POST waited for the delivery, and a failed delivery was
never tried again.
"""

from __future__ import annotations

import datetime
import http.server
import socket
import threading
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone, translation

from ledger.clubs import jobs, tasks, webhooks
from ledger.clubs.models import Webhook, WebhookDelivery
from tests.ledger.helpers import record


@pytest.fixture(autouse=True)
def _english():
    # A delivery's error is kept in the language it was written in.
    with translation.override("en"):
        yield


@pytest.mark.parametrize(
    "url",
    [
        "ftp://hooks.example.org/x",
        "http://hooks.example.org/x",
        "file:///etc/passwd",
        "https://127.0.0.1/x",
        "https://[::1]/x",
        "https://localhost:8000/x",
        "https://10.1.2.3/x",
        "https://192.168.1.10/x",
        "https://169.254.169.254/latest/meta-data/",
        "https://[fe80::1]/x",
        "https://[::ffff:127.0.0.1]/x",
        "https://0.0.0.0/x",
        "https://user:pw@hooks.example.org/x",
    ],
)
def test_an_address_that_is_not_public_https_is_refused(url):
    with pytest.raises(webhooks.Refused):
        webhooks.check_url(url)
    hook = Webhook(url=url, secret="s")
    with pytest.raises(ValidationError) as caught:
        hook.clean()
    assert "url" in caught.value.message_dict


def test_a_public_https_address_is_accepted():
    assert webhooks.check_url("https://hooks.example.org:8443/in?x=1") == (
        "https",
        "hooks.example.org",
        8443,
        "/in?x=1",
    )


def test_settings_allow_http_and_private_addresses_for_development(settings):
    settings.LEDGER_WEBHOOKS_ALLOW_HTTP = True
    settings.LEDGER_WEBHOOKS_ALLOW_PRIVATE = True
    assert webhooks.check_url("http://127.0.0.1:9000/x")[1] == "127.0.0.1"
    with pytest.raises(webhooks.Refused):
        webhooks.check_url("ftp://127.0.0.1/x")


def _answer(addresses: list[str]) -> Any:
    def getaddrinfo(host, port, *args, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in addresses]

    return getaddrinfo


def a_delivery(people: Any, url: str) -> WebhookDelivery:
    hook = Webhook.objects.create(club=people.club, url=url, secret="s3cret")
    return WebhookDelivery.objects.create(webhook=hook, event="ping", payload={"event": "ping"})


def test_a_name_that_resolves_to_a_private_address_is_refused_at_delivery(people, monkeypatch):
    delivery = a_delivery(people, "https://rebound.example.org/hook")
    connected = []
    monkeypatch.setattr(socket, "getaddrinfo", _answer(["93.184.216.34", "10.0.0.7"]))
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connected.append(a))
    assert webhooks.deliver(delivery.pk) is False
    delivery.refresh_from_db()
    assert "10.0.0.7" in delivery.error and "not on the public internet" in delivery.error
    assert connected == []


def test_the_connection_goes_to_the_address_that_was_checked(people, monkeypatch, settings):
    settings.LEDGER_WEBHOOKS_ALLOW_HTTP = True
    delivery = a_delivery(people, "http://hooks.example.org:8080/in")
    connected = []

    def create_connection(address, timeout=None, *args):
        connected.append(address)
        raise ConnectionRefusedError("refused")

    monkeypatch.setattr(socket, "getaddrinfo", _answer(["93.184.216.34"]))
    monkeypatch.setattr(socket, "create_connection", create_connection)
    assert webhooks.deliver(delivery.pk) is False
    assert connected == [("93.184.216.34", 8080)]


class _Receiver(http.server.BaseHTTPRequestHandler):
    seen: list[tuple[str, dict[str, str]]]
    answer = 204
    location = ""

    def do_POST(self):
        length = int(self.headers.get("Content-Length", 0))
        self.rfile.read(length)
        self.seen.append((self.path, dict(self.headers)))
        self.send_response(self.answer)
        if self.location:
            self.send_header("Location", self.location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def _serve(answer: int, location: str = "") -> tuple[Any, list[Any]]:
    seen: list[Any] = []
    handler = type("Handler", (_Receiver,), {"seen": seen, "answer": answer, "location": location})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, seen


def test_a_redirect_is_not_followed(people, settings):
    settings.LEDGER_WEBHOOKS_ALLOW_HTTP = True
    settings.LEDGER_WEBHOOKS_ALLOW_PRIVATE = True
    target, reached = _serve(204)
    bouncer, bounced = _serve(302, f"http://127.0.0.1:{target.server_port}/stolen")
    try:
        delivery = a_delivery(people, f"http://127.0.0.1:{bouncer.server_port}/hook")
        assert webhooks.deliver(delivery.pk) is False
    finally:
        target.shutdown()
        bouncer.shutdown()
    delivery.refresh_from_db()
    assert len(bounced) == 1 and reached == []
    assert delivery.status_code == 302 and "redirect" in delivery.error
    assert delivery.next_attempt_at is not None


def test_a_delivery_reaches_a_real_receiver_signed(people, settings):
    settings.LEDGER_WEBHOOKS_ALLOW_HTTP = True
    settings.LEDGER_WEBHOOKS_ALLOW_PRIVATE = True
    server, seen = _serve(204)
    try:
        delivery = a_delivery(people, f"http://127.0.0.1:{server.server_port}/hook?k=1")
        assert webhooks.deliver(delivery.pk) is True
    finally:
        server.shutdown()
    ((path, headers),) = seen
    assert path == "/hook?k=1"
    assert headers["X-Ledger-Signature"].startswith("sha256=")
    delivery.refresh_from_db()
    assert delivery.delivered_at is not None and delivery.next_attempt_at is None


def test_the_request_never_waits_for_a_delivery(
    people, manual_table, monkeypatch, settings, django_capture_on_commit_callbacks
):
    settings.LEDGER_JOBS_IN_THREADS = True
    Webhook.objects.create(club=people.club, url="https://hooks.example.org/x", secret="s")
    sent, started = [], []
    monkeypatch.setattr(webhooks, "send", lambda *a, **k: sent.append(a) or 204)

    class Held:
        def __init__(self, target, name=None, daemon=None):
            self.target = target
            started.append(self)

        def start(self):
            pass

    monkeypatch.setattr(jobs.threading, "Thread", Held)
    with django_capture_on_commit_callbacks(execute=True):
        record(people, manual_table, [3, -3])
    # The request is over: nothing was sent from it, the delivery waits for its job.
    assert sent == []
    assert len(started) == 1
    delivery = WebhookDelivery.objects.get()
    assert delivery.attempts == 0
    # The job, run here: its thread would close its own connection at the end, not ours.
    monkeypatch.setattr(jobs, "connections", type("C", (), {"close_all": lambda self: None})())
    started[0].target()
    delivery.refresh_from_db()
    assert len(sent) == 1 and delivery.delivered_at is not None


def test_a_failed_delivery_is_retried_with_exponential_backoff_until_the_limit(
    people, monkeypatch, settings
):
    settings.LEDGER_WEBHOOK_ATTEMPTS = 4
    delivery = a_delivery(people, "https://down.example.org/x")

    def down(*args, **kwargs):
        raise ConnectionRefusedError("refused")

    monkeypatch.setattr(webhooks, "send", down)
    waits = []
    for attempt in range(1, 5):
        before = timezone.now()
        assert tasks.deliver_webhook.apply(args=(delivery.pk,)).get() is False
        delivery.refresh_from_db()
        assert delivery.attempts == attempt
        if attempt < 4:
            waits.append(round((delivery.next_attempt_at - before).total_seconds()))
            # The time comes: the periodic job picks it up.
            WebhookDelivery.objects.filter(pk=delivery.pk).update(
                next_attempt_at=timezone.now() - datetime.timedelta(seconds=1)
            )
            assert webhooks.due() == [delivery.pk]
        else:
            assert delivery.next_attempt_at is None  # given up
    assert waits == [30, 60, 120]
    monkeypatch.setattr(webhooks, "send", lambda *a, **k: 200)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    assert tasks.retry_webhooks.apply().get() == 1


def test_organisers_read_the_delivery_log_from_the_competition_pages(
    client, people, manual_table, monkeypatch, django_capture_on_commit_callbacks
):
    Webhook.objects.create(club=people.club, url="https://hooks.example.org/x", secret="s")
    monkeypatch.setattr(webhooks, "send", lambda *a, **k: 500)
    with django_capture_on_commit_callbacks(execute=True):
        record(people, manual_table, [3, -3])
    client.force_login(people.users["organiser"])
    page = client.get("/c/prova/coppa/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="/c/prova/webhooks/"' in page
    log = client.get("/c/prova/webhooks/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "https://hooks.example.org/x" in log
    assert "Result accepted" in log and "The receiver answered 500." in log
    assert "next attempt" in log


def test_an_organiser_sends_a_test_delivery(
    client, people, monkeypatch, django_capture_on_commit_callbacks
):
    hook = Webhook.objects.create(club=people.club, url="https://hooks.example.org/x", secret="s")
    sent = []
    monkeypatch.setattr(
        webhooks, "send", lambda url, body, headers, timeout: sent.append(body) or 204
    )
    client.force_login(people.users["organiser"])
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post("/c/prova/webhooks/", {"webhook": hook.pk})
    assert answer.status_code == 302
    ping = WebhookDelivery.objects.get(event="ping")
    assert ping.delivered_at is not None and len(sent) == 1
    assert b'"event": "ping"' in sent[0] and b'"checkpoint"' in sent[0]
    log = client.get("/c/prova/webhooks/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Test delivery" in log and "Delivered" in log


@pytest.mark.parametrize("who", [None, "member", "scorekeeper", "referee"])
def test_only_organisers_see_the_log_or_send_a_test(client, people, who):
    hook = Webhook.objects.create(club=people.club, url="https://hooks.example.org/x", secret="s")
    if who:
        client.force_login(people.users[who])
    assert client.get("/c/prova/webhooks/").status_code == 302
    client.post("/c/prova/webhooks/", {"webhook": hook.pk})
    assert not WebhookDelivery.objects.exists()


def test_a_test_delivery_for_another_clubs_webhook_is_refused(client, people, other_club):
    theirs = Webhook.objects.create(club=other_club, url="https://x.example.org/", secret="s")
    client.force_login(people.users["organiser"])
    assert client.post("/c/prova/webhooks/", {"webhook": theirs.pk}).status_code == 404
    assert not WebhookDelivery.objects.exists()
