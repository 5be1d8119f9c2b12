"""A venue's installation made once in another process (the demo club on its own SQLite
file, with its own signing key), and the uploads it sends, for the hub (this test
database) to receive."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
VENUE_KEY = "7a" * 32  # the venue's signing seed; the hub (this process) signs with 5e…
CHUNK = 20  # journal lines per upload in these tests

# Run at the venue: every upload a sync of CHUNK lines may send, as files, and what the
# venue holds (its key, its journal's hashes, its standings).
UPLOADS = """
import json, pathlib
from ledger.clubs.models import Club, Entry, Standing
from ledger.clubs.storage import signing
from ledger.clubs.transfer import transfer
out = pathlib.Path(OUT)
club = Club.objects.get(slug="circolo-pisano")
hashes = {0: ""}
hashes.update(Entry.objects.filter(club=club).values_list("sequence", "hash"))
for since in range(0, club.journal_length, CHUNK):
    upto = min(since + CHUNK, club.journal_length)
    for only in (False, True):
        body = b"".join(transfer.export_lines(
            club, since=(since, hashes[since]), upto=upto, journal_only=only))
        (out / f"upload-{since}-{int(only)}.jsonl").write_bytes(body)
standings = sorted(
    [s.competition_id, s.player_id, f"{s.points:.2f}", s.played, s.wins, s.draws, s.losses]
    for s in Standing.objects.filter(competition__club=club))
(out / "venue.json").write_text(json.dumps({
    "key": signing.public_key(), "club": club.pk, "slug": club.slug, "name": club.name,
    "length": club.journal_length, "hashes": hashes, "standings": standings}))
"""


def manage(db_file: Path, *args: str, key: str = VENUE_KEY) -> str:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db_file}",
        "LEDGER_VAR_DIR": str(db_file.parent / "var"),
        "LEDGER_SIGNING_KEY": key,
        "ENGINES_PURE_PYTHON": "1",
    }
    env.pop("LEDGER_SIGNING_KEY_FILE", None)
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    return done.stdout.decode()


@dataclass
class Venue:
    db: Path
    folder: Path
    key: str
    club: int
    slug: str
    name: str
    length: int
    hashes: dict[int, str]
    standings: list[list[Any]]

    def upload(self, since: int, journal_only: bool = False) -> bytes:
        return (self.folder / f"upload-{since}-{int(journal_only)}.jsonl").read_bytes()


@pytest.fixture(scope="session")
def venue(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Venue:
    where = tmp_path_factory.mktemp("venue")
    db = where / "venue.sqlite3"
    shutil.copy(migrated_sqlite, db)
    manage(db, "seed_demo")
    manage(db, "shell", "-c", f"OUT={str(where)!r}\nCHUNK={CHUNK}\n{UPLOADS}")
    held = json.loads((where / "venue.json").read_text())
    return Venue(
        db=db,
        folder=where,
        key=held["key"],
        club=held["club"],
        slug=held["slug"],
        name=held["name"],
        length=held["length"],
        hashes={int(k): v for k, v in held["hashes"].items()},
        standings=held["standings"],
    )
