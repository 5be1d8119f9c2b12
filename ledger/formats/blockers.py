"""Why the next round of a competition cannot start yet. The results and disputes of the
round in play are the ledger's own facts; an app built on the formats adds its own reasons
when it loads (``add``: the night's check-in), so the formats' pages list them all without
importing that app."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from ledger.clubs.models import Competition, Dispute, Result, Round, Table
from ledger.formats.selectors import current_round, settings_for

Blocker = dict[str, Any]

#: The other apps' reasons, each asked after the ledger's own (see ``add``).
_sources: list[Callable[[Competition], list[Blocker]]] = []


def add(source: Callable[[Competition], list[Blocker]]) -> None:
    """Ask ``source`` too whenever the blockers are read (once, however often added)."""
    if source not in _sources:
        _sources.append(source)


def playing_round(competition: Competition) -> Round | None:
    """The round being played: the latest published one."""
    number = current_round(competition)
    if number is None:
        return None
    return Round.objects.filter(competition=competition, number=number).first()


def blockers(competition: Competition) -> list[Blocker]:
    """Why the next round cannot start yet, in plain words: tables of the round in play
    missing results, results awaiting confirmation, disputes open, and what each app that
    added a source says (the night: players not checked in, once check-in has begun)."""
    out: list[Blocker] = []
    current = playing_round(competition)
    if current is not None:
        hands = settings_for(competition).hands_per_table
        tables = list(Table.objects.filter(round=current).order_by("id"))
        counted: dict[int, int] = {}
        pending: dict[int, int] = {}
        for table_id, status in Result.objects.filter(table__round=current).values_list(
            "table_id", "status"
        ):
            if status == Result.Status.ACCEPTED:
                counted[table_id] = counted.get(table_id, 0) + 1
            elif status == Result.Status.PENDING:
                pending[table_id] = pending.get(table_id, 0) + 1
        short = [t for t in tables if counted.get(t.pk, 0) < hands]
        if short:
            out.append(
                {
                    "code": "results",
                    "message": _("Results missing at: %(tables)s.")
                    % {
                        "tables": ", ".join(
                            f"{t.label} ({counted.get(t.pk, 0)}/{hands})" for t in short
                        )
                    },
                    "tables": short,
                }
            )
        waiting = [t for t in tables if pending.get(t.pk)]
        if waiting:
            out.append(
                {
                    "code": "pending",
                    "message": _("Results awaiting confirmation at: %(tables)s.")
                    % {"tables": ", ".join(t.label for t in waiting)},
                    "tables": waiting,
                }
            )
    disputes = list(
        Dispute.objects.filter(
            result__competition=competition, ruling=Dispute.Ruling.OPEN
        ).select_related("result__table")
    )
    if disputes:
        out.append(
            {
                "code": "dispute",
                "message": _("A dispute is open at: %(tables)s.")
                % {"tables": ", ".join(sorted({d.result.table.label for d in disputes}))},
                "disputes": disputes,
            }
        )
    for source in _sources:
        out.extend(source(competition))
    return out
