"""Small steps the ledger's tests share."""

from __future__ import annotations

from typing import Any

from ledger.clubs.models import Competition, Result
from ledger.clubs.results import services


def use(competition: Competition, mode: str) -> None:
    """Switch the competition's confirmation mode."""
    Competition.objects.filter(pk=competition.pk).update(confirmation=mode)
    competition.refresh_from_db()


def record(people: Any, table: Any, scores: Any, who: str = "scorekeeper") -> Result:
    """Record per-seat scores at a table as one of the people's logins."""
    result, _ = services.record_result(
        user=people.users[who], table=table, source="manual", scores=scores
    )
    return result
