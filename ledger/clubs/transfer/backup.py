"""Backups of the whole installation into a folder that keeps the newest N, and their
restore on a new machine.

A backup is a folder named after its time (``20261125T041500Z``) holding a consistent copy
of the database (SQLite's online backup API, which copies while the service writes; on
PostgreSQL a ``pg_dump`` in its custom format), each club's export with secrets as a portable
second copy (always on PostgreSQL, on request on SQLite), and ``manifest.json`` with every
file's size and SHA-256 and each club's journal head. It is written under a ``.partial-``
name and renamed when complete, so a folder with a backup's name is whole.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection

from ledger.clubs.models import Club, entry_hash
from ledger.clubs.storage import signing
from ledger.clubs.transfer import transfer

NAME = re.compile(r"^\d{8}T\d{6}Z(-\d+)?$")
SQLITE_FILE, PG_FILE, MANIFEST = "ledger.sqlite3", "ledger.pgdump", "manifest.json"


class BackupError(Exception):
    pass


def default_folder() -> Path:
    return Path(settings.LEDGER_BACKUP_DIR)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _pg_args() -> tuple[list[str], dict[str, str]]:
    db = connection.settings_dict
    args = ["--dbname", db["NAME"]]
    if db.get("HOST"):
        args += ["--host", str(db["HOST"])]
    if db.get("PORT"):
        args += ["--port", str(db["PORT"])]
    if db.get("USER"):
        args += ["--username", str(db["USER"])]
    env = {**os.environ}
    if db.get("PASSWORD"):
        env["PGPASSWORD"] = str(db["PASSWORD"])
    return args, env


def _sqlite_copy(source: str | Path, target: Path) -> None:
    """SQLite's online backup: a consistent copy even while others write."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst)
        # One self-contained file: the copy leaves write-ahead mode (the service turns it
        # back on when it opens the file).
        dst.execute("PRAGMA journal_mode=DELETE")
        ((verdict,),) = dst.execute("PRAGMA integrity_check").fetchall()
        if verdict != "ok":
            raise BackupError(f"the copy of {source} fails SQLite's integrity check: {verdict}")
    finally:
        src.close()
        dst.close()


def _sqlite_journal_problems(path: Path) -> list[str]:
    """Each club's chain in an SQLite copy, proven the way verify_ledger does it."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    problems: list[str] = []
    try:
        for club_id, slug, length, head in db.execute(
            "SELECT id, slug, journal_length, journal_head FROM clubs_club ORDER BY id"
        ).fetchall():
            h, n = "", 0
            for seq, comp, res, seat, player, points, kind, prev, digest in db.execute(
                "SELECT sequence, competition_id, result_id, seat, player_id, points, kind, "
                "prev_hash, hash FROM clubs_entry WHERE club_id = ? ORDER BY sequence",
                [club_id],
            ):
                n += 1
                again = entry_hash(
                    prev_hash=h,
                    club_id=club_id,
                    competition_id=comp,
                    sequence=seq,
                    result_id=res,
                    seat=seat,
                    player_id=player,
                    points=Decimal(str(points)),
                    kind=kind,
                )
                if seq != n or prev != h or digest != again:
                    problems.append(f"{slug}#{n}: the chain breaks in the copy")
                    break
                h = digest
            if (n, h) != (length, head):
                problems.append(f"{slug}: the copy's journal does not end at its head")
    finally:
        db.close()
    return problems


@dataclass
class Made:
    path: Path
    files: dict[str, int]
    removed: list[Path]


def make_backup(folder: Path | None = None, *, keep: int = 7, exports: bool = True) -> Made:
    folder = folder or default_folder()
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    name, n = stamp, 1
    while (folder / name).exists():
        n += 1
        name = f"{stamp}-{n}"
    partial = folder / f".partial-{name}"
    # The copy holds password hashes and, in the exports, webhook secrets: the owner's only.
    partial.mkdir(mode=0o700)
    try:
        vendor = connection.vendor
        if vendor == "sqlite":
            _sqlite_copy(connection.settings_dict["NAME"], partial / SQLITE_FILE)
            problems = _sqlite_journal_problems(partial / SQLITE_FILE)
            if problems:
                raise BackupError("; ".join(problems))
        elif vendor == "postgresql":
            args, env = _pg_args()
            done = subprocess.run(
                [
                    "pg_dump",
                    "--format=custom",
                    "--no-owner",
                    "--file",
                    str(partial / PG_FILE),
                    *args,
                ],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode != 0:
                raise BackupError(f"pg_dump failed: {done.stderr.strip()}")
        else:
            raise BackupError(f"no backup for a {vendor} database")
        clubs: dict[str, dict[str, Any]] = {}
        if exports:
            (partial / "clubs").mkdir(mode=0o700)
            for club in Club.objects.order_by("pk"):
                with (partial / "clubs" / f"{club.slug}.jsonl").open(
                    "wb", buffering=1 << 20
                ) as out:
                    transfer.write_export(club, out, secrets=True)
        for club in Club.objects.order_by("pk"):
            clubs[club.slug] = {
                "journal_length": club.journal_length,
                "journal_head": club.journal_head,
            }
        files: dict[str, dict[str, Any]] = {
            str(p.relative_to(partial)): {"bytes": p.stat().st_size, "sha256": _sha256(p)}
            for p in sorted(partial.rglob("*"))
            if p.is_file()
        }
        manifest = {
            "made_at": datetime.datetime.now(datetime.UTC).isoformat(),
            "database": vendor,
            # The journal's seals in the copy were made with this key (never in the backup).
            "signing_key": signing.key_id(),
            "public_key": signing.public_key(),
            "files": files,
            "clubs": clubs,
        }
        # Signed: whoever changes a file and writes its digest again here cannot sign.
        manifest["signature"] = signing.sign(manifest_message(manifest))
        (partial / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        for path in partial.rglob("*"):
            path.chmod(0o700 if path.is_dir() else 0o600)
        partial.rename(folder / name)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return Made(
        path=folder / name,
        files={k: v["bytes"] for k, v in files.items()},
        removed=rotate(folder, keep),
    )


def backups(folder: Path) -> list[Path]:
    """The complete backups in a folder, oldest first."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.is_dir() and NAME.match(p.name))


