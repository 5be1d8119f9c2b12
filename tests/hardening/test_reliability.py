"""The ledger under what real clubs do to it: many phones retrying at once, the web process
killed mid-burst, the database connection dropping in the middle of a write.

Each test holds the same line: exactly the distinct results are recorded, every acknowledged
write is there whole, the standings projection equals a rebuild from the journal, and the hash
chain verifies. The concurrent and process-killing tests need PostgreSQL (SQLite serialises
writers, so there would be nothing to race)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from collections import defaultdict
from typing import Any

import psycopg
import pytest
import requests
from django.db import OperationalError, connection
from rest_framework.test import APIClient

from ledger.clubs.journal.journal import verify_chain
from ledger.clubs.models import Entry, Result
from ledger.clubs.results.services import sender_key
from tests.conftest import api_key
from tests.hardening.reliability import (
    ROOT,
    URL,
    Gunicorn,
    assert_no_half_written_result,
    assert_projection_equals_rebuild,
    body,
    competition_with_tables,
)


def _by_client_key(recorded, keys):  # type: ignore[no-untyped-def]
    """{client's key: result id} of ``recorded``, whose keys are stored scoped by sender."""
    stored = dict(recorded.values_list("idempotency_key", "pk"))
    first = recorded.first()
    if first is None:
        return {}
    return {
        k: stored[sender_key(first.entered_by_id, first.source, k)]
        for k in keys
        if sender_key(first.entered_by_id, first.source, k) in stored
    }


ON_POSTGRES = connection.vendor == "postgresql"
NEEDS_PG = "concurrent writers, gunicorn and pg_terminate_backend need PostgreSQL"


def _post(client: APIClient, data: dict[str, Any], key: str) -> Any:
    return client.post(
        URL, data=json.dumps(data), content_type="application/json", HTTP_IDEMPOTENCY_KEY=key
    )


# --- (a) eight clients, retries and duplicate keys -----------------------------------------


def _eight_clients_submit(people: Any, n_results: int) -> None:
    competition, tables = competition_with_tables(people)
    token = api_key(people.users["scorekeeper"])
    clients = 8
    work: list[list[int]] = [[] for _ in range(clients)]
    for i in range(n_results):
        work[i % clients].append(i)
        if i % 4 == 0:  # the same result sent by a second phone
            work[(i + 3) % clients].append(i)
    shuffle = random.Random(2026)
    for items in work:
        shuffle.shuffle(items)

    answers: dict[str, set[int]] = defaultdict(set)
    problems: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(clients)

    def phone(items: list[int]) -> None:
        from django.db import connections

        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        barrier.wait()
        try:
            for i in items:
                key = f"hand-{i}"
                # Every fifth hand is resent at once, as a phone does when the answer is lost.
                for _ in range(2 if i % 5 == 0 else 1):
                    for _attempt in range(20):
                        response = _post(client, body(tables, i), key)
                        if response.status_code == 201:
                            with lock:
                                answers[key].add(response.json()["id"])
                            break
                        if response.status_code != 503:
                            with lock:
                                problems.append(
                                    f"{key}: {response.status_code} {response.content!r}"
                                )
                            break
                        time.sleep(0.05)
                    else:
                        with lock:
                            problems.append(f"{key}: still 503 after 20 tries")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=phone, args=(items,)) for items in work]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert problems == []
    assert set(answers) == {f"hand-{i}" for i in range(n_results)}
    assert all(len(ids) == 1 for ids in answers.values()), "a key answered with two results"
    recorded = Result.objects.filter(competition=competition)
    assert recorded.count() == n_results
    assert sorted(_by_client_key(recorded, answers)) == sorted(answers)
    assert {r.pk for r in recorded} == {next(iter(ids)) for ids in answers.values()}
    assert Entry.objects.filter(competition=competition).count() == 4 * n_results
    assert_no_half_written_result(competition)
    assert_projection_equals_rebuild(competition)
    assert verify_chain(people.club) == []


