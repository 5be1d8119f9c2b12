"""The service's signing key: Ed25519 signatures on checkpoints, and seals on journal lines.

The key never lives in the database, so whoever can only write to the database cannot sign a
checkpoint or seal a line. It comes from ``LEDGER_SIGNING_KEY`` (the 32-byte private seed,
hex or base64) or from the file ``LEDGER_SIGNING_KEY_FILE`` names. With neither set, a key is
made on first use in ``var/ledger-signing.key`` (mode 600) and a warning is logged: that is a
development default only; production sets its own key, kept apart from the database and its
backups (see docs/security.md).

Two uses of one key:

- A **checkpoint** (a club's journal length and head at a moment) is signed with Ed25519; the
  public key is published, so anyone holding a copy of a checkpoint can check it.
- A **seal** on each journal line is an HMAC-SHA256 under a key derived from the private key,
  over what the line says (club, competition, result, penalty, table, seat, player, points,
  kind) and, since version 2, over its identity (its write, its place in that write, the
  write's number of lines); since version 3, over its place in the journal too (the club,
  the line's number and the previous line's hash). A line written by anything other than
  this service (PostgreSQL's ``ledger_append`` called by hand, say) has no valid seal, and a
  copy of a real line, put anywhere else, has a seal that does not hold there. Only the
  service can check seals.
"""

from __future__ import annotations

import base64
import binascii
import functools
import hashlib
import hmac
import logging
import os
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

log = logging.getLogger(__name__)

ALGORITHM = "Ed25519"


def decode_key(raw: str, where: str, what: str = "key") -> bytes:
    """A 32-byte key written as hex or base64 (a setting or a key file); ``where`` and
    ``what`` name it in the error that says how to make one."""
    text = raw.strip()
    for decode in (bytes.fromhex, base64.b64decode, base64.urlsafe_b64decode):
        try:
            key = decode(text)
        except (ValueError, binascii.Error):
            continue
        if len(key) == 32:
            return key
    raise ImproperlyConfigured(
        f"{where}: expected a 32-byte {what} as 64 hex digits or base64 "
        "(make one with: python -c 'import secrets; print(secrets.token_hex(32))')"
    )


def _decode_seed(raw: str, where: str) -> bytes:
    return decode_key(raw, where, "Ed25519 private key")


def _load_seed() -> bytes:
    raw = getattr(settings, "LEDGER_SIGNING_KEY", "") or ""
    if raw:
        return _decode_seed(raw, "LEDGER_SIGNING_KEY")
    named = getattr(settings, "LEDGER_SIGNING_KEY_FILE", "") or ""
    if named:
        path = Path(named)
        if not path.exists():
            raise ImproperlyConfigured(f"LEDGER_SIGNING_KEY_FILE={named}: no such file")
        return _decode_seed(path.read_text(encoding="ascii"), named)
    path = Path(settings.VAR_DIR) / "ledger-signing.key"
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
                "DEVELOPMENT SIGNING KEY: made a new journal signing key in %s. Production "
                "must set LEDGER_SIGNING_KEY (or LEDGER_SIGNING_KEY_FILE) to a key kept away "
                "from the database; see docs/security.md.",
                path,
            )
    return _decode_seed(path.read_text(encoding="ascii"), str(path))


@functools.cache
def _keys(seed: bytes) -> tuple[Ed25519PrivateKey, bytes, bytes]:
    private = Ed25519PrivateKey.from_private_bytes(seed)
    public = private.public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw
    )
    seal_key = hashlib.sha256(b"club-ledger line seal v1\x00" + seed).digest()
    return private, public, seal_key


_seed_cache: dict[str, bytes] = {}


def _seed() -> bytes:
    # Settings may change in tests; the key is read again when they do.
    marker = f"{getattr(settings, 'LEDGER_SIGNING_KEY', '')}|"
    marker += f"{getattr(settings, 'LEDGER_SIGNING_KEY_FILE', '')}|{settings.VAR_DIR}"
    seed = _seed_cache.get(marker)
    if seed is None:
        seed = _seed_cache[marker] = _load_seed()
    return seed


def public_key() -> str:
    """The public key, 64 hex digits, as the feed publishes it."""
    return _keys(_seed())[1].hex()


def key_id(public_hex: str | None = None) -> str:
    """A short name for a public key: the first 16 hex digits of its SHA-256."""
    raw = bytes.fromhex(public_hex or public_key())
    return hashlib.sha256(raw).hexdigest()[:16]


def checkpoint_message(club_id: int, length: int, head: str, signed_at: str) -> bytes:
    """The exact bytes a checkpoint's signature covers."""
    return (
        f"club-ledger checkpoint v1\nclub {club_id}\nlength {length}\nhead {head}\nat {signed_at}\n"
    ).encode()


def key_voucher_message(club_id: int, public_hex: str) -> bytes:
    """The exact bytes an installation signs to vouch that a club it holds keeps the
    checkpoints of another installation's key (a club brought from there)."""
    return f"club-ledger earlier key v1\nclub {club_id}\nkey {public_hex}\n".encode()


def sign(message: bytes) -> str:
    return _keys(_seed())[0].sign(message).hex()


