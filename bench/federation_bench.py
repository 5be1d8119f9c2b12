"""A federation at scale, made fast: ``generate`` writes, into the database Django is set up
on, one federation of ``clubs`` member clubs, ``people`` players (a tenth of whom also play
as guests in a second club) and ``lines`` journal lines of two-player results over the last
twelve months: one sanctioned competition a month per club, at a tier in turn, half the
clubs playing San Marco and half cardChess. Every journal line is chained and sealed with
this installation's key as the service writes it (seal version 3), so ``verify_ledger``
holds; the standings and per-round totals are counted as the projections keep them.

On PostgreSQL the big tables are written with COPY, the reference triggers off for the
generator's session (the rows are made consistent here); on SQLite with plain inserts (the
smoke test's size). ``bench/run.py`` measures on it: the ranking pages, a club's month
uploaded, a whole club imported, the rankings rebuilt.

On its own: ``.venv/bin/python bench/federation_bench.py --clubs 10 --people 1000
--lines 50000`` (into the database of DATABASE_URL, which must be migrated and empty).
"""

from __future__ import annotations

import argparse
import datetime
import io
import json
import os
import random
import sys
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SLUG = "bench-federation"
GAMES = ("sanmarco", "cardchess")
# Three kinds of hand, in turn: a win each way and a draw.
SCORES = (("3", "-3"), ("-1", "1"), ("0", "0"))
TIERS = (("Club", "1.00"), ("Provincial", "1.50"), ("Regional", "2.00"), ("National", "3.00"))
MONTHS = 12


def _copy(table: str, columns: str, rows: io.StringIO) -> None:
    from django.db import connection

    rows.seek(0)
    if connection.vendor == "postgresql":
        sql = f"COPY {table} ({columns}) FROM STDIN"
        with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
            while block := rows.read(1 << 20):
                copy.write(block)
        return
    names = [c.strip() for c in columns.split(",")]
    marks = ", ".join(["%s"] * len(names))
    values = [
        [None if v == "\\N" else v for v in line.split("\t")]
        for line in rows.getvalue().splitlines()
    ]
    with connection.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})", values)


def _next_id(model: Any) -> int:
    from django.db.models import Max

    return int(model.objects.aggregate(top=Max("pk"))["top"] or 0) + 1


