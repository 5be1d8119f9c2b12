"""Shared pieces of the reliability tests: a Tarocco competition with tables, the bodies of
distinct results, the comparison of standings with a rebuild from the journal, and a gunicorn
process serving the test database on a free port."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import requests
from django.db import connection

from ledger.clubs.models import Competition, Entry, Result, Standing, Table
from ledger.clubs.projections import projections
from ledger.clubs.results import services
from tests.listening import listening_socket

ROOT = Path(__file__).resolve().parents[2]
URL = "/api/v1/results/"


def competition_with_tables(people: Any, n_tables: int = 6) -> tuple[Competition, list[Table]]:
    competition = Competition.objects.create(
        club=people.club, name="Tarocco d'inverno", slug="inverno", game="tarocco"
    )
    pool = people.extra  # six club members; every table seats four of them
    tables = [
        services.create_table(
            user=people.users["organiser"],
            competition=competition,
            label=f"T{t + 1}",
            players=[pool[(t + k) % len(pool)] for k in range(4)],
        )
        for t in range(n_tables)
    ]
    return competition, tables


def body(tables: list[Table], i: int) -> dict[str, Any]:
    """The i-th distinct result: a solo hand whose points vary with i."""
    return {
        "table": tables[i % len(tables)].pk,
        "source": "summary",
        "record": {"outcome": "solo", "dealer": 3, "declarer": i % 3, "card_points": 20 + i % 80},
    }


def standings_snapshot(competition: Competition) -> dict[int, tuple[str, int]]:
    return {
        s.player_id: (f"{s.points:.2f}", s.played)
        for s in Standing.objects.filter(competition=competition)
    }


def assert_projection_equals_rebuild(competition: Competition) -> None:
    live = standings_snapshot(competition)
    projections.rebuild_standings(competition)
    rebuilt = standings_snapshot(competition)
    assert live == rebuilt
    assert live, "no standings at all"


def assert_no_half_written_result(competition: Competition) -> None:
    """Every accepted result has exactly one credit line per seat, and no line lacks its result."""
    seats = {t.pk: t.seats.count() for t in Table.objects.filter(competition=competition)}
    for result in Result.objects.filter(competition=competition):
        lines = Entry.objects.filter(result=result, kind=Entry.Kind.CREDIT).count()
        assert lines == seats[result.table_id], (result.pk, lines)


class Gunicorn:
    """``gunicorn ledger.wsgi`` on 127.0.0.1 against the database the test uses."""

    def __init__(self, tmp_path: Path, workers: int = 2) -> None:
        self.socket = listening_socket()
        self.port = int(self.socket.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.tmp_path = tmp_path
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = tmp_path / "gunicorn.log"

    def env(self) -> dict[str, str]:
        db = connection.settings_dict
        url = (
            f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        )
        if db.get("PASSWORD"):
            url = url.replace(f"{db['USER']}@", f"{db['USER']}:{db['PASSWORD']}@")
        env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        env.update(
            DATABASE_URL=url,
            DJANGO_SECRET_KEY="hardening-test-only-" + "k" * 40,
            LEDGER_VAR_DIR=str(self.tmp_path),
            DATABASE_CONN_MAX_AGE="0",
        )
        env.pop("CELERY_BROKER_URL", None)
        return env

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "ledger.wsgi",
            "--bind",
            f"fd://{self.socket.fileno()}",
            "--workers",
            str(self.workers),
            "--threads",
            "4",
            "--timeout",
            "60",
        ]
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=(self.socket.fileno(),),
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("gunicorn did not start:\n" + self.log.read_text())
            try:
                if requests.get(self.url + "/healthz", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer in 60 s:\n" + self.log.read_text())

    def kill(self) -> None:
        """SIGKILL the master and every worker at once, as an OOM killer or a pulled plug."""
        assert self.proc is not None
        pids = [self.proc.pid, *self._children()]
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        self.proc.wait(timeout=30)

    def _children(self) -> list[int]:
        """The workers: processes whose parent is the master (read from /proc, no ps)."""
        assert self.proc is not None
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid:
                found.append(int(stat.parent.name))
        return found

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.socket.close()
