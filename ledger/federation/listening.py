"""The federation hears what happened in its member clubs (ledger/clubs/events.py, after
each commit) and asks a worker to bring its rankings up to date: never in the request."""

from __future__ import annotations

import threading
import time
from typing import Any

from django.db import transaction

from ledger.clubs import events, jobs
from ledger.clubs.models import Result
from ledger.federation.models import Sanction

# The jobs, by name (ledger/federation/tasks.py registers each under its own).
COMPETITION_GREW = "ledger.federation.tasks.competition_grew"
COMPETITION_CHANGED = "ledger.federation.tasks.competition_changed"
CLUB_SYNCED = "ledger.federation.tasks.club_synced"
REBUILD = "ledger.federation.tasks.rebuild"
REBUILD_FEDERATION = "ledger.federation.tasks.rebuild_federation"
REBUILD_ALL = "ledger.federation.tasks.rebuild_all"

#: How long this process trusts its list of sanctioned competitions before reading it again
#: (a result of a competition sanctioned since is missed by this process for at most this
#: long; the sanction's own rebuild, asked for after its commit, counts it anyway).
SANCTIONED_FOR = 10.0

_sanctioned: tuple[float, frozenset[int]] = (0.0, frozenset())
_lock = threading.Lock()


def sanctioned_competitions() -> frozenset[int]:
    """The ids of every sanctioned competition, read at most every few seconds: a result of
    a club outside any federation costs its write no query at all."""
    global _sanctioned
    now = time.monotonic()
    with _lock:
        read_at, ids = _sanctioned
        if now - read_at < SANCTIONED_FOR:
            return ids
    ids = frozenset(Sanction.objects.values_list("competition_id", flat=True))
    with _lock:
        _sanctioned = (now, ids)
    return ids


def forget_sanctions() -> None:
    """A sanction was added or moved: read the list again at the next result."""
    global _sanctioned
    with _lock:
        _sanctioned = (0.0, frozenset())


def heard(sender: Any, kind: str, **ids: Any) -> None:
    if kind == events.RESULT_RECORDED:
        competition = ids.get("competition")
        if competition is not None and int(competition) in sanctioned_competitions():
            jobs.enqueue(COMPETITION_GREW, int(competition))
    elif kind == events.RESULT_CHANGED:
        found = (
            Result.objects.filter(pk=int(ids.get("result") or 0))
            .values_list("competition_id", flat=True)
            .first()
        )
        if found is not None and found in sanctioned_competitions():
            jobs.enqueue(COMPETITION_CHANGED, int(found))
    elif kind == events.JOURNAL_SYNCED:
        jobs.enqueue(CLUB_SYNCED, int(ids["club"]))
    elif kind == events.PEOPLE_MERGED:
        # Which federations the two people played in is the worker's to find: all of them.
        jobs.enqueue(REBUILD_ALL)


def after_commit_rebuild(federation_id: int, game: str | None = None) -> None:
    """A federation's rules, clubs or sanctions changed: rebuild (one game's, or every
    game's) rankings once the change is committed."""

    def ask() -> None:
        forget_sanctions()
        if game is None:
            jobs.enqueue(REBUILD_FEDERATION, federation_id)
        else:
            jobs.enqueue(REBUILD, federation_id, game)

    transaction.on_commit(ask)
