"""Signed webhooks on accepted, corrected and ruled results."""

from __future__ import annotations

import hashlib
import hmac
import json

import pytest

from ledger.clubs.models import Webhook, WebhookDelivery
from ledger.clubs.results import services


class Sent:
    def __init__(self, url, body, headers):
        self.full_url, self.data, self.headers = url, body, headers

    def header_items(self):
        return list(self.headers.items())


class Catcher:
    """The receiver's side: every delivery sent, answered 204."""

    def __init__(self):
        self.calls = []

    def __call__(self, url, body, headers, timeout):
        self.calls.append(Sent(url, body, headers))
        return 204


@pytest.fixture
def catcher(monkeypatch):
    catch = Catcher()
    monkeypatch.setattr("ledger.clubs.webhooks.send", catch)
    return catch


def test_an_accepted_result_is_announced_with_a_valid_signature(
    people, manual_table, catcher, django_capture_on_commit_callbacks
):
    Webhook.objects.create(club=people.club, url="https://example.org/hook", secret="s3cret")
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(
            user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3, 4]
        )
    (request,) = catcher.calls
    headers = {k.lower(): v for k, v in request.header_items()}
    expected = hmac.new(
        b"s3cret", headers["x-ledger-timestamp"].encode() + b"." + request.data, hashlib.sha256
    ).hexdigest()
    assert headers["x-ledger-signature"] == "sha256=" + expected
    body = json.loads(request.data)
    assert body["event"] == "result.accepted" and body["result"]["scores"] == ["3", "4"]
    delivery = WebhookDelivery.objects.get()
    assert delivery.status_code == 204 and delivery.delivered_at is not None


def test_corrections_and_rulings_are_announced_only_to_hooks_that_want_them(
    people, manual_table, catcher, django_capture_on_commit_callbacks
):
    Webhook.objects.create(
        club=people.club, url="https://a.example/", secret="x", events=["result.corrected"]
    )
    result, _ = services.record_result(
        user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3, 4]
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.supersede_result(
            user=people.users["referee"], result=result, source="manual", scores=[4, 3]
        )
    events = [json.loads(r.data)["event"] for r in catcher.calls]
    assert events == ["result.corrected"]


def test_nothing_is_announced_for_a_write_that_rolls_back(
    people, manual_table, catcher, django_capture_on_commit_callbacks
):
    from ledger.clubs.errors import Invalid

    Webhook.objects.create(club=people.club, url="https://a.example/", secret="x")
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(Invalid):
        services.record_result(
            user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3]
        )
    assert catcher.calls == [] and not WebhookDelivery.objects.exists()


def test_a_failing_receiver_is_recorded_for_retry(
    people, manual_table, monkeypatch, django_capture_on_commit_callbacks
):
    def refuse(url, body, headers, timeout):
        raise ConnectionRefusedError("connection refused")

    monkeypatch.setattr("ledger.clubs.webhooks.send", refuse)
    Webhook.objects.create(club=people.club, url="https://down.example/", secret="x")
    with django_capture_on_commit_callbacks(execute=True):
        services.record_result(
            user=people.users["scorekeeper"], table=manual_table, source="manual", scores=[3, 4]
        )
    delivery = WebhookDelivery.objects.get()
    assert delivery.attempts == 1 and delivery.delivered_at is None
    assert "refused" in delivery.error
    assert delivery.next_attempt_at is not None


def _record_through_the_write_path(people, table):
    loaded = services.table_for_write(table.pk)
    return services.record_result(
        user=people.users["scorekeeper"], table=loaded, source="manual", scores=[3, 4]
    )


def test_a_table_read_for_a_write_tells_whether_the_club_has_hooks(
    people, manual_table, catcher, django_capture_on_commit_callbacks
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    hooks_table = Webhook._meta.db_table
    with CaptureQueriesContext(connection) as quiet:
        _record_through_the_write_path(people, manual_table)
    # No hook: the write does not ask again after the table's read.
    assert sum(hooks_table in q["sql"] for q in quiet.captured_queries) == 1
    assert not WebhookDelivery.objects.exists()

    Webhook.objects.create(club=people.club, url="https://example.org/hook", secret="s3cret")
    with django_capture_on_commit_callbacks(execute=True):
        _record_through_the_write_path(people, manual_table)
    assert WebhookDelivery.objects.count() == 1
    assert len(catcher.calls) == 1
