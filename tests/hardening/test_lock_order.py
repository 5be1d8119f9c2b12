"""Writers, confirmers and referees at once in one club: no deadlock, no 5xx.

Every write takes its locks in one order (the result rows it changes, the standings rows,
the ratings rows, each set sorted, and last the club's journal head), and a ruling does no
work over the whole club while it holds them; the ratings replay a correction asks for runs
after the commit, computing without locks and writing in the same order. PostgreSQL only:
SQLite's writers take turns for the whole transaction and cannot deadlock.
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from typing import Any

import pytest
from django.db import connection, connections
from django.test import Client
from rest_framework.test import APIClient

from ledger.clubs.journal import journal
from ledger.clubs.models import Competition, Result
from ledger.clubs.results import services
from tests.conftest import api_key
from tests.hardening.reliability import (
    assert_projection_equals_rebuild,
    body,
    competition_with_tables,
)

ON_POSTGRES = connection.vendor == "postgresql"


def deadlocks() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        return int(cursor.fetchone()[0])


@pytest.mark.postgres_only
@pytest.mark.skipif(not ON_POSTGRES, reason="deadlocks only happen on PostgreSQL")
@pytest.mark.usefixtures("transactional_db")
def test_writers_confirmers_and_referees_at_once_meet_no_deadlock_and_no_5xx(people):
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
            user=writer,
            table=tables[i % len(tables)],
            source="summary",
            record=body(tables, i)["record"],
        )[0]
        for i in range(30)
    ]
    pending = [
        services.record_result(
            user=writer,
            table=checked_tables[i % 4],
            source="summary",
            record=body(checked_tables, i)["record"],
        )[0]
        for i in range(24)
    ]
    before = deadlocks()
    statuses: Counter[int] = Counter()
    errors: list[str] = []
    lock = threading.Lock()

    def note(answer: Any, what: str) -> None:
        with lock:
            statuses[answer.status_code] += 1
            if answer.status_code >= 500 or answer.status_code == 409:
                errors.append(f"{what}: {answer.status_code} {answer.content[:200]!r}")

    def run(job: Any) -> None:
        try:
            job()
        except Exception as exc:  # a crash in a thread must fail the test, not vanish
            with lock:
                errors.append(repr(exc))
        finally:
            connections.close_all()

    def write(n: int) -> None:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {keys['writer']}")
        for i in range(12):
            answer = api.post("/api/v1/results/", body(tables, 100 * n + i + 40), format="json")
            note(answer, "write")

    def confirm(n: int) -> None:
        web = Client()
        web.force_login(people.users["scorekeeper2"])
        for result in pending[n::2]:
            answer = web.post(
                f"/c/{people.club.slug}/{checked.slug}/r/{result.pk}/confirm/", follow=False
            )
            note(answer, "confirm")

    def referee(n: int) -> None:
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Token {keys['referee']}")
        rng = random.Random(n)
        for result in accepted[n::3][:6]:
            scores = [rng.choice([-30, -10, 10, 30]) for _ in range(3)]
            answer = api.post(
                "/api/v1/referee/rulings",
                {"result": result.pk, "kind": "assigned", "scores": [*scores, -sum(scores)]},
                format="json",
            )
            note(answer, "ruling")

    keys = {"writer": api_key(writer), "referee": api_key(people.users["referee"])}
    jobs = (
        [lambda n=n: write(n) for n in range(4)]
        + [lambda n=n: confirm(n) for n in range(2)]
        + [lambda n=n: referee(n) for n in range(3)]
    )
    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "a thread is stuck"
    assert errors == []
    assert deadlocks() == before, "PostgreSQL counted a deadlock"
    assert statuses[201] == 4 * 12 + 3 * 6
    assert statuses[302] == 24
    assert Result.objects.filter(competition=checked, status="accepted").count() == 24
    assert_projection_equals_rebuild(league)
    assert_projection_equals_rebuild(checked)
    assert journal.verify_chain(people.club) == []