def rotate(folder: Path, keep: int) -> list[Path]:
    """Remove all but the newest ``keep`` backups; the removed ones."""
    old = backups(folder)[: -keep or None] if keep > 0 else []
    for path in old:
        shutil.rmtree(path)
    return old


def choose(where: Path) -> Path:
    """A backup folder itself, or the newest backup inside a folder of backups."""
    if (where / MANIFEST).is_file():
        return where
    found = backups(where)
    if not found:
        raise BackupError(f"no backup in {where}")
    return found[-1]


def manifest_message(manifest: dict[str, Any]) -> bytes:
    """The exact bytes a backup's signature covers: its manifest without the signature, as
    sorted, compact JSON."""
    rest = {k: v for k, v in manifest.items() if k != "signature"}
    body = json.dumps(rest, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return b"club-ledger backup v1\n" + body.encode()


def _check_manifest(
    backup: Path, trusted_key: str | None = None, allow_unsigned: bool = False
) -> dict[str, Any]:
    try:
        manifest: dict[str, Any] = json.loads((backup / MANIFEST).read_text())
    except (OSError, ValueError) as exc:
        raise BackupError(f"{MANIFEST} of the backup {backup.name} cannot be read: {exc}") from None
    key = (trusted_key or signing.public_key()).strip().lower()
    if "signature" not in manifest:
        if not allow_unsigned:
            raise BackupError(
                f"the manifest of the backup {backup.name} is not signed (made before backups "
                "were signed, or its signature was taken off): restore it with "
                "--allow-unsigned only if you trust every hand it went through"
            )
    elif manifest.get("public_key") != key:
        found = str(manifest.get("public_key") or "")
        raise BackupError(
            f"the backup {backup.name} is signed with the key "
            f"{signing.key_id(found) if len(found) == 64 else '?'}, and this installation "
            f"trusts {signing.key_id(key)}: give the public key of the installation that made "
            "it with --public-key (its checkpoints feed publishes it), or set "
            "LEDGER_SIGNING_KEY (or LEDGER_SIGNING_KEY_FILE) to that installation's key"
        )
    elif not signing.verify(manifest_message(manifest), str(manifest["signature"]), key):
        raise BackupError(
            f"the manifest of the backup {backup.name} was changed after the backup was made "
            "(its signature does not hold)"
        )
    for name, facts in manifest["files"].items():
        path = backup / name
        if not path.is_file():
            raise BackupError(f"{name} is missing from the backup {backup.name}")
        if _sha256(path) != facts["sha256"]:
            raise BackupError(f"{name} in the backup {backup.name} changed after it was made")
    return manifest


def _database_is_empty() -> bool:
    tables = connection.introspection.table_names()
    if "clubs_club" not in tables:
        return True
    return not Club.objects.exists()


def restore(
    backup: Path,
    *,
    from_exports: bool = False,
    replace: bool = False,
    notes: list[str] | None = None,
    trusted_key: str | None = None,
    allow_unsigned: bool = False,
) -> list[str]:
    """Bring a backup back into this installation's database; the clubs restored. Their
    journals are proven (verify_ledger: chains, seals, checkpoints) and must end at the heads
    the backup recorded. ``notes`` receives what the operator should know. The manifest
    and every export must be signed with ``trusted_key`` (default: this installation's)."""
    notes = [] if notes is None else notes
    manifest = _check_manifest(backup, trusted_key, allow_unsigned)
    vendor = connection.vendor
    files = manifest["files"]
    exports = sorted(n for n in files if n.startswith("clubs/"))
    sealed_by = manifest.get("signing_key")
    if not from_exports and sealed_by and sealed_by != signing.key_id():
        # The copy's journal lines are sealed with a key this installation does not hold:
        # they would all read as forged. The exports carry no seals; their chains are proven
        # on import and sealed again with this installation's key.
        if not exports:
            raise BackupError(
                f"the backup's journal is sealed with the signing key {sealed_by}, and this "
                f"installation's key is {signing.key_id()}: set LEDGER_SIGNING_KEY (or "
                "LEDGER_SIGNING_KEY_FILE) to the key of the installation that made it"
            )
        notes.append(
            f"The backup's journal was sealed with another signing key ({sealed_by}): the "
            "clubs were imported from their exports and sealed again with this key."
        )
        from_exports = True
    if not from_exports and vendor == "sqlite" and SQLITE_FILE in files:
        _restore_sqlite(backup / SQLITE_FILE, replace)
    elif not from_exports and vendor == "postgresql" and PG_FILE in files:
        _restore_pg(backup / PG_FILE, replace)
    else:
        if not exports:
            raise BackupError(
                f"the backup {backup.name} was made on {manifest['database']} with no club "
                "exports: restore it into the same kind of database"
            )
        call_command("migrate", verbosity=0, interactive=False)
        if not _database_is_empty() and not replace:
            raise BackupError("this database already holds clubs: restore into an empty one")
        for name in exports:
            with (backup / name).open("rb", buffering=1 << 20) as stream:
                transfer.import_club(stream, trusted_key=trusted_key, allow_unsigned=allow_unsigned)
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_ledger", stdout=out, stderr=err)
    except CommandError as exc:
        raise BackupError(f"{exc}: {err.getvalue().strip()}") from exc
    restored = []
    for club in Club.objects.order_by("pk"):
        problems = []
        expected = manifest["clubs"].get(club.slug)
        if expected and (club.journal_length, club.journal_head) != (
            expected["journal_length"],
            expected["journal_head"],
        ):
            problems.append(f"{club.slug}: the journal does not end at the backup's head")
        if problems:
            raise BackupError("; ".join(problems))
        restored.append(club.slug)
    return restored


def _restore_sqlite(copy: Path, replace: bool) -> None:
    target = Path(connection.settings_dict["NAME"])
    connection.close()
    if target.exists() and target.stat().st_size > 0:
        if not _database_is_empty() and not replace:
            raise BackupError(
                f"{target} already holds clubs: move it away first, or restore with --replace "
                "(the current file is kept beside it)"
            )
        connection.close()
        aside = target.with_name(
            f"{target.name}.before-restore-{datetime.datetime.now(datetime.UTC):%Y%m%dT%H%M%SZ}"
        )
        target.rename(aside)
    for suffix in ("-wal", "-shm"):
        stale = target.with_name(target.name + suffix)
        if stale.exists():
            stale.unlink()
    target.parent.mkdir(parents=True, exist_ok=True)
    _sqlite_copy(copy, target)


def _restore_pg(dump: Path, replace: bool) -> None:
    if not _database_is_empty() and not replace:
        raise BackupError("this database already holds clubs: restore into an empty one")
    connection.close()
    args, env = _pg_args()
    command = ["pg_restore", "--no-owner", "--exit-on-error", "--single-transaction", *args]
    if replace or connection.introspection.table_names():
        command.insert(1, "--clean")
        command.insert(2, "--if-exists")
    done = subprocess.run(
        [*command, str(dump)], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise BackupError(f"pg_restore failed: {done.stderr.strip()}")
