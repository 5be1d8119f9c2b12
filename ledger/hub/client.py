"""The venue's side of a sync: send the club's journal lines the hub does not hold yet, in
chunks, each a signed upload in the club export's format (transfer.export_lines with
``since``). The hub answers each chunk with its new head; a sync that stops anywhere (the
connection cut, the process killed) starts again from the head the hub reports, and ends as
one that never stopped."""

from __future__ import annotations

import ipaddress
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ledger.clubs.models import Club, Entry
from ledger.clubs.storage import signing
from ledger.clubs.transfer import transfer
from ledger.hub import numbers
from ledger.hub.models import HubLink, SyncRun

CHUNK = 500  # journal lines per upload
UPLOAD_TYPE = "application/vnd.club-ledger.upload"


class SyncError(Exception):
    """A sync that stopped: what the hub or the connection said, in words."""


@dataclass(frozen=True)
class Head:
    length: int
    head: str


class Hub(Protocol):
    def head(self) -> Head: ...

    def send(self, body: bytes) -> Head: ...


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class HttpHub:
    """The hub over HTTPS (plain HTTP only to this machine, or when
    LEDGER_HUB_ALLOW_HTTP is set), with the club's upload token."""

    def __init__(self, url: str, club: str, token: str, timeout: float = 120) -> None:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("https", "http"):
            raise SyncError(_("the hub's address must start with https://"))
        if (
            parts.scheme == "http"
            and not _loopback(parts.hostname or "")
            and not getattr(settings, "LEDGER_HUB_ALLOW_HTTP", False)
        ):
            raise SyncError(
                _("the hub's address must start with https://: the token travels with each upload")
            )
        self.base = url.rstrip("/") + f"/hub/sync/{club}/"
        self.token = token
        self.timeout = timeout

    def _call(self, path: str, body: bytes | None = None) -> Head:
        request = urllib.request.Request(
            self.base + path,
            data=body,
            method="POST" if body is not None else "GET",
            headers={
                "Authorization": f"Bearer {self.token}",
                "Content-Type": UPLOAD_TYPE,
                "Accept": "application/json",
                # The hub's refusals in the words of whoever reads them here.
                "Accept-Language": get_language() or settings.LANGUAGE_CODE,
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                data = json.loads(answer.read())
        except urllib.error.HTTPError as refused:
            try:
                said = json.loads(refused.read()).get("error", "")
            except (ValueError, AttributeError):
                said = ""
            raise SyncError(
                said or _("the hub answered %(code)d") % {"code": refused.code}
            ) from None
        except (urllib.error.URLError, OSError, ValueError) as lost:
            reason = getattr(lost, "reason", lost)
            raise SyncError(
                _("the hub cannot be reached (%(why)s): try again when online") % {"why": reason}
            ) from None
        return Head(int(data["length"]), str(data["head"]))

    def head(self) -> Head:
        return self._call("head/")

    def send(self, body: bytes) -> Head:
        return self._call("upload/", body)


def hub_for(club: Club) -> HttpHub:
    link = HubLink.objects.filter(club=club).first()
    if link is None:
        raise SyncError(_("no hub is set for this club: set its address and token first"))
    token = signing.open_secret(link.token_sealed)
    if not token:
        raise SyncError(
            _("the hub's token cannot be read with this installation's key: enter it again")
        )
    return HttpHub(link.url, club.slug, token)


def set_hub(*, club: Club, url: str, token: str) -> HubLink:
    """Keep the hub's address and token (sealed) for ``club``; an empty token keeps the
    one already kept."""
    link = HubLink.objects.filter(club=club).first() or HubLink(club=club)
    link.url = url.strip()
    if token.strip():
        link.token_sealed = signing.seal_secret(token.strip())
        link.token_hint = token.strip()[:10]
    link.updated_at = timezone.now()
    link.save()
    # From now on this installation numbers its new rows in the club's own block, which no
    # other club's rows at the hub take.
    numbers.number_from(numbers.first_number(club.pk))
    return link


Progress = Callable[[int, int, int, int], None]  # sent, total, chunks sent, chunks


class Source(Protocol):
    """What a sync sends: the club's journal here and its uploads."""

    def end(self) -> Head: ...

    def hash_at(self, length: int) -> str: ...

    def upload(self, since: Head, upto: int, journal_only: bool) -> bytes: ...


class ClubSource:
    """The club in this installation's database."""

    def __init__(self, club: Club) -> None:
        self.club = club

    def end(self) -> Head:
        self.club.refresh_from_db(fields=["journal_length", "journal_head"])
        return Head(self.club.journal_length, self.club.journal_head)

    def hash_at(self, length: int) -> str:
        if not length:
            return ""
        found = Entry.objects.filter(club=self.club, sequence=length).values_list("hash", flat=True)
        return found.first() or ""

    def upload(self, since: Head, upto: int, journal_only: bool) -> bytes:
        return b"".join(
            transfer.export_lines(
                self.club, since=(since.length, since.head), upto=upto, journal_only=journal_only
            )
        )


def push(
    club: Club | Source, hub: Hub, *, chunk: int = CHUNK, progress: Progress | None = None
) -> Head:
    """Send what the hub does not hold yet, chunk by chunk, from the head it reports."""
    source = ClubSource(club) if isinstance(club, Club) else club
    end = source.end().length
    there = hub.head()
    if there.length > end:
        raise SyncError(
            _(
                "the hub holds %(hub)d journal lines of this club and this installation "
                "%(here)d: this is not the installation that sent them"
            )
            % {"hub": there.length, "here": end}
        )
    if source.hash_at(there.length) != there.head:
        raise SyncError(
            _(
                "journal line #%(n)d at the hub is not this installation's line #%(n)d: the "
                "hub holds another history of this club"
            )
            % {"n": there.length}
        )
    start = there.length
    total, chunks = end - start, -(-(end - start) // chunk)
    done = 0
    if progress:
        progress(0, total, 0, chunks)
    while there.length < end:
        # The first chunk carries the club's other rows as they are now (every result,
        # player and table the lines name, up to the end of this sync); the next ones the
        # journal alone.
        body = source.upload(there, min(there.length + chunk, end), done > 0)
        answered = hub.send(body)
        if answered.length <= there.length:
            raise SyncError(_("the hub did not take the lines sent: try again"))
        there = answered
        done += 1
        if progress:
            progress(there.length - start, total, done, chunks)
    return there


def run(sync_run: SyncRun) -> SyncRun:
    """Carry out one sync of the office's button, its progress kept on ``sync_run``."""
    club = sync_run.club

    def kept(sent: int, total: int, done: int, chunks: int) -> None:
        SyncRun.objects.filter(pk=sync_run.pk).update(
            status=SyncRun.Status.RUNNING, sent=sent, total=total, chunks_sent=done, chunks=chunks
        )

    SyncRun.objects.filter(pk=sync_run.pk).update(status=SyncRun.Status.RUNNING)
    try:
        head = push(club, hub_for(club), chunk=settings.LEDGER_HUB_CHUNK_LINES, progress=kept)
    except (SyncError, transfer.Refused) as stopped:
        SyncRun.objects.filter(pk=sync_run.pk).update(
            status=SyncRun.Status.FAILED, message=str(stopped), finished_at=timezone.now()
        )
    else:
        SyncRun.objects.filter(pk=sync_run.pk).update(
            status=SyncRun.Status.DONE,
            hub_length=head.length,
            hub_head=head.head,
            finished_at=timezone.now(),
        )
    sync_run.refresh_from_db()
    return sync_run