@pytest.mark.postgres_only
@pytest.mark.skipif(not ON_POSTGRES, reason=NEEDS_PG)
@pytest.mark.usefixtures("transactional_db")
def test_eight_clients_with_retries_record_each_distinct_result_once(people):
    _eight_clients_submit(people, 300)


@pytest.mark.soak
@pytest.mark.postgres_only
@pytest.mark.skipif(not ON_POSTGRES, reason=NEEDS_PG)
@pytest.mark.usefixtures("transactional_db")
def test_eight_clients_record_two_thousand_results_exactly_once(people):
    _eight_clients_submit(people, 2000)


# --- (b) the web process killed during a burst of writes ----------------------------------


@pytest.fixture
def gunicorn(transactional_db, tmp_path):
    server = Gunicorn(tmp_path)
    yield server
    server.stop()


def _burst(
    base_url: str,
    token: str,
    tables: list[Any],
    keys: list[int],
    acked: dict[str, int],
    stop: threading.Event | None = None,
) -> None:
    session = requests.Session()
    session.headers["Authorization"] = f"Token {token}"
    for i in keys:
        if stop is not None and stop.is_set():
            # The server is gone: the test still holds its port, so a new request would be
            # queued by the kernel and wait for its timeout, not be refused.
            return
        try:
            response = session.post(
                base_url + URL,
                json=body(tables, i),
                headers={"Idempotency-Key": f"burst-{i}"},
                timeout=30,
            )
        except requests.RequestException:
            continue  # not acknowledged: the phone will retry later
        if 200 <= response.status_code < 300:
            acked[f"burst-{i}"] = response.json()["id"]


