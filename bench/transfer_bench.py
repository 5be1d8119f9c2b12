"""Export and import of a whole club at scale: a league with N journal lines (a real hash
chain, seals, standings and ratings with their history, as the service would hold them) is
built with COPY on a scratch PostgreSQL database, exported with `manage.py export_club`,
and imported with `manage.py import_club` into a second, empty one (which proves the chain,
the head, the standings and the ratings on arrival). Each command runs as an operator runs
it, in its own process.

Runs on its own: `.venv/bin/python bench/transfer_bench.py --lines 50000` prints the figures
as JSON; `bench/run.py` runs it with 1,000,000 lines (`--quick`: 50,000).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# Scratch databases (LEDGER_BENCH_DB_PREFIX: another name, for two benches on one server).
_PREFIX = os.environ.get("LEDGER_BENCH_DB_PREFIX", "ledger_bench")
EXPORT_DB, IMPORT_DB = f"{_PREFIX}_export", f"{_PREFIX}_import"
# Three kinds of hand, in turn: a win each way and a draw.
SCORES = (("3", "-3"), ("-1", "1"), ("0", "0"))


def _urls() -> tuple[str, str, str]:
    base = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    server = base.rsplit("/", 1)[0]
    return (
        base.replace("postgres://", "postgresql://", 1),
        f"{server}/{EXPORT_DB}",
        f"{server}/{IMPORT_DB}",
    )


def _fresh(admin: str, *names: str) -> None:
    import psycopg

    with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
        for name in names:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")


def _drop(admin: str, *names: str) -> None:
    import psycopg

    with psycopg.connect(admin, autocommit=True) as conn:
        for name in names:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _manage(url: str, *args: str) -> float:
    env = {**os.environ, "DATABASE_URL": url, "LEDGER_SIGNING_KEY": "22" * 32}
    env.pop("LEDGER_SIGNING_KEY_FILE", None)
    t0 = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - t0
    # Each step's time as it comes: a long run that fails later keeps what it measured.
    print(f"manage.py {args[0]}: {elapsed:.1f} s", file=sys.stderr, flush=True)
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed: {done.stderr[-2000:]}")
    return elapsed


def _copy(cursor: Any, table: str, columns: str, rows: io.StringIO) -> None:
    rows.seek(0)
    with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        while block := rows.read(1 << 20):
            copy.write(block)


def build_club(lines: int, players: int = 200, rounds: int = 10) -> dict[str, Any]:
    """In the database Django is set up on (run in a child process): the bench club, its
    journal of ``lines`` lines chained and sealed, standings rebuilt from it, and ratings
    with their history replayed from it."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.core.management.color import no_style
    from django.db import connection

    from ledger.clubs.models import (
        Club,
        Competition,
        Entry,
        Membership,
        Player,
        Rating,
        RatingChange,
        Result,
        Round,
        Seat,
        Table,
        entry_hash,
    )
    from ledger.clubs.projections import projections
    from ledger.clubs.storage import signing
    from ledger.clubs.transfer.transfer import RATING_MODEL

    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Bench club", slug="bench", city="Pisa")
    user = get_user_model().objects.create_user("bench", "", "bench-pw")
    people = Player.objects.bulk_create([Player(name=f"Player {i:04d}") for i in range(players)])
    Membership.objects.bulk_create([Membership(club=club, player=p) for p in people])
    league = Competition.objects.create(club=club, name="League", slug="league", game="sanmarco")
    per_round = players // 2
    tables: list[Any] = []
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
    results = lines // 2
    now = "2026-11-01 20:00:00+00"
    results_buf, entries_buf, changes_buf = io.StringIO(), io.StringIO(), io.StringIO()
    head, seq = "", 0
    current: dict[int, list[Any]] = {}
    for r in range(results):
        pk = r + 1
        t = tables[(r * rounds // results) * per_round + r % per_round]
        i = r % per_round
        seated = (people[2 * i].pk, people[2 * i + 1].pk)
        scores = SCORES[r % len(SCORES)]
        results_buf.write(
            f'{pk}\t{club.pk}\t{league.pk}\t{t.pk}\t{{}}\tsummary\taccepted\t["{scores[0]}", '
            f'"{scores[1]}"]\t{user.pk}\t{now}\t\t\n'
        )
        for s, (player, points) in enumerate(zip(seated, scores, strict=True)):
            seq += 1
            digest = entry_hash(
                prev_hash=head,
                club_id=club.pk,
                competition_id=league.pk,
                sequence=seq,
                result_id=pk,
                seat=s,
                player_id=player,
                points=Decimal(points),
                kind="credit",
            )
            seal = signing.seal(
                club_id=club.pk,
                competition_id=league.pk,
                result_id=pk,
                table_id=t.pk,
                seat=s,
                player_id=player,
                points=Decimal(points),
                kind="credit",
            )
            entries_buf.write(
                f"{seq}\t{club.pk}\t{league.pk}\t{pk}\t{t.pk}\t{player}\t{s}\t{points}\tcredit\t"
                f"summary\t{user.pk}\t{now}\t{seq}\t{head}\t{digest}\t{seal}\n"
            )
            head = digest
        # The ratings as the service keeps them: one rated match per result.
        rows = [current.setdefault(p, [RATING_MODEL.mu, RATING_MODEL.sigma, 0]) for p in seated]
        teams = [[RATING_MODEL.create_rating(row[:2])] for row in rows]
        rated = RATING_MODEL.rate(teams, scores=[float(s) for s in scores])
        for player, row, team in zip(seated, rows, rated, strict=True):
            row[0], row[1], row[2] = team[0].mu, team[0].sigma, row[2] + 1
            changes_buf.write(
                f"{club.pk}\tsanmarco\t{player}\t{pk}\t{row[0]!r}\t{row[1]!r}\t{now}\n"
            )
    with connection.cursor() as cursor:
        raw = cursor.connection.cursor()
        _copy(
            raw,
            "clubs_result",
            "id, club_id, competition_id, table_id, record, source, status, scores, "
            "entered_by_id, entered_at, fingerprint, reason",
            results_buf,
        )
        _copy(
            raw,
            "clubs_entry",
            "id, club_id, competition_id, result_id, table_id, player_id, seat, points, kind, "
            "source, entered_by_id, created_at, sequence, prev_hash, hash, seal",
            entries_buf,
        )
        _copy(
            raw,
            "clubs_ratingchange",
            "club_id, game, player_id, result_id, mu, sigma, at",
            changes_buf,
        )
        for sql in connection.ops.sequence_reset_sql(no_style(), [Result, Entry]):
            cursor.execute(sql)
        cursor.execute("ANALYZE")
    Rating.objects.bulk_create(
        [
            Rating(club=club, game="sanmarco", player_id=p, mu=mu, sigma=sigma, results=n)
            for p, (mu, sigma, n) in current.items()
        ]
    )
    Club.objects.filter(pk=club.pk).update(journal_length=seq, journal_head=head)
    projections.rebuild_standings(league)
    return {
        "lines": seq,
        "results": results,
        "rating_changes": RatingChange.objects.count(),
    }


def run(lines: int) -> dict[str, Any]:
    admin, source, target = _urls()
    _fresh(admin, EXPORT_DB, IMPORT_DB)
    try:
        t0 = time.perf_counter()
        built = subprocess.run(
            [sys.executable, __file__, "--build", str(lines)],
            env={
                **os.environ,
                "DATABASE_URL": source,
                "DJANGO_SETTINGS_MODULE": "ledger.settings",
                "LEDGER_SIGNING_KEY": "22" * 32,
            },
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        if built.returncode != 0:
            raise RuntimeError(built.stderr[-2000:])
        facts = json.loads(built.stdout.strip().splitlines()[-1])
        setup = time.perf_counter() - t0
        _manage(target, "migrate", "-v0")
        with tempfile.TemporaryDirectory() as where:
            path = str(Path(where) / "bench.jsonl")
            exported = _manage(source, "export_club", "bench", path, "--with-secrets")
            size = Path(path).stat().st_size
            with open(path, "rb") as handle:
                file_lines = sum(1 for _ in handle)
            imported = _manage(target, "import_club", path)
        verify = _manage(target, "verify_ledger")
    finally:
        _drop(admin, EXPORT_DB, IMPORT_DB)
    n = facts["lines"]
    return {
        "transfer.journal_lines": n,
        "transfer.file_lines": file_lines,
        "transfer.file_mb": size / 1e6,
        "transfer.setup_s": setup,
        "export.seconds": exported,
        "export.lines_per_s": n / exported,
        "import.seconds": imported,
        "import.lines_per_s": n / imported,
        "transfer.verify_ledger_s": verify,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=50_000, help="journal lines of the club")
    parser.add_argument("--build", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if args.build:
        print(json.dumps(build_club(args.build)))
        return
    print(json.dumps(run(args.lines), indent=2))


if __name__ == "__main__":
    main()