def _history(
    club: Any,
    game: str,
    field: list[int],
    days: list[datetime.datetime],
    tiers: list[Any],
    c: int,
    user: Any,
    rng: random.Random,
    ids: list[int],
    count: int,
    name: str = "Month",
    slug: str = "month",
) -> int:
    """A club's sanctioned competitions, one a day of ``days``, and ``count`` results over
    them, their journal lines chained on from the club's head and sealed; the standings and
    per-round totals counted. ``ids``: the next result's and journal line's numbers (moved
    on). The number of journal lines written."""
    from ledger.clubs.models import Club, Competition, Round, Seat, Table, entry_hash
    from ledger.clubs.outcomes import COUNTERS, outcomes
    from ledger.clubs.storage import signing
    from ledger.federation.models import Sanction

    seal_of = signing.sealer()
    months = len(days)
    now = days[-1]
    result_id, entry_id = ids
    start = club.journal_length
    competitions = Competition.objects.bulk_create(
        [
            Competition(club=club, name=f"{name} {m + 1}", slug=f"{slug}-{m + 1}", game=game)
            for m in range(months)
        ]
    )
    Sanction.objects.bulk_create(
        [
            Sanction(competition=comp, tier=tiers[(c + m) % len(tiers)], by=user)
            for m, comp in enumerate(competitions)
        ]
    )
    rounds = Round.objects.bulk_create(
        [
            Round(competition=comp, number=1, played_on=days[m].date())
            for m, comp in enumerate(competitions)
        ]
    )
    # Each month the field is drawn in pairs, one table each, played again and again
    # (the tables' seats are the players every result there credits).
    pairs = len(field) // 2
    drawn = []
    for _m in range(months):
        order = field[:]
        rng.shuffle(order)
        drawn.append([(order[2 * t], order[2 * t + 1]) for t in range(pairs)])
    tables = Table.objects.bulk_create(
        [
            Table(competition=comp, round=rnd, label=f"T{t + 1}", totals_round=rnd.pk)
            for comp, rnd in zip(competitions, rounds, strict=True)
            for t in range(pairs)
        ]
    )
    Seat.objects.bulk_create(
        [
            Seat(table=tables[m * pairs + t], index=s, player_id=drawn[m][t][s])
            for m in range(months)
            for t in range(pairs)
            for s in (0, 1)
        ]
    )
    results_buf, entries_buf = io.StringIO(), io.StringIO()
    totals: dict[tuple[int, int], list[Any]] = {}
    seq, head = club.journal_length, club.journal_head
    for r in range(count):
        m = r * months // count
        comp, rnd = competitions[m], rounds[m]
        t = r % pairs
        table = tables[m * pairs + t]
        at = days[m] + datetime.timedelta(minutes=r % (60 * 24 * 28))
        stamp = at.isoformat()
        seated = drawn[m][t]
        scores = SCORES[r % len(SCORES)]
        results_buf.write(
            f"{result_id}\t{club.pk}\t{comp.pk}\t{table.pk}\t{{}}\tsummary\taccepted\t"
            f'["{scores[0]}", "{scores[1]}"]\t{user.pk}\t{stamp}\t\t\n'
        )
        decided = outcomes(list(scores), None)
        for s, (player, points) in enumerate(zip(seated, scores, strict=True)):
            seq += 1
            amount = Decimal(points)
            digest = entry_hash(
                prev_hash=head,
                club_id=club.pk,
                competition_id=comp.pk,
                sequence=seq,
                result_id=result_id,
                seat=s,
                player_id=player,
                points=amount,
                kind="credit",
            )
            seal = seal_of(
                club_id=club.pk,
                competition_id=comp.pk,
                result_id=result_id,
                table_id=table.pk,
                seat=s,
                player_id=player,
                points=amount,
                kind="credit",
                version=signing.SEAL_VERSION,
                sequence=seq,
                prev_hash=head,
            )
            entries_buf.write(
                f"{entry_id}\t{club.pk}\t{comp.pk}\t{result_id}\t{table.pk}\t{player}\t"
                f"{s}\t{points}\tcredit\tsummary\t{user.pk}\t{stamp}\t{seq}\t{head}\t"
                f"{digest}\t{seal}\t\t{signing.SEAL_VERSION}\n"
            )
            entry_id += 1
            head = digest
            row = totals.setdefault((comp.pk, player), [Decimal(0), 0, 0, 0, 0, rnd.pk])
            row[0] += amount
            row[1] += 1
            row[2 + ("wins", "draws", "losses").index(COUNTERS[decided[s]])] += 1
        result_id += 1
    _copy(
        "clubs_result",
        "id, club_id, competition_id, table_id, record, source, status, scores, "
        "entered_by_id, entered_at, fingerprint, reason",
        results_buf,
    )
    _copy(
        "clubs_entry",
        "id, club_id, competition_id, result_id, table_id, player_id, seat, points, "
        "kind, source, entered_by_id, created_at, sequence, prev_hash, hash, seal, "
        "origin, seal_version",
        entries_buf,
    )
    standings_buf, rounds_buf = io.StringIO(), io.StringIO()
    stamp = now.isoformat()
    for (comp_id, player), (points, played, w, d, lost, rnd_id) in totals.items():
        standings_buf.write(
            f"{comp_id}\t{player}\t{points:.2f}\t{played}\t{w}\t{d}\t{lost}\t{stamp}\n"
        )
        rounds_buf.write(
            f"{comp_id}\t{rnd_id}\t{player}\t{points:.2f}\t{played}\t{w}\t{d}\t{lost}\n"
        )
    _copy(
        "clubs_standing",
        "competition_id, player_id, points, played, wins, draws, losses, updated_at",
        standings_buf,
    )
    _copy(
        "clubs_roundtotal",
        "competition_id, round_key, player_id, points, played, wins, draws, losses",
        rounds_buf,
    )
    Club.objects.filter(pk=club.pk).update(journal_length=seq, journal_head=head)
    ids[0], ids[1] = result_id, entry_id
    club.journal_length, club.journal_head = seq, head
    return seq - start


