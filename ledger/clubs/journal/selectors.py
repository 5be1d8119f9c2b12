"""The journal's reads (selectors, as HackSoft's Django styleguide has them): a club's
latest signed checkpoint, its public feed of checkpoints, what a webhook carries of one, and
the keys of the installations a club was brought from. Nothing here writes or signs.

The pages, the API, the webhooks and the verifying command read through these; signing
(checkpoints.py) and appending lines (journal.py) use them too. Imports the club's models and
the signing key's public half (ledger/clubs/storage/signing.py) alone: never a module that
writes (journal, checkpoints), nor any room above the journal.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from ledger.clubs.models import Checkpoint, Club
from ledger.clubs.storage import signing


def latest(club_id: int) -> Checkpoint | None:
    """The club's newest checkpoint (None: none signed yet)."""
    return Checkpoint.objects.filter(club_id=club_id).order_by("-length").first()


def as_json(checkpoint: Checkpoint) -> dict[str, Any]:
    """A checkpoint as its feed and the webhooks publish it."""
    return {
        "length": checkpoint.length,
        "head": checkpoint.head,
        "signed_at": checkpoint.signed_at_text,
        "reason": checkpoint.reason,
        "round": checkpoint.round_id,
        "key_id": checkpoint.key_id,
        "signature": checkpoint.signature,
    }


def feed(club: Club, limit: int | None = None) -> dict[str, Any]:
    """The club's public feed: every checkpoint, newest first, with the public key and the
    exact message each signature covers."""
    found = Checkpoint.objects.filter(club=club).order_by("-length")
    if limit is not None:
        found = found[:limit]
    return {
        "club": club.slug,
        "club_id": club.pk,
        "algorithm": signing.ALGORITHM,
        "public_key": signing.public_key(),
        "key_id": signing.key_id(),
        # The keys of the installations the club was brought from: a checkpoint whose
        # key_id is one of theirs was signed there, with that key.
        "earlier_keys": [
            {"key_id": key_id, "public_key": public}
            for key_id, public in sorted(earlier_keys(club)[0].items())
        ],
        "message": "club-ledger checkpoint v1\\nclub {club_id}\\nlength {length}\\n"
        "head {head}\\nat {signed_at}\\n",
        "checkpoints": [as_json(c) for c in found],
    }


def summary(checkpoint: Checkpoint | None) -> dict[str, Any] | None:
    """What a webhook carries: the latest checkpoint, enough to check it alone."""
    if checkpoint is None:
        return None
    public = signing.public_key()
    if checkpoint.key_id != signing.key_id(public):
        club = Club.objects.only("pk", "earlier_keys").get(pk=checkpoint.club_id)
        public = earlier_keys(club)[0].get(checkpoint.key_id, public)
    return {**as_json(checkpoint), "club": checkpoint.club_id, "public_key": public}


def _is_key(text: str) -> bool:
    try:
        return len(bytes.fromhex(text)) == 32
    except ValueError:
        return False


def earlier_keys(club: Club, vouched_by: str | None = None) -> tuple[dict[str, str], list[str]]:
    """The public keys of the installations the club was brought from (key id → key), as
    vouched for by this installation (or by ``vouched_by``); and what is wrong with the
    list (a key whose voucher does not hold was changed in the database, and is left out)."""
    keys: dict[str, str] = {}
    problems = []
    kept = club.earlier_keys if isinstance(club.earlier_keys, list) else [None]
    for item in kept:
        public = str(item.get("public_key", "")).lower() if isinstance(item, dict) else ""
        voucher = str(item.get("voucher", "")) if isinstance(item, dict) else ""
        message = signing.key_voucher_message(club.pk, public)
        if _is_key(public) and signing.verify(message, voucher, vouched_by):
            keys[signing.key_id(public)] = public
        else:
            problems.append(
                _(
                    "%(club)s: a key kept for the checkpoints signed where the club was before "
                    "is not vouched for by this installation (it was changed in the database)"
                )
                % {"club": club.slug}
            )
    return keys, problems
