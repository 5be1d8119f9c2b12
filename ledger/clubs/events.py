"""What happened, told after the commit: a lower app says that something took place (a round
published, a result waiting for confirmation, a ruling) and the apps above it that care
(ledger/notify) hear it once the transaction that wrote it has committed. Nothing is heard of
a write that rolls back, and no listener runs inside the writer's transaction."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

#: Sent after the commit with ``kind`` (one of the names below) and the event's ids.
happened = Signal()

ROUND_PUBLISHED = "round.published"  # draw=<Draw id>
RESULT_WAITING = "result.waiting"  # result=<Result id>
RESULT_CHANGED = "result.changed"  # result=<Result id>, change="corrected"|"voided"|"contested"
REFEREE_CALL = "referee.call"  # case=<referee case id>, ruled=bool
TABLE_TURN = "table.turn"  # table=<digital table id>, seat=<seat index>, move=<moves so far>
ANNOUNCEMENT = "club.announcement"  # announcement=<id>
RESULT_RECORDED = "result.recorded"  # result=<Result id>, club=<Club id>, competition=<id>
JOURNAL_SYNCED = "journal.synced"  # club=<Club id>, lines=<lines applied>
PEOPLE_MERGED = "people.merged"  # merge=<merge id>, undone=bool


def after_commit(kind: str, **ids: Any) -> None:
    """Tell the listeners about ``kind`` once the current transaction commits (at once
    outside one)."""
    transaction.on_commit(lambda: happened.send(sender=kind, kind=kind, **ids))
