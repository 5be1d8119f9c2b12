"""The hub's writes: an officer issues a member club's upload token; an upload from the
club's venue is checked and appended to the hub's copy of the club (the same reading as
``import_club``: ledger/clubs/transfer/transfer.extend_club), once (sending it again
changes nothing)."""

from __future__ import annotations

import hashlib
import io
import secrets
from dataclasses import dataclass
from typing import Any

import orjson
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs import events
from ledger.clubs.models import Club
from ledger.clubs.storage import signing
from ledger.clubs.transfer import transfer
from ledger.hub.models import ClubToken, Upload, VenueKey

TOKEN_PREFIX = "hub_"


def digest_of(token: str) -> str:
    return hashlib.sha256(token.strip().encode()).hexdigest()


def issue_token(*, club: Club, user: Any) -> str:
    """A new upload token for ``club``: returned once, kept only as its digest. Its first
    upload registers the venue's signing key (the officer vouches for it by issuing it)."""
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    ClubToken.objects.create(club=club, digest=digest_of(token), hint=token[:10], issued_by=user)
    return token


def withdraw_token(*, token: ClubToken) -> None:
    ClubToken.objects.filter(pk=token.pk, withdrawn_at=None).update(withdrawn_at=timezone.now())


class Denied(Exception):
    """A request the hub does not take from this token: nothing was read or written."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.message, self.status = message, status


def authorise(club_slug: str, token: str) -> tuple[Club, ClubToken]:
    """The club and the token, when the token is a live upload token of that club."""
    found = (
        ClubToken.objects.select_related("club").filter(digest=digest_of(token)).first()
        if token
        else None
    )
    if found is None or found.withdrawn_at is not None:
        raise Denied(
            _(
                "the hub does not know this token, or it was withdrawn: ask the federation's "
                "officer for a new one"
            ),
            401,
        )
    if found.club.slug != club_slug:
        raise Denied(
            _("this token is for the club '%(ours)s' and sends only that club's results")
            % {"ours": found.club.slug}
        )
    return found.club, found


@dataclass(frozen=True)
class Head:
    length: int
    head: str

    def as_json(self) -> dict[str, Any]:
        return {"length": self.length, "head": self.head}


def head_of(club: Club) -> Head:
    club.refresh_from_db(fields=["journal_length", "journal_head"])
    return Head(club.journal_length, club.journal_head)


@dataclass(frozen=True)
class Receipt:
    head: Head
    lines: int  # journal lines appended (0 when the upload was here already)
    again: bool  # the same upload as the last one accepted: nothing changed


def _header(body: bytes) -> dict[str, Any]:
    first = body.split(b"\n", 1)[0]
    try:
        header = orjson.loads(first[: -transfer._CHECK_LEN] + b"}")
    except orjson.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != transfer.FORMAT:
        raise transfer.Refused(_("this is not an upload of a club's journal"), 1)
    return header


def _signing_key(club: Club, token: ClubToken, header: dict[str, Any]) -> str:
    """The key the upload must be signed with: the header's, when the hub knows it for this
    club, or when this is the token's first upload (which registers it)."""
    offered = str(header.get("public_key") or "").lower()
    known = list(VenueKey.objects.filter(club=club).values_list("public_key", flat=True))
    if offered in known:
        return offered
    if token.public_key == "" and len(offered) == 64:
        try:
            key_id = signing.key_id(offered)
        except ValueError:
            pass
        else:
            VenueKey.objects.create(club=club, public_key=offered, key_id=key_id, token=token)
            ClubToken.objects.filter(pk=token.pk).update(public_key=offered)
            return offered
    shown = signing.key_id(offered) if transfer._is_key(offered) else "?"
    raise transfer.Refused(
        _(
            "the upload is signed with the key %(found)s, which the hub does not know for this "
            "club (it knows %(known)s): a new key (a new venue laptop) is registered by the "
            "first upload with a new token from the federation's officer"
        )
        % {
            "found": shown,
            "known": ", ".join(signing.key_id(k) for k in known) or _("none yet"),
        },
        1,
    )


def receive(club: Club, token: ClubToken, body: bytes) -> Receipt:
    """Check an upload and append it to the hub's copy of ``club``, all or nothing.
    ``transfer.Refused`` names the line that stopped it."""
    digest = hashlib.sha256(body).hexdigest()
    with transaction.atomic():
        # One upload of a club at a time: the second waits, then finds the head moved.
        club = Club.objects.select_for_update().get(pk=club.pk)
        last = Upload.objects.filter(club=club).order_by("-length", "-received_at").first()
        if last is not None and last.digest == digest:
            return Receipt(head=head_of(club), lines=0, again=True)
        header = _header(body)
        key = _signing_key(club, token, header)
        imported = transfer.extend_club(io.BytesIO(body), club, trusted_key=key)
        Upload.objects.create(
            club=club,
            digest=digest,
            since=imported.journal_length - imported.appended,
            length=imported.journal_length,
            head=imported.club.journal_head,
            lines=imported.appended,
            key_id=signing.key_id(key),
        )
        ClubToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
        events.after_commit(events.JOURNAL_SYNCED, club=club.pk, lines=imported.appended)
        return Receipt(
            head=Head(imported.journal_length, imported.club.journal_head),
            lines=imported.appended,
            again=False,
        )
