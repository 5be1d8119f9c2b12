"""Who a player now is: one person may have been entered twice (two clubs, or a pasted name
typed without its accent) and merged since by an officer. The journal keeps naming the
player each line was written for; every reader that counts a person (the standings, the
ratings, a player's page, the federation's rankings) maps the ids it reads through
``canonical_ids`` first, so both players' lines count as the surviving person's, and as two
people's again once the merge is undone. Reads only: the merges are written by
``ledger/clubs/merges.py``."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from ledger.clubs.models import Merge
from ledger.clubs.storage import rows

_TABLE = Merge._meta.db_table
# Above this many ids, every standing merge is read at once rather than by id.
_BY_ID_LIMIT = 500


def _standing() -> QuerySet[Merge]:
    """The merges in force: merge lines no undo line names."""
    return Merge.objects.filter(act=Merge.Act.MERGE, undoing__isnull=True)


def merged_into(ids: Iterable[int] | None = None) -> dict[int, int]:
    """``{merged player's id: the player they were merged into}`` for the merges in force,
    one step each (the one merged into may have been merged again since): of these ids and
    of those they lead to, or of every player when ``ids`` is None."""
    if ids is None:
        return dict(_standing().values_list("merged_id", "into_id"))
    found: dict[int, int] = {}
    frontier = {int(i) for i in ids}
    while frontier:
        if len(frontier) > _BY_ID_LIMIT:
            return merged_into(None)
        # Plain SQL: every write that credits players asks this, and nearly always hears
        # nothing back.
        marks = ", ".join(["%s"] * len(frontier))
        step = {
            int(merged): int(into)
            for merged, into in rows.run(
                f"SELECT m.merged_id, m.into_id FROM {_TABLE} m WHERE m.act = 'merge' "
                f"AND m.merged_id IN ({marks}) AND NOT EXISTS "
                f"(SELECT 1 FROM {_TABLE} u WHERE u.undoes_id = m.id)",
                sorted(frontier),
            )
        }
        found.update(step)
        frontier = {into for into in step.values() if into not in found}
    return found


def resolve(pid: int, steps: dict[int, int]) -> int:
    """The person ``pid`` now is, following ``steps`` (from ``merged_into``)."""
    seen = {pid}
    while pid in steps:
        pid = steps[pid]
        if pid in seen:  # never written (a merge into one's own duplicate is refused)
            break
        seen.add(pid)
    return pid


def canonical_ids(ids: Iterable[int]) -> dict[int, int]:
    """Each of ``ids`` -> the id of the person that player now is: the surviving player of
    the merges in force, followed to its end; an unmerged player's own id. Every given id is
    a key. One query per step of a chain (usually one in all)."""
    wanted = [int(i) for i in ids]
    steps = merged_into(wanted)
    return {pid: resolve(pid, steps) for pid in wanted}


def canonical(player_id: int) -> int:
    """The id of the person this player now is (their own id unless merged)."""
    return canonical_ids([player_id])[int(player_id)]


def same_person_ids(player_id: int) -> list[int]:
    """Every player id that now counts as the person ``player_id`` is: the surviving one
    first, then those merged into them (directly or through another merge), ascending."""
    head = canonical(player_id)
    found, frontier = [head], {head}
    while frontier:
        nxt = set(_standing().filter(into_id__in=frontier).values_list("merged_id", flat=True))
        nxt -= set(found)
        found.extend(nxt)
        frontier = nxt
    return [head, *sorted(found[1:])]


def is_merged(player_id: int) -> bool:
    """Whether this player was merged into someone else (and not undone)."""
    return _standing().filter(merged_id=player_id).exists()
