"""Backups while the service runs, rotation, and the restore drill: the database is lost,
the newest backup comes back, and the club is there with its journal at the same head."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]


KEY = "11" * 32  # a signing key kept apart from the database, as production keeps it


def manage(
    url: str, var: Path, *args: str, ok: bool = True, key: str | None = KEY
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url, "LEDGER_VAR_DIR": str(var)}
    env.pop("LEDGER_SIGNING_KEY_FILE", None)
    env["LEDGER_SIGNING_KEY"] = key or ""
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (done.returncode == 0) == ok, done.stderr
    return done


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> Path:
    where = tmp_path_factory.mktemp("seeded")
    shutil.copy(migrated_sqlite, where / "ledger.sqlite3")
    manage(f"sqlite:///{where / 'ledger.sqlite3'}", where, "seed_demo")
    return where / "ledger.sqlite3"


def head_of(manifest: Path) -> dict[str, int]:
    return json.loads(manifest.read_text())["clubs"]["circolo-pisano"]


def test_the_restore_drill_on_sqlite_brings_the_club_back_from_the_copy(seeded, tmp_path):
    var, backups = tmp_path / "var", tmp_path / "backups"
    var.mkdir()
    shutil.copy(seeded, var / "ledger.sqlite3")
    url = f"sqlite:///{var / 'ledger.sqlite3'}"
    for _ in range(3):
        manage(url, var, "backup", "--dir", str(backups), "--keep", "2")
    kept = sorted(p.name for p in backups.iterdir())
    assert len(kept) == 2
    newest = backups / kept[-1]
    assert sorted(p.name for p in newest.iterdir()) == ["clubs", "ledger.sqlite3", "manifest.json"]
    # Password hashes and secrets are inside: only the owner may read them, wherever copied.
    assert all(
        (p.stat().st_mode & 0o777) == (0o700 if p.is_dir() else 0o600)
        for p in [newest, *newest.rglob("*")]
    )
    shutil.rmtree(var)
    var.mkdir()
    out = manage(url, var, "restore", str(backups)).stdout
    assert "circolo-pisano" in out and "exports" not in out
    assert "72 entries" in manage(url, var, "verify_ledger").stdout
    # Over a database that holds clubs, only with --replace (the old file is kept beside).
    assert "already holds clubs" in manage(url, var, "restore", str(backups), ok=False).stderr
    manage(url, var, "restore", str(backups), "--replace")
    assert any(p.name.startswith("ledger.sqlite3.before-restore-") for p in var.iterdir())


def test_a_development_install_that_lost_var_and_its_key_restores_from_the_exports(
    tmp_path, migrated_sqlite
):
    # `make run`: the development signing key lives in var/, so deleting var/ loses it too.
    var, backups = tmp_path / "var", tmp_path / "backups"
    url = f"sqlite:///{var / 'ledger.sqlite3'}"
    var.mkdir()
    shutil.copy(migrated_sqlite, var / "ledger.sqlite3")  # as `manage.py migrate` leaves it
    manage(url, var, "seed_demo", key=None)
    assert (var / "ledger-signing.key").exists()
    # The install as it was (its database and the key seed_demo made in var/), for later.
    installed = tmp_path / "installed"
    shutil.copytree(var, installed)
    manage(url, var, "backup", "--dir", str(backups), key=None)
    # The old installation's public key, as its checkpoints feed published it.
    (made,) = backups.iterdir()
    public = json.loads((made / "manifest.json").read_text())["public_key"]
    shutil.rmtree(var)
    # The backup is signed with the lost key: it is taken only when the operator names it.
    refused = manage(url, var, "restore", str(backups), ok=False, key=None).stderr
    assert "give the public key of the installation that made it with --public-key" in refused
    out = manage(url, var, "restore", str(backups), "--public-key", public, key=None).stdout
    assert "sealed again with this key" in out and "circolo-pisano" in out
    assert "72 entries" in manage(url, var, "verify_ledger", key=None).stdout
    # Without exports, the copy is refused rather than restored with every seal broken.
    shutil.rmtree(var)
    shutil.rmtree(backups)
    shutil.copytree(installed, var)
    manage(url, var, "backup", "--dir", str(backups), "--no-exports", key=None)
    shutil.rmtree(var)
    done = manage(url, var, "restore", str(backups), ok=False, key=None)
    assert "set LEDGER_SIGNING_KEY" in done.stderr


def test_a_changed_backup_is_not_restored(seeded, tmp_path):
    var, backups = tmp_path / "var", tmp_path / "backups"
    var.mkdir()
    shutil.copy(seeded, var / "ledger.sqlite3")
    url = f"sqlite:///{var / 'ledger.sqlite3'}"
    manage(url, var, "backup", "--dir", str(backups))
    (export,) = (backups).glob("*/clubs/circolo-pisano.jsonl")
    export.write_bytes(export.read_bytes().replace(b"Lucia", b"Lucio"))
    other = tmp_path / "other.sqlite3"
    done = manage(f"sqlite:///{other}", var, "restore", str(backups), "--from-exports", ok=False)
    assert "changed after it was made" in done.stderr


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL run does this")
def test_the_restore_drill_on_postgresql_by_dump_and_by_exports(
    seeded, tmp_path, django_db_blocker
):
    import psycopg

    name = connection.settings_dict["NAME"] + "_backup"
    base = {k: connection.settings_dict[k] for k in ("HOST", "PORT", "USER", "PASSWORD")}
    url = f"postgres://{base['USER']}:{base['PASSWORD'] or ''}@{base['HOST']}:{base['PORT']}/{name}"
    admin = url.rsplit("/", 1)[0].replace("postgres://", "postgresql://") + "/postgres"

    def fresh() -> None:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')

    var, backups = tmp_path / "var", tmp_path / "backups"
    var.mkdir()
    # SQLite's backup, with the clubs' exports, restored into PostgreSQL.
    sqlite_url = f"sqlite:///{seeded}"
    manage(sqlite_url, var, "backup", "--dir", str(backups / "from-sqlite"))
    fresh()
    manage(url, var, "restore", str(backups / "from-sqlite"), "--from-exports")
    assert "72 entries" in manage(url, var, "verify_ledger").stdout
    # PostgreSQL's own backup (pg_dump and the exports) restored into an empty database.
    manage(url, var, "backup", "--dir", str(backups / "pg"))
    (made,) = (backups / "pg").iterdir()
    assert {"ledger.pgdump", "manifest.json", "clubs"} <= {p.name for p in made.iterdir()}
    fresh()
    manage(url, var, "restore", str(backups / "pg"))
    assert "72 entries" in manage(url, var, "verify_ledger").stdout
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
