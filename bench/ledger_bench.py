"""Ledger benchmarks on PostgreSQL: the standings page against aggregating the journal, and
the API write path against raw psycopg inserting the same rows."""

from __future__ import annotations

import hashlib
import io
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


# The bench league's rounds: the movement column and the views as of a past round read
# the totals after a round.
ROUNDS = 10


def build_league(players: int, entries: int, rounds: int = ROUNDS, slug: str = "bench") -> Any:
    """A club with a league of ``players`` over ``rounds`` rounds (every player at one table
    of each) and ``entries`` journal lines, the rounds' in turn, written with COPY (the
    chain is not rebuilt: reads do not look at it), then the standings projection."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from ledger.clubs.models import Club, Competition, Membership, Player, Round, Seat, Table
    from ledger.clubs.projections import projections

    club = Club.objects.create(name=f"Bench club {slug}", slug=slug, city="Pisa")
    user = get_user_model().objects.filter(username="bench").first()
    if user is None:
        user = get_user_model().objects.create_superuser("bench", "", "bench-pw")
    people = Player.objects.bulk_create([Player(name=f"Player {i:04d}") for i in range(players)])
    Membership.objects.bulk_create([Membership(club=club, player=p) for p in people])
    league = Competition.objects.create(club=club, name="League", slug="league", game="sanmarco")
    per_round = players // 2
    tables = []
    for n in range(1, rounds + 1):
        rnd = Round.objects.create(competition=league, number=n)
        tables += Table.objects.bulk_create(
            [Table(competition=league, round=rnd, label=f"R{n}T{i}") for i in range(per_round)]
        )
    Seat.objects.bulk_create(
        [
            Seat(table=t, index=s, player=people[2 * (i % per_round) + s])
            for i, t in enumerate(tables)
            for s in (0, 1)
        ]
    )
    results = entries // 2

    def table_of(r: int) -> Any:
        # The results of round 1 first, then round 2's, and so on.
        return tables[(r * rounds // results) * per_round + r % per_round]

    with connection.cursor() as cursor:
        raw = cursor.connection
        now = "2026-11-01 20:00:00+00"
        buf = io.StringIO()
        for r in range(results):
            t = table_of(r)
            buf.write(
                f'{club.pk}\t{league.pk}\t{t.pk}\t{{}}\tsummary\taccepted\t["3", "-3"]\t'
                f"{user.pk}\t{now}\t\t\n"
            )
        buf.seek(0)
        with (
            raw.cursor() as c,
            c.copy(
                "COPY clubs_result (club_id, competition_id, table_id, record, source, status,"
                " scores, entered_by_id, entered_at, fingerprint, reason) FROM STDIN"
            ) as copy,
        ):
            copy.write(buf.getvalue())
        cursor.execute("SELECT min(id) FROM clubs_result WHERE competition_id = %s", [league.pk])
        first = cursor.fetchone()[0]
        buf = io.StringIO()
        seq = 0
        h = "0" * 64
        for r in range(results):
            t = table_of(r)
            i = r % per_round
            for s, pts in ((0, "3"), (1, "-3")):
                seq += 1
                buf.write(
                    f"{club.pk}\t{league.pk}\t{first + r}\t{t.pk}\t{people[2 * i + s].pk}\t{s}\t"
                    f"{pts}\tcredit\tsummary\t{user.pk}\t{now}\t{seq}\t{h}\t{h}\n"
                )
        buf.seek(0)
        with (
            raw.cursor() as c,
            c.copy(
                "COPY clubs_entry (club_id, competition_id, result_id, table_id, player_id, seat,"
                " points, kind, source, entered_by_id, created_at, sequence, prev_hash, hash)"
                " FROM STDIN"
            ) as copy,
        ):
            copy.write(buf.getvalue())
        cursor.execute("ANALYZE")
    Club.objects.filter(pk=club.pk).update(journal_length=seq, journal_head=h)
    projections.rebuild_standings(league)
    return league


def standings_page(league: Any, repeats: int) -> dict[str, float]:
    """Server time of the competition page, the variants taking turns request by request:
    warm (its tables served from the cache, as for every visit between two writes), right
    after a write (a result recorded at a table of the last round just before), cold (the
    cache emptied, as after a restart), and with the standings aggregated from the journal
    on every request (no cache at all); then the view as of the round before the last,
    warm."""
    from django.contrib.auth import get_user_model
    from django.core.cache.backends.dummy import DummyCache
    from django.db.models import Count, Q, Sum
    from django.test import Client

    from ledger.clubs.models import Entry
    from ledger.clubs.projections import standings as standings_module
    from ledger.clubs.results import services
    from ledger.web import views

    client = Client()
    url = f"/c/{league.club.slug}/{league.slug}/"
    writer = get_user_model().objects.get(username="bench")
    last_round = list(league.tables.filter(round__number=ROUNDS).order_by("pk"))

    def from_journal(
        competition: Any,
        as_of_round: int | None = None,
        latest: int | None = None,
        head: int | None = None,
        with_pending: bool = False,
    ) -> list[Any]:
        totals = (
            Entry.objects.filter(competition=competition)
            .values("player_id", "player__name")
            .annotate(
                points=Sum("points"),
                credits=Count("id", filter=Q(kind=Entry.Kind.CREDIT)),
                reversals=Count("id", filter=Q(kind=Entry.Kind.REVERSAL)),
            )
        )
        # Points and games played only: counting wins as well would need every result's
        # outcome too, so this is the cheapest journal page, which flatters the journal.
        return standings_module.rank_rows(
            [
                (
                    r["player_id"],
                    r["player__name"],
                    r["points"],
                    r["credits"] - r["reversals"],
                    0,
                    0,
                    0,
                )
                for r in totals
            ],
            standings_module.settings_of(competition),
        )

    original, original_cache = views.standings, views.cache
    no_cache = DummyCache("journal", {})
    writes = 0

    def get(variant: str) -> float:
        nonlocal writes
        if variant == "cold":
            views.cache.clear()
        if variant == "written":
            table = services.table_for_write(last_round[writes % len(last_round)].pk)
            services.record_result(
                user=writer,
                table=table,
                source="summary",
                record={"variant": 3, "points": [[55, 66], [57, 61 + writes % 5]]},
            )
            writes += 1
        if variant == "journal":
            # Every request aggregates the journal, with no cache at all.
            views.standings, views.cache = from_journal, no_cache  # type: ignore[assignment]
        try:
            t0 = time.perf_counter()
            response = client.get(url + (f"?round={ROUNDS - 1}" if variant == "as_of" else ""))
            elapsed = time.perf_counter() - t0
        finally:
            views.standings, views.cache = original, original_cache
        assert response.status_code == 200
        return elapsed

    # The three variants of the ratios, and the page right after a write, take turns
    # request by request, so that a slow spell of this shared machine weighs on all alike.
    variants = ("warm", "written", "cold", "journal")
    for variant in variants:
        get(variant)
    times: dict[str, list[float]] = {v: [] for v in variants}
    for _ in range(repeats):
        for variant in variants:
            if variant == "warm":
                get(variant)  # the page cached again after the cold request
            times[variant].append(get(variant))
    # As of the round before the last, between two writes: its totals counted once, then
    # kept.
    get("as_of")
    as_of = [get("as_of") for _ in range(repeats)]
    warm, written, cold, journal = (statistics.median(times[v]) for v in variants)
    return {
        "standings.rounds": ROUNDS,
        "standings.p50_ms": warm * 1000,
        "standings.after_write_p50_ms": written * 1000,
        "standings.cold_p50_ms": cold * 1000,
        "standings.journal_p50_ms": journal * 1000,
        "standings.speedup_vs_journal": journal / warm,
        "standings.after_write_speedup_vs_journal": journal / written,
        "standings.cold_speedup_vs_journal": journal / cold,
        "standings.as_of_round_p50_ms": statistics.median(as_of) * 1000,
    }


# Requests each client sends before the clock starts.
WARM_UP = 5
# Requests made ready per client and second of the window: more than a client can send.
MOST_PER_SECOND = 250


def rulings(league: Any, repeats: int, small_results: int = 100) -> dict[str, float]:
    """A referee's ruling (a correction with the ruling's scores: the case opened, the
    result superseded, its credits reversed and the new ones written) in the bench league
    and in a club of ``small_results`` results, taking turns ruling by ruling. The ratings
    replay a ruling asks for after its commit is the worker's job and is not timed here."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from ledger.clubs import tasks
    from ledger.clubs.models import Result
    from ledger.referee import services as referee

    small = build_league(20, 2 * small_results, slug="small")
    referee_user = get_user_model().objects.get(username="bench")
    asked: list[str] = []
    enqueue = tasks.enqueue
    tasks.enqueue = lambda task, *args, **kw: asked.append(task.name)  # type: ignore[assignment]

    def spread(competition: Any, n: int) -> list[Any]:
        ids = list(
            Result.objects.filter(competition=competition, status="accepted")
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        step = max(1, len(ids) // n)
        chosen = Result.objects.filter(pk__in=ids[::step][:n])
        return list(chosen.select_related("competition__club"))

    def rule(result: Any) -> float:
        # As POST /api/v1/referee/rulings does it: the case opened and ruled in one commit.
        started = time.perf_counter()
        with transaction.atomic():
            case = referee.open_case(
                user=referee_user, competition=result.competition, result=result
            )
            referee.rule(
                user=referee_user, case=case, kind="assigned", params={"scores": [5, -5]}, note="b"
            )
        return (time.perf_counter() - started) * 1000

    large_ms, small_ms = [], []
    try:
        for big, little in zip(spread(league, repeats), spread(small, repeats), strict=False):
            large_ms.append(rule(big))
            small_ms.append(rule(little))
    finally:
        tasks.enqueue = enqueue  # type: ignore[assignment]
    large_count = Result.objects.filter(competition=league).count()
    p50, small_p50 = statistics.median(large_ms), statistics.median(small_ms)
    return {
        "ruling.large_results": float(large_count),
        "ruling.small_results": float(small_results),
        "ruling.p50_ms": p50,
        "ruling.p99_ms": sorted(large_ms)[int(0.99 * (len(large_ms) - 1))],
        "ruling.small_p50_ms": small_p50,
        "ruling.large_vs_small": p50 / small_p50,
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def web_server(port: int, threads: int, env: dict[str, str]) -> list[str]:
    """The command of the site's own web process (`python -m ledger.serve`, as in the
    Procfile): two worker processes when a Redis for the live tables' channel layer answers
    (CHANNEL_REDIS_URL, else the local one is tried), one otherwise."""
    if os.environ.get("BENCH_SERVER") == "gunicorn":  # for comparison only
        return [
            str(Path(sys.executable).parent / "gunicorn"),
            "ledger.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--threads",
            str(threads),
            "--log-level",
            "warning",
        ]
    env["WEB_THREADS"] = str(threads)
    redis_url = env.get("CHANNEL_REDIS_URL") or local_redis()
    if redis_url:
        env["CHANNEL_REDIS_URL"] = redis_url
    return [
        sys.executable,
        "-m",
        "ledger.serve",
        "--port",
        str(port),
        "--workers",
        os.environ.get("BENCH_WEB_WORKERS", "2"),
        "--log-level",
        "warning",
        "--no-access-log",
    ]


def local_redis(url: str = "redis://127.0.0.1:6379/9") -> str:
    """The local Redis's URL if it answers, else ""."""
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return url if conn.recv(16).startswith(b"+PONG") else ""
    except OSError:
        return ""


def api_writes(
    database_url: str, seconds: float, clients: int = 16, worker_threads: int = 16
) -> dict[str, float]:
    """POST results through the web process (bench/ledger_bench.web_server: 2 workers of
    `worker_threads` threads each) from
    `clients` concurrent clients, each sending one result after another for a window of
    ``seconds``; then raw psycopg inserting and
    committing the same rows (a result and its journal lines) from as many threads for as
    long. The rate is what was answered within the windows: every client sends throughout,
    so it is the rate the server sustains (a fixed number of requests per client would
    measure the clients of the busier worker finishing last, alone)."""
    import psycopg
    from django.contrib.auth import get_user_model

    from ledger.clubs.models import ApiToken, Club, Competition, Membership, Player, Role
    from ledger.clubs.results import services

    club = Club.objects.create(name="Write bench", slug="writes", city="Pisa")
    user = get_user_model().objects.create_superuser("writer", "", "writer-pw")
    # The results are posted by a scorekeeper's token, as at a club: the role is checked.
    keeper = get_user_model().objects.create_user("keeper", "", "keeper-pw")
    Membership.objects.create(
        club=club,
        player=Player.objects.create(name="Keeper", user=keeper),
        role=Role.SCOREKEEPER,
    )
    token = ApiToken.mint(user=keeper, club=None, scope="organiser", name="bench")[1]
    players = [Player.objects.create(name=f"W{i}") for i in range(clients * 4)]
    for p in players:
        Membership.objects.create(club=club, player=p)
    comp = Competition.objects.create(club=club, name="W", slug="w", game="tarocco")
    tables = [
        services.create_table(
            user=user, competition=comp, label=f"W{i}", players=players[4 * i : 4 * i + 4]
        )
        for i in range(clients)
    ]

    def load(window: float) -> tuple[int, list[float]]:
        """Start the server, have every client post results for ``window`` seconds, stop
        it: the results answered within the window and their latencies."""
        port = _free_port()
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DJANGO_DEBUG": "0",
        }
        server = subprocess.Popen(
            web_server(port, worker_threads, env),
            cwd=ROOT,
            env=env,
        )
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            latencies: list[float] = []
            lock = threading.Lock()
            failures: list[str] = []

            # Bodies and keys are made before the clock starts: the figure is the server's.
            requests_of = [
                [
                    (
                        json.dumps(
                            {
                                "table": tables[i].pk,
                                "source": "summary",
                                "record": {
                                    "outcome": "solo",
                                    "dealer": 3,
                                    "declarer": n % 4,
                                    "card_points": 40 + n % 40,
                                },
                            }
                        ),
                        {
                            "Content-Type": "application/json",
                            "Authorization": f"Token {token}",
                            "Idempotency-Key": uuid.uuid4().hex,
                        },
                    )
                    for n in range(WARM_UP + int(MOST_PER_SECOND * window))
                ]
                for i in range(clients)
            ]
            # Every client's first requests open the server's database connections and
            # prepare its statements: they are sent before the clock starts.
            clock: list[float] = []
            warm = threading.Barrier(clients + 1, action=lambda: clock.append(time.perf_counter()))

            def client(i: int) -> None:
                import http.client

                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                mine = []
                end = 0.0
                for n, (body, headers) in enumerate(requests_of[i]):
                    if n == WARM_UP:
                        warm.wait(timeout=120)
                        end = clock[0] + window
                    t0 = time.perf_counter()
                    if n > WARM_UP and t0 >= end:
                        break
                    conn.request("POST", "/api/v1/results/", body=body, headers=headers)
                    response = conn.getresponse()
                    response.read()
                    t1 = time.perf_counter()
                    if n >= WARM_UP and t1 <= end:
                        mine.append(t1 - t0)
                    if response.status != 201:
                        failures.append(str(response.status))
                else:
                    failures.append("a client ran out of prepared requests")
                with lock:
                    latencies.extend(mine)

            threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
            for t in threads:
                t.start()
            warm.wait(timeout=120)
            for t in threads:
                t.join()
            if failures:
                raise RuntimeError(f"{len(failures)} writes failed: {sorted(set(failures))}")
            return len(latencies), latencies
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)

    # Two halves, each with a fresh server, so that one slow spell of this shared machine
    # does not decide the figure alone.
    answered = 0
    latencies: list[float] = []
    for _ in range(2):
        count, seen = load(seconds / 2)
        answered += count
        latencies.extend(seen)

    # The same rows, written by raw psycopg for as long: one result and four journal lines
    # per commit, under the club's lock.
    seats = [list(t.seats.order_by("index").values_list("player_id", flat=True)) for t in tables]
    committed = [0] * clients
    clock: list[float] = []
    ready = threading.Barrier(clients, action=lambda: clock.append(time.perf_counter()))

    def raw_client(i: int) -> None:
        with psycopg.connect(database_url.replace("postgres://", "postgresql://", 1)) as conn:
            ready.wait(timeout=60)
            end = clock[0] + seconds
            while time.perf_counter() < end:
                with conn.transaction(), conn.cursor() as cur:
                    cur.execute(
                        "INSERT INTO clubs_result (club_id, competition_id, table_id, record,"
                        " source, status, scores, entered_by_id, entered_at, fingerprint, reason)"
                        " VALUES (%s,%s,%s,%s,'summary','accepted',%s,%s,now(),'','') RETURNING id",
                        [club.pk, comp.pk, tables[i].pk, "{}", '["3","-1","-1","-1"]', user.pk],
                    )
                    rid = cur.fetchone()[0]
                    cur.execute(
                        "SELECT journal_length FROM clubs_club WHERE id=%s FOR UPDATE", [club.pk]
                    )
                    seq = cur.fetchone()[0]
                    rows = []
                    for s, pts in enumerate(("3", "-1", "-1", "-1")):
                        seq += 1
                        digest = hashlib.sha256(f"{rid}|{s}|{seq}".encode()).hexdigest()
                        rows.append(
                            (
                                club.pk,
                                comp.pk,
                                rid,
                                tables[i].pk,
                                seats[i][s],
                                s,
                                Decimal(pts),
                                "credit",
                                "summary",
                                user.pk,
                                seq,
                                digest,
                                digest,
                            )
                        )
                    cur.executemany(
                        "INSERT INTO clubs_entry (club_id, competition_id, result_id, table_id,"
                        " player_id, seat, points, kind, source, entered_by_id, created_at,"
                        " sequence, prev_hash, hash) VALUES (%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,now(),"
                        "%s,%s,%s)",
                        rows,
                    )
                    cur.execute(
                        "UPDATE clubs_club SET journal_length=%s WHERE id=%s", [seq, club.pk]
                    )
                if time.perf_counter() <= end:
                    committed[i] += 1

    threads = [threading.Thread(target=raw_client, args=(i,)) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    latencies.sort()
    api_rate = answered / seconds
    raw_rate = sum(committed) / seconds
    return {
        "api.results_per_s": api_rate,
        "api.p50_ms": latencies[len(latencies) // 2] * 1000,
        "api.p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000,
        "api.raw_psycopg_per_s": raw_rate,
        "api.vs_raw_psycopg": api_rate / raw_rate,
    }