def verify(message: bytes, signature_hex: str, public_hex: str | None = None) -> bool:
    """True when the signature is the key's (this service's key unless one is given)."""
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex or public_key()))
        key.verify(bytes.fromhex(signature_hex), message)
    except (InvalidSignature, ValueError):
        return False
    return True


SEAL_VERSION = 3


def seal(
    *,
    club_id: int,
    competition_id: int,
    result_id: int | None,
    table_id: int | None,
    seat: int,
    player_id: int,
    points: Decimal,
    kind: str,
    origin: str = "",
    penalty_id: int | None = None,
    version: int = 0,
    sequence: int | None = None,
    prev_hash: str | None = None,
    key: bytes | None = None,
) -> str:
    """The seal of one journal line (HMAC-SHA256, hex).

    Version 3 (what the service writes now) binds the line's place in the journal: its
    club, its number (``sequence``) and the previous line's hash (``prev_hash``), besides
    its identity and what it says; a line copied or moved anywhere else, in its club or
    another, has a seal that does not hold there. ``version`` 0 is a line written before
    (the line's ``seal_version``): version 2 when it has an ``origin`` (its write, its place
    in that write and the write's number of lines, ``new_origins``, and the penalty it
    names), version 1 otherwise (what it says); they keep verifying as they were sealed.
    ``key``: the sealing key, read from the settings when not given (``sealer`` reads it
    once for a loop).
    """
    if key is None:
        key = _keys(_seed())[2]
    shown = f"{Decimal(points):.2f}"
    if version >= 3:
        if sequence is None or prev_hash is None:
            raise ValueError("a seal of version 3 binds the line's number and previous hash")
        message = (
            f"v3|{club_id}|{sequence}|{prev_hash}|{origin}|{competition_id}|{result_id}|"
            f"{penalty_id}|{table_id}|{seat}|{player_id}|{shown}|{kind}"
        )
    elif origin:
        message = (
            f"v2|{club_id}|{origin}|{competition_id}|{result_id}|{penalty_id}|{table_id}|"
            f"{seat}|{player_id}|{shown}|{kind}"
        )
    else:
        message = (
            f"{club_id}|{competition_id}|{result_id}|{table_id}|{seat}|{player_id}|{shown}|{kind}"
        )
    # The one-shot HMAC (OpenSSL's, in C): the same value as hmac.new(...).hexdigest().
    return hmac.digest(key, message.encode(), "sha256").hex()


def sealer() -> Callable[..., str]:
    """``seal`` with the key read once: for a loop over many lines (an import), which would
    otherwise read the settings again for every line. Takes ``seal``'s arguments."""
    return functools.partial(seal, key=_keys(_seed())[2])


def seal_line(line: Any) -> str:
    """The seal of a line (an Entry, or any object with its columns) at its place, in the
    version its ``seal_version`` names."""
    version = line.seal_version
    return seal(
        club_id=line.club_id,
        competition_id=line.competition_id,
        result_id=line.result_id,
        table_id=line.table_id,
        seat=line.seat,
        player_id=line.player_id,
        points=line.points,
        kind=line.kind,
        origin=line.origin,
        penalty_id=line.penalty_id if (version >= 3 or line.origin) else None,
        version=version,
        sequence=line.sequence,
        prev_hash=line.prev_hash,
    )


def seal_is_valid(value: str, **line: Any) -> bool:
    return hmac.compare_digest(value, seal(**line))


def line_seal_holds(line: Any) -> bool:
    """Whether a line's seal is the service's, for what the line says and where it is."""
    return hmac.compare_digest(line.seal, seal_line(line))


def new_origins(count: int) -> list[str]:
    """The identities of the ``count`` lines of one write: ``<write>.<place>.<count>``, where
    ``<write>`` is 80 random bits drawn for this write alone."""
    write = os.urandom(10).hex()
    return [f"{write}.{i}.{count}" for i in range(count)]


def read_origin(origin: str) -> tuple[str, int, int] | None:
    """(write, place, count) of a line's identity; None when it is not one."""
    write, _dot, rest = origin.partition(".")
    place, _dot, count = rest.partition(".")
    if not (write and place.isdigit() and count.isdigit()):
        return None
    return write, int(place), int(count)


def _box_key() -> bytes:
    return hashlib.sha256(b"club-ledger secret box v1\x00" + _seed()).digest()


def seal_secret(text: str) -> str:
    """A secret this installation must keep but never show (a hub's token at a venue),
    encrypted with AES-GCM under a key derived from the signing key: whoever holds only the
    database cannot read it. Hex: a 12-byte nonce, then the ciphertext and its tag."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    nonce = os.urandom(12)
    return (nonce + AESGCM(_box_key()).encrypt(nonce, text.encode(), b"secret")).hex()


def open_secret(sealed: str) -> str:
    """The secret ``seal_secret`` sealed; "" when it cannot be opened (another key)."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    try:
        raw = bytes.fromhex(sealed)
        return AESGCM(_box_key()).decrypt(raw[:12], raw[12:], b"secret").decode()
    except (ValueError, InvalidTag):
        return ""
