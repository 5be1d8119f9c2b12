"""The hub's reads: each member club's last sync, for the federation's page."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from ledger.clubs.models import Club
from ledger.hub.models import ClubToken, Upload


@dataclass(frozen=True)
class Synced:
    """A club's journal as its venue last sent it to the hub."""

    at: datetime | None  # the last upload accepted (None: never)
    length: int  # journal lines the hub holds
    head: str  # their last line's hash
    uploads: int
    tokens: int  # live upload tokens

    @property
    def short_head(self) -> str:
        return self.head[:12]


def syncs(club_ids: Iterable[int]) -> dict[int, Synced]:
    ids = list(club_ids)
    last: dict[int, Upload] = {}
    counts: dict[int, int] = {}
    for upload in Upload.objects.filter(club_id__in=ids).order_by("club_id", "-received_at"):
        last.setdefault(upload.club_id, upload)
        counts[upload.club_id] = counts.get(upload.club_id, 0) + 1
    tokens: dict[int, int] = {}
    for club_id in ClubToken.objects.filter(club_id__in=ids, withdrawn_at=None).values_list(
        "club_id", flat=True
    ):
        tokens[club_id] = tokens.get(club_id, 0) + 1
    found = {}
    for club_id, length, head in Club.objects.filter(pk__in=ids).values_list(
        "pk", "journal_length", "journal_head"
    ):
        latest = last.get(club_id)
        found[club_id] = Synced(
            at=latest.received_at if latest else None,
            length=length,
            head=head,
            uploads=counts.get(club_id, 0),
            tokens=tokens.get(club_id, 0),
        )
    return found
