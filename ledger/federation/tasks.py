"""The federation's background jobs: its rankings brought up to date (rankings.py), each
registered under the name ledger/federation/listening.py asks for."""

from __future__ import annotations

from celery import shared_task

from ledger.federation import listening, rankings
from ledger.federation.models import Federation


@shared_task(name=listening.COMPETITION_GREW)
def competition_grew(competition_id: int) -> None:
    """New results in a sanctioned competition: folded where they come last."""
    rankings.competition_grew([competition_id])


@shared_task(name=listening.COMPETITION_CHANGED)
def competition_changed(competition_id: int) -> None:
    """A result corrected, voided or contested: the game's rating replayed."""
    rankings.competition_changed([competition_id])


@shared_task(name=listening.CLUB_SYNCED)
def club_synced(club_id: int) -> None:
    rankings.rebuild_club(club_id)


@shared_task(name=listening.REBUILD)
def rebuild(federation_id: int, game: str, kind: str | None = None) -> int:
    return rankings.rebuild(federation_id, game, kind)


@shared_task(name=listening.REBUILD_FEDERATION)
def rebuild_federation(federation_id: int) -> None:
    rankings.rebuild_federation(federation_id)


@shared_task(name=listening.REBUILD_ALL)
def rebuild_all() -> None:
    for federation_id in Federation.objects.values_list("pk", flat=True):
        rankings.rebuild_federation(federation_id)