def generate(
    clubs: int = 10, people: int = 1000, lines: int = 50_000, seed: int = 42
) -> dict[str, Any]:
    """Write the federation; its figures (clubs, people, lines, results, seconds)."""
    from django.contrib.auth import get_user_model
    from django.core.management.color import no_style
    from django.db import connection, transaction
    from django.utils import timezone

    from ledger.clubs.models import (
        Club,
        Entry,
        Membership,
        Player,
        Result,
        RoundTotal,
        Standing,
    )
    from ledger.federation.models import Federation, MemberClub, Tier

    started = time.perf_counter()
    rng = random.Random(seed)
    pg = connection.vendor == "postgresql"
    per_club = people // clubs
    results_per_club = max(MONTHS, lines // 2 // clubs)
    now = timezone.now().replace(microsecond=0)
    first_day = now - datetime.timedelta(days=365)
    with transaction.atomic():
        if pg:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL session_replication_role = replica")
        user = get_user_model().objects.create_user("bench-officer", "", "bench-pw")
        federation = Federation.objects.create(name="Bench federation", slug=SLUG, region="Toscana")
        tiers = Tier.objects.bulk_create(
            [Tier(federation=federation, name=n, weight=Decimal(w)) for n, w in TIERS]
        )
        made = Club.objects.bulk_create(
            [
                Club(name=f"Bench club {c:03d}", slug=f"bench-club-{c:03d}", city="Pisa")
                for c in range(clubs)
            ]
        )
        MemberClub.objects.bulk_create(
            [
                MemberClub(
                    federation=federation,
                    club=club,
                    status=MemberClub.Status.APPROVED,
                    applied_by=user,
                    decided_by=user,
                    decided_at=now,
                    province=("PI", "LU", "FI", "LI")[i % 4],
                )
                for i, club in enumerate(made)
            ]
        )
        players = Player.objects.bulk_create(
            [Player(name=f"Bench player {p:05d}") for p in range(per_club * clubs)]
        )
        members = [players[c * per_club : (c + 1) * per_club] for c in range(clubs)]
        Membership.objects.bulk_create(
            [
                Membership(club=club, player=p)
                for club, group in zip(made, members, strict=True)
                for p in group
            ]
        )
        # A tenth of each club's members also play as guests in the next club.
        guests = [members[(c + 1) % clubs][: max(1, per_club // 10)] for c in range(clubs)]
        Membership.objects.bulk_create(
            [
                Membership(club=club, player=p)
                for club, group in zip(made, guests, strict=True)
                for p in group
                if clubs > 1
            ]
        )
        total_lines = total_results = 0
        ids = [_next_id(Result), _next_id(Entry)]
        total_lines = total_results = 0
        for c, club in enumerate(made):
            field = [p.pk for p in members[c]] + ([p.pk for p in guests[c]] if clubs > 1 else [])
            days = [first_day + datetime.timedelta(days=30 * m) for m in range(MONTHS)]
            total_lines += _history(
                club,
                GAMES[c % len(GAMES)],
                field,
                days,
                tiers,
                c,
                user,
                rng,
                ids,
                results_per_club,
            )
            total_results += results_per_club
        if pg:
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL session_replication_role = origin")
                for sql in connection.ops.sequence_reset_sql(
                    no_style(), [Result, Entry, Standing, RoundTotal]
                ):
                    cursor.execute(sql)
    if pg:
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return {
        "clubs": clubs,
        "people": len(players),
        "lines": total_lines,
        "results": total_results,
        "seconds": time.perf_counter() - started,
    }


def _rebuild_piece(piece: tuple[int, str, str]) -> tuple[int, str, str]:
    """One piece of the rankings' rebuild (a federation's game's rating or points), in a
    worker process of its own."""
    from ledger.federation import rankings

    rankings.rebuild(*piece)
    return piece


def rebuild_with_workers(workers: int = 2) -> tuple[float, int]:
    """Every federation ranking rebuilt from the journal by ``workers`` processes sharing
    the pieces, as that many Celery workers share ``rebuild_federation_rankings``' group;
    progress on stderr as each piece ends. Seconds and pieces."""
    import multiprocessing

    from django.db import connections

    from ledger.federation import rankings

    pieces = rankings.units(None)
    connections.close_all()  # each worker opens its own
    started = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for done, piece in enumerate(pool.imap_unordered(_rebuild_piece, pieces), 1):
            print(
                f"rankings rebuilt: {done}/{len(pieces)} ({piece[1]} {piece[2]}, "
                f"{time.perf_counter() - started:.1f} s)",
                file=sys.stderr,
                flush=True,
            )
    return time.perf_counter() - started, len(pieces)


def _p50(samples: list[float]) -> float:
    import statistics

    return statistics.median(samples) * 1000


def ranking_pages(requests: int) -> dict[str, float]:
    """The server time of a ranking page (the first game's rating and points), p50: cold
    (the cache emptied before each request) and warm (as most visitors get it)."""
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    client = Client()
    out: dict[str, float] = {}
    for kind in ("rating", "points"):
        url = reverse("federation-ranking", args=[SLUG, GAMES[0], kind])
        assert client.get(url).status_code == 200, url
        cold, warm = [], []
        for _ in range(requests):
            cache.clear()
            t0 = time.perf_counter()
            answer = client.get(url)
            cold.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            client.get(url)
            warm.append(time.perf_counter() - t0)
            assert answer.status_code == 200
        out[f"federation.ranking_{kind}_cold_p50_ms"] = _p50(cold)
        out[f"federation.ranking_{kind}_warm_p50_ms"] = _p50(warm)
    out["federation.ranking_page_p50_ms"] = max(
        out["federation.ranking_rating_cold_p50_ms"], out["federation.ranking_rating_warm_p50_ms"]
    )
    return out


def upload_month(lines: int = 10_000) -> dict[str, float]:
    """One club's month of ``lines`` journal lines sent to the hub: the month is written as
    the venue writes it and exported as ``sync_to_hub`` sends it (``export_lines`` since the
    hub's head), the month taken away again, and the upload applied with ``extend_club``:
    every line read and checked, its chain from the copy's head, its seals, the file's
    signature, the rows written, the journal read back. Seconds."""
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from ledger.clubs.models import Club, Entry, Membership, Result
    from ledger.clubs.storage import signing
    from ledger.clubs.transfer import transfer
    from ledger.federation.models import Tier

    club = Club.objects.get(slug=f"{SLUG.removesuffix('-federation')}-club-000")
    since = (club.journal_length, club.journal_head)
    field = list(Membership.objects.filter(club=club).values_list("player_id", flat=True))
    user = get_user_model().objects.get(username="bench-officer")
    tiers = list(Tier.objects.filter(federation__slug=SLUG))
    with transaction.atomic():
        ids = [_next_id(Result), _next_id(Entry)]
        _history(
            club,
            GAMES[0],
            field,
            [timezone_now()],
            tiers,
            0,
            user,
            random.Random(7),
            ids,
            lines // 2,
            name="Upload month",
            slug="upload-month",
        )
        data = b"".join(transfer.export_lines(club, since=since))
        transaction.set_rollback(True)
    club = Club.objects.get(pk=club.pk)
    assert (club.journal_length, club.journal_head) == since
    t0 = time.perf_counter()
    done = transfer.extend_club(io.BytesIO(data), club, trusted_key=signing.public_key())
    seconds = time.perf_counter() - t0
    assert done.appended == lines, done.appended
    return {
        "federation.upload_lines": float(done.appended),
        "federation.upload_file_mb": len(data) / 1e6,
        "federation.upload_s": seconds,
    }


def timezone_now() -> datetime.datetime:
    from django.utils import timezone

    return timezone.now().replace(microsecond=0)


def measure(clubs: int, people: int, lines: int, requests: int) -> dict[str, Any]:
    """In the (empty) database Django is set up on: the federation made, its rankings
    rebuilt by two workers, its pages read, a club's month uploaded."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    made = generate(clubs, people, lines)
    out: dict[str, Any] = {
        "federation.clubs": made["clubs"],
        "federation.people": made["people"],
        "federation.journal_lines": made["lines"],
        "federation.results": made["results"],
        "federation.generate_s": made["seconds"],
    }
    print(f"federation generated: {made}", file=sys.stderr, flush=True)
    seconds, pieces = rebuild_with_workers(2)
    out["federation.rebuild_two_workers_s"] = seconds
    out["federation.rebuild_pieces"] = pieces
    out.update(ranking_pages(requests))
    out.update(upload_month())
    return out


def run(quick: bool) -> dict[str, Any]:
    """``measure`` on a scratch PostgreSQL database of its own, in a process of its own."""
    import subprocess

    import psycopg

    base = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    admin = base.replace("postgres://", "postgresql://", 1)
    name = f"{os.environ.get('LEDGER_BENCH_DB_PREFIX', 'ledger_bench')}_federation"
    url = f"{admin.rsplit('/', 1)[0]}/{name}"
    clubs, people, lines, requests = (
        (10, 1000, 50_000, 15) if quick else (300, 30_000, 5_000_000, 40)
    )
    with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_SETTINGS_MODULE": "ledger.settings",
        "DJANGO_ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
        "LEDGER_SIGNING_KEY": "22" * 32,
    }
    env.pop("LEDGER_SIGNING_KEY_FILE", None)
    env.pop("CELERY_BROKER_URL", None)
    try:
        done = subprocess.run(
            [
                sys.executable,
                __file__,
                "--measure",
                f"--clubs={clubs}",
                f"--people={people}",
                f"--lines={lines}",
                f"--requests={requests}",
            ],
            env=env,
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"the federation bench failed ({done.returncode})")
        figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return figures
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clubs", type=int, default=10)
    parser.add_argument("--people", type=int, default=1000)
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--requests", type=int, default=15)
    parser.add_argument("--measure", action="store_true", help="generate, then measure")
    parser.add_argument("--quick", action="store_true", help="run() at bench-quick's size")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.quick:
        print(json.dumps(run(True), indent=2))
        return
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")
    import django

    django.setup()
    if args.measure:
        print(json.dumps(measure(args.clubs, args.people, args.lines, args.requests)))
        return
    print(json.dumps(generate(args.clubs, args.people, args.lines)))


if __name__ == "__main__":
    main()
