"""The secrets of a game still being played, sealed: its seed, its deal and its moves.

While a digital game runs, its seed, its deal (every hand and the undealt cards) and its move
log (which holds secret choices: face-down plays, discards, written points) are stored only
sealed: encrypted with AES-256-GCM under a key from the environment, never the database's.
The database, its backups, the club's export, the admin and the logs therefore hold nothing
of them that a club's staff (or anyone reading the database) can read. Only the play service
opens them (ledger/play/services.py), to replay the game; when the game is over (finished or
timed out) they are written back in clear, since the full record is then public evidence.

Keys: ``LEDGER_SEALING_KEYS`` (comma-separated 32-byte keys, hex or base64) or the file
``LEDGER_SEALING_KEY_FILE`` (one key a line). The first key seals; every key listed opens
what it sealed, which is how a key is rotated (docs/operations.md). With neither set, a key is
made on first use in ``var/ledger-sealing.key`` (mode 600) and a warning is logged: a
development default only.

A sealed value is ``s1.<key id>.<nonce and ciphertext, base64url>``. The key id is the first
8 hex digits of the key's SHA-256 (it names the key, never reveals it). Each value is bound to
its place by the associated data ("play-table:<id>", "play-move:<table id>:<step>"), so a
sealed deal or move copied to another table or step does not open.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from ledger.clubs.storage.signing import decode_key

log = logging.getLogger(__name__)

PREFIX = "s1"


class Unreadable(Exception):
    """A sealed value that no configured key opens (another installation's key, a key
    dropped too early, or an edited value)."""


def _development_key() -> str:
    path = Path(settings.VAR_DIR) / "ledger-sealing.key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Exclusive creation: two processes starting together keep one key.
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(os.urandom(32).hex() + "\n")
            log.warning(
                "DEVELOPMENT SEALING KEY: made a new key for the secrets of running games in "
                "%s. Production sets LEDGER_SEALING_KEYS or LEDGER_SEALING_KEY_FILE and keeps "
                "the key away from the database and its backups.",
                path,
            )
    return path.read_text(encoding="ascii")


@functools.cache
def keys() -> tuple[tuple[str, bytes], ...]:
    """(key id, key) for every configured key, the sealing one first."""
    raw = getattr(settings, "LEDGER_SEALING_KEYS", "") or ""
    where = "LEDGER_SEALING_KEYS"
    if not raw:
        named = getattr(settings, "LEDGER_SEALING_KEY_FILE", "") or ""
        if named:
            if not Path(named).exists():
                raise ImproperlyConfigured(f"LEDGER_SEALING_KEY_FILE={named}: no such file")
            raw, where = Path(named).read_text(encoding="ascii"), named
        else:
            raw, where = _development_key(), "var/ledger-sealing.key"
    found = [
        decode_key(item, where) for item in raw.replace(",", "\n").splitlines() if item.strip()
    ]
    if not found:
        raise ImproperlyConfigured(f"{where}: no key")
    return tuple((hashlib.sha256(k).hexdigest()[:8], k) for k in found)


@functools.cache
def _cipher(key: bytes) -> AESGCM:
    return AESGCM(key)


def reset() -> None:
    """Forget the keys read (a test, or a process told that the keys changed)."""
    keys.cache_clear()
    _cipher.cache_clear()


def is_sealed(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(PREFIX + ".")


def key_id(value: str) -> str:
    return value.split(".", 2)[1] if is_sealed(value) else ""


def seal(data: Any, place: str) -> str:
    """``data`` (anything JSON holds) sealed under the first key, bound to ``place``."""
    kid, key = keys()[0]
    nonce = os.urandom(12)
    plain = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    body = nonce + _cipher(key).encrypt(nonce, plain, place.encode())
    return f"{PREFIX}.{kid}.{base64.urlsafe_b64encode(body).decode().rstrip('=')}"


def unseal(value: str, place: str) -> Any:
    """What ``seal(data, place)`` sealed; Unreadable when no configured key opens it."""
    if not is_sealed(value):
        raise Unreadable("not a sealed value")
    _prefix, kid, text = value.split(".", 2)
    try:
        body = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, binascii.Error):
        raise Unreadable("the sealed value is damaged") from None
    for found, key in keys():
        if found != kid:
            continue
        try:
            plain = _cipher(key).decrypt(body[:12], body[12:], place.encode())
        except (InvalidTag, ValueError):
            raise Unreadable(f"the sealed value does not open for {place}") from None
        return json.loads(plain)
    raise Unreadable(f"no configured sealing key has the id {kid}")


def table_place(table_id: int) -> str:
    return f"play-table:{table_id}"


def move_place(table_id: int, step: int) -> str:
    return f"play-move:{table_id}:{step}"


# --- a club brought in from an export --------------------------------------------------
RUNNING = ("waiting", "playing")


def seal_imported_table(row: dict[str, Any], kept: dict[str, Any]) -> None:
    """A game table an import is about to write: a running one whose seed and deal the file
    holds in clear (an export made before running games were sealed) is written sealed, as
    the play service keeps it. ``kept`` remembers the running tables for their moves."""
    if row.get("status") not in RUNNING:
        return
    kept.setdefault("running tables", set()).add(row.get("id"))
    if row.get("sealed") or (row.get("seed") is None and row.get("deal") is None):
        return
    secrets = {"seed": row.get("seed"), "deal": row.get("deal")}
    row["sealed"] = seal(secrets, table_place(int(row["id"])))
    row["seed"] = row["deal"] = None


def seal_imported_move(row: dict[str, Any], kept: dict[str, Any]) -> None:
    """A move an import is about to write: one of a running table, in clear in the file, is
    written sealed (the tables come before their moves in a file)."""
    table_id = row.get("table_id")
    if not isinstance(table_id, int) or table_id not in kept.get("running tables", ()):
        return
    if row.get("sealed"):
        return
    if row.get("action") is None:
        return
    row["sealed"] = seal(row["action"], move_place(table_id, int(row["step"])))
    row["action"] = None
