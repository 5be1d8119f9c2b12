"""Database connections killed while writers, confirmers and referees are at work: every
answer is a 2xx, a redirect, a 4xx or a 503 with Retry-After, never a 500, and the ledger
stays whole.

The probe's finding: with connections being killed, 427 of 1,074 answers were 500 HTML
pages, all raised in ledger/api/auth.py (the token's look-up, the first query of a request
on a connection that was kept from an earlier one) before the API's error mapping.

``python -m ledger.serve`` (the Procfile's web process, with its default of keeping each
connection for a minute) serves the test database; a second connection runs
``pg_terminate_backend`` on every backend of the server, again and again, while the
clients work. A client retries a 503 as the answer tells it to (the same Idempotency-Key
for a result), so each result is recorded once. PostgreSQL only."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from collections import Counter
from typing import Any

import psycopg
import pytest
import requests
from django.conf import settings
from django.db import connection
from django.test import Client

from ledger.clubs.journal import journal
from ledger.clubs.models import Competition, Result
from ledger.clubs.results import services
from tests.conftest import api_key
from tests.hardening.reliability import (
    ROOT,
    URL,
    Gunicorn,
    assert_projection_equals_rebuild,
    body,
    competition_with_tables,
)

ON_POSTGRES = connection.vendor == "postgresql"


class Served(Gunicorn):
    """``python -m ledger.serve`` against the test database, each thread keeping its
    connection as in production (DATABASE_CONN_MAX_AGE 60)."""

    def env(self) -> dict[str, str]:
        env = super().env()
        env.update(DATABASE_CONN_MAX_AGE="60", WEB_THREADS="6", LEDGER_GC_FREEZE="0")
        # This process's key, so that the sessions it makes are the server's too.
        env["DJANGO_SECRET_KEY"] = settings.SECRET_KEY
        env.pop("CHANNEL_REDIS_URL", None)
        return env

    def start(self) -> None:
        # The port's socket is held by this process from the moment it was chosen (see
        # listening_socket) and handed to the server, so nothing else can take it.
        fd = self.socket.fileno()
        command = [sys.executable, "-m", "ledger.serve", "--fd", str(fd), "--no-access-log"]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=(fd,),
            )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("ledger.serve did not start:\n" + self.log.read_text())
            try:
                if requests.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise RuntimeError("ledger.serve did not answer in 90 s:\n" + self.log.read_text())


@pytest.fixture
def served(transactional_db, tmp_path):
    server = Served(tmp_path)
    yield server
    server.stop()


class Killer(threading.Thread):
    """Terminates one backend of the test database (never the test's own) every 100-500
    ms: whichever the server is using at that moment, mid-query, mid-transaction or kept
    idle for the next request."""

    def __init__(self, spared: set[int]) -> None:
        super().__init__(daemon=True)
        db = connection.settings_dict
        self.dsn = {
            "host": db["HOST"] or "127.0.0.1",
            "port": db["PORT"] or 5432,
            "user": db["USER"],
            "password": db.get("PASSWORD") or None,
            "dbname": db["NAME"],
        }
        self.spared = spared
        self.stopping = threading.Event()
        self.killed = 0

    def run(self) -> None:
        rng = random.Random(3)
        with psycopg.connect(**self.dsn, autocommit=True) as admin:
            while not self.stopping.wait(rng.uniform(0.1, 0.5)):
                pids = [
                    pid
                    for (pid,) in admin.execute(
                        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                        "AND pid <> pg_backend_pid() AND backend_type = 'client backend' "
                        "AND NOT (pid = ANY(%s))",
                        [list(self.spared)],
                    ).fetchall()
                ]
                if pids:
                    victim = rng.choice(pids)
                    row = admin.execute("SELECT pg_terminate_backend(%s)", [victim]).fetchone()
                    self.killed += bool(row and row[0])


def _logged_in(user: Any) -> requests.Session:
    """A browser's session for ``user``, made in the database as a login makes it, with a
    CSRF token of its own."""
    client = Client()
    client.force_login(user)
    session = requests.Session()
    session.cookies.set(
        settings.SESSION_COOKIE_NAME, client.cookies[settings.SESSION_COOKIE_NAME].value
    )
    session.cookies.set(settings.CSRF_COOKIE_NAME, CSRF)
    session.headers["X-CSRFToken"] = CSRF
    return session


CSRF = "k" * 32


@pytest.mark.postgres_only
@pytest.mark.skipif(not ON_POSTGRES, reason="pg_terminate_backend is PostgreSQL's")
def test_connections_killed_under_a_mixed_load_answer_only_2xx_4xx_and_503(people, served):
    league, tables = competition_with_tables(people)
    checked = Competition.objects.create(
        club=people.club,
        name="Coppa confermata",
        slug="confermata",
        game="tarocco",
        confirmation=Competition.Confirmation.SECOND_PERSON,
    )
    checked_tables = [
        services.create_table(
            user=people.users["organiser"],
            competition=checked,
            label=f"C{t}",
            players=[people.extra[(t + k) % 6] for k in range(4)],
        )
        for t in range(4)
    ]
    writer = people.users["scorekeeper"]
    accepted = [
        services.record_result(
            user=writer, table=tables[i % 6], source="summary", record=body(tables, i)["record"]
        )[0]
        for i in range(12)
    ]
    pending = [
        services.record_result(
            user=writer,
            table=checked_tables[i % 4],
            source="summary",
            record=body(checked_tables, i)["record"],
        )[0]
        for i in range(12)
    ]
    keys = {"writer": api_key(writer), "referee": api_key(people.users["referee"])}
    # Made here, before the killer starts: it spares only this thread's connection.
    browsers = [_logged_in(people.users[name]) for name in ("scorekeeper2", "referee")]
    served.start()
    base = served.url

    statuses: Counter[int] = Counter()
    problems: list[str] = []
    lock = threading.Lock()

    def send(what: str, call: Any) -> requests.Response | None:
        """``call`` until it is answered with anything but a 503 (at most 60 times), noting
        every answer; a 503 must carry Retry-After."""
        for _ in range(60):
            try:
                answer = call()
            except requests.ConnectionError as exc:  # the server itself must not drop us
                with lock:
                    problems.append(f"{what}: {exc!r}")
                return None
            with lock:
                statuses[answer.status_code] += 1
                if answer.status_code >= 500 and answer.status_code != 503:
                    problems.append(f"{what}: {answer.status_code} {answer.text[:300]!r}")
                if answer.status_code == 503 and not answer.headers.get("Retry-After"):
                    problems.append(f"{what}: a 503 without Retry-After")
            if answer.status_code != 503:
                return answer
            time.sleep(0.05)
        return None

    def write(n: int) -> None:
        session = requests.Session()
        session.headers["Authorization"] = f"Token {keys['writer']}"
        for i in range(10):
            sent = body(tables, 100 * n + i + 40)
            key = f"w{n}-{i}"
            send(
                "write",
                lambda sent=sent, key=key: session.post(
                    base + URL, json=sent, headers={"Idempotency-Key": key}, timeout=30
                ),
            )

    def read(n: int) -> None:
        session = requests.Session()
        for _ in range(10):
            send("read", lambda: session.get(f"{base}/c/{people.club.slug}/", timeout=30))
            send(
                "read api",
                lambda: session.get(
                    f"{base}/api/v1/results/?competition={league.pk}",
                    headers={"Authorization": f"Token {keys['referee']}"},
                    timeout=30,
                ),
            )

    def confirm(n: int) -> None:
        session = browsers[n]
        for result in pending[n::2]:
            send(
                "confirm",
                lambda result=result: session.post(
                    f"{base}/c/{people.club.slug}/{checked.slug}/r/{result.pk}/confirm/",
                    allow_redirects=False,
                    timeout=30,
                ),
            )

    def referee(n: int) -> None:
        session = requests.Session()
        session.headers["Authorization"] = f"Token {keys['referee']}"
        rng = random.Random(n)
        for result in accepted[n::3][:4]:
            scores = [rng.choice([-30, -10, 10, 30]) for _ in range(3)]
            send(
                "ruling",
                lambda result=result, scores=scores: session.post(
                    base + "/api/v1/referee/rulings",
                    json={
                        "result": result.pk,
                        "kind": "assigned",
                        "scores": [*scores, -sum(scores)],
                    },
                    timeout=30,
                ),
            )

    def run(job: Any) -> None:
        try:
            job()
        except Exception as exc:  # a crash in a thread must fail the test, not vanish
            with lock:
                problems.append(repr(exc))

    own = connection.cursor().connection.info.backend_pid
    killer = Killer(spared={own})
    jobs = (
        [lambda n=n: write(n) for n in range(3)]
        + [lambda n=n: read(n) for n in range(1)]
        + [lambda n=n: confirm(n) for n in range(2)]
        + [lambda n=n: referee(n) for n in range(3)]
    )
    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    killer.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    killer.stopping.set()
    killer.join(timeout=30)
    assert not any(t.is_alive() for t in threads), "a client is stuck"
    served.stop()

    print(f"statuses {dict(sorted(statuses.items()))}, backends terminated {killer.killed}")
    assert problems == [], problems[:10]
    assert killer.killed > 0 and statuses[503] > 0, "no connection was ever lost"
    assert set(statuses) <= {200, 201, 302, 400, 403, 404, 409, 503}, statuses
    # Each result was recorded once, whole, whatever its retries met.
    for n in range(3):
        for i in range(10):
            key = services.sender_key(writer.pk, "summary", f"w{n}-{i}")
            assert Result.objects.filter(idempotency_key=key).count() == 1, (n, i)
    assert Result.objects.filter(competition=checked, status="accepted").count() == 12
    assert_projection_equals_rebuild(league)
    assert_projection_equals_rebuild(checked)
    assert journal.verify_chain(people.club) == []