@pytest.mark.postgres_only
@pytest.mark.skipif(not ON_POSTGRES, reason=NEEDS_PG)
def test_a_killed_web_process_loses_no_acknowledged_write(people, gunicorn):
    competition, tables = competition_with_tables(people)
    token = api_key(people.users["scorekeeper"])
    gunicorn.start()
    acked: dict[str, int] = {}
    n = 160
    stop = threading.Event()
    senders = [
        threading.Thread(
            target=_burst, args=(gunicorn.url, token, tables, list(range(s, n, 4)), acked, stop)
        )
        for s in range(4)
    ]
    for t in senders:
        t.start()
    # Until 30 are acknowledged, however long a loaded machine takes (a minute's deadline
    # could end the wait with fewer, and fail the test for the machine's slowness); the
    # senders ending first, with fewer, is a failure of its own.
    while len(acked) < 30 and any(t.is_alive() for t in senders):
        time.sleep(0.02)
    stop.set()  # the phones send nothing new once the server is killed ...
    gunicorn.kill()  # ... mid-burst: requests in flight die with the workers
    for t in senders:
        t.join()
    assert 30 <= len(acked) < n, "the kill did not land inside the burst"

    # Every acknowledged write is there, whole, under the id that was acknowledged.
    recorded = _by_client_key(Result.objects.filter(competition=competition), acked)
    missing = {k: v for k, v in acked.items() if recorded.get(k) != v}
    assert missing == {}
    assert_no_half_written_result(competition)

    gunicorn.start()
    verify = subprocess.run(
        [sys.executable, "manage.py", "verify_ledger"],
        cwd=ROOT,
        env=gunicorn.env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "intact" in verify.stdout

    # The phones retry what was never acknowledged, with the same keys: each lands once.
    _burst(gunicorn.url, token, tables, list(range(n)), acked)
    assert len(acked) == n
    everything = Result.objects.filter(competition=competition)
    assert everything.count() == len(acked)
    recorded = _by_client_key(everything, acked)
    assert recorded == acked
    assert Entry.objects.filter(competition=competition).count() == 4 * n
    assert_projection_equals_rebuild(competition)
    assert verify_chain(people.club) == []


# --- (c) the database connection drops in the middle of a request -------------------------

# The statement that writes the journal lines, after the result's row: chained by the
# database on PostgreSQL, by this process elsewhere.
JOURNAL_WRITES = (f'INSERT INTO "{Entry._meta.db_table}"', "ledger_append(")


def _writes_journal(sql: object) -> bool:
    return any(marker in str(sql) for marker in JOURNAL_WRITES)


def _assert_unavailable(response_status: int, payload: dict[str, Any], retry_after: Any) -> None:
    assert response_status == 503
    assert set(payload) == {"error"}
    assert payload["error"]["code"] == "unavailable"
    assert "Idempotency-Key" in payload["error"]["message"]
    assert retry_after


def test_a_database_error_mid_write_is_a_503_and_the_retry_records_once(people):
    competition, tables = competition_with_tables(people, n_tables=1)
    client = people.client("scorekeeper")
    failures = []

    def drop_on_journal_write(execute, sql, params, many, context):
        if _writes_journal(sql) and not failures:
            failures.append(sql)
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(drop_on_journal_write):
        first = _post(client, body(tables, 7), "flaky-wifi")
    assert failures, "the fault was never injected"
    _assert_unavailable(first.status_code, first.json(), first.get("Retry-After"))
    assert Result.objects.count() == 0  # rolled back whole: no result without its entries
    assert Entry.objects.count() == 0

    second = _post(client, body(tables, 7), "flaky-wifi")
    third = _post(client, body(tables, 7), "flaky-wifi")
    assert second.status_code == third.status_code == 201
    assert third["Idempotent-Replayed"] == "true"
    assert second.json()["id"] == third.json()["id"]
    assert Result.objects.count() == 1
    assert Entry.objects.count() == 4
    assert_projection_equals_rebuild(competition)


@pytest.mark.postgres_only
@pytest.mark.skipif(not ON_POSTGRES, reason=NEEDS_PG)
def test_a_terminated_database_backend_is_a_503_and_the_retry_records_once(
    people, live_server, monkeypatch
):
    competition, tables = competition_with_tables(people, n_tables=1)
    token = api_key(people.users["scorekeeper"])
    settings_dict = connection.settings_dict
    killed: list[int] = []
    # psycopg's own cursor: under Django's cursors and the write path's prepared statements.
    original = psycopg.Cursor.execute

    def terminate_my_backend_then_execute(self, query, params=None, **kwargs):
        if _writes_journal(query) and not killed:
            pid = self.connection.info.backend_pid
            killed.append(pid)
            with psycopg.connect(
                host=settings_dict["HOST"] or "127.0.0.1",
                port=settings_dict["PORT"] or 5432,
                user=settings_dict["USER"],
                password=settings_dict.get("PASSWORD") or None,
                dbname=settings_dict["NAME"],
                autocommit=True,
            ) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", [pid])
                # Wait until the backend is really gone, however long a loaded machine takes
                # (a hundred looks, two seconds on an idle machine, could end the wait with it
                # still there, and the statement would run on it). The limit only stops a hang.
                gone_by = time.monotonic() + 120
                while True:
                    row = admin.execute(
                        "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid]
                    ).fetchone()
                    if row is not None and row[0] == 0:
                        break
                    assert time.monotonic() < gone_by, "the terminated backend stayed"
                    time.sleep(0.02)
        return original(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", terminate_my_backend_then_execute)
    session = requests.Session()
    session.headers["Authorization"] = f"Token {token}"

    def send() -> requests.Response:
        return session.post(
            live_server.url + URL,
            json=body(tables, 3),
            headers={"Idempotency-Key": "cut-cable"},
            timeout=30,
        )

    first = send()
    assert killed, "the backend was never terminated"
    _assert_unavailable(first.status_code, first.json(), first.headers.get("Retry-After"))
    assert not Result.objects.filter(competition=competition).exists()

    second, third = send(), send()
    assert second.status_code == third.status_code == 201, second.content
    assert third.headers["Idempotent-Replayed"] == "true"
    assert second.json()["id"] == third.json()["id"]
    assert Result.objects.filter(competition=competition).count() == 1
    assert Entry.objects.filter(competition=competition).count() == 4
    assert_projection_equals_rebuild(competition)
