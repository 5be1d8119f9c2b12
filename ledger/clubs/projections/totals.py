"""Each player's totals summed from the journal itself: the credits less the reversals,
with every result's winners decided as when it was written, for a competition, a table, a
penalty, or per round. Below the projections, which
fold the same lines into the Standing rows and the per-round totals and rebuild them from
here, and the standings' reads, which a test holds equal to these."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.db.models import Q

from ledger.clubs import people
from ledger.clubs.models import Competition, Entry, Penalty, Result, RoundTotal
from ledger.clubs.outcomes import COUNTERS, outcomes


@dataclass
class Totals:
    points: Decimal = Decimal(0)
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


def journal_totals(
    competition: Competition,
    up_to_round: int | None = None,
    *,
    after: bool = False,
    since: int | None = None,
    through: int | None = None,
    exact: bool = False,
    outside: bool = False,
) -> dict[int, Totals]:
    """Each player's totals summed from the journal itself (credits less reversals), with
    every result's winners decided as when it was written: the whole journal, the rounds
    up to ``up_to_round`` (with ``exact``, that round alone), or with ``after`` the rest
    (later rounds and tables in no round); with ``outside``, the lines in no round only;
    only the club's journal lines after ``since`` and up to ``through`` if given."""
    entries = Entry.objects.filter(competition=competition)
    if since is not None:
        entries = entries.filter(sequence__gt=since)
    if through is not None:
        entries = entries.filter(sequence__lte=through)
    # A result's line is in its table's round; a penalty's in the round it was given in;
    # a score carried over from an earlier stage counts before the first round.
    carried = Q(penalty__kind=Penalty.Kind.CARRY)
    if outside:
        entries = entries.filter(
            Q(penalty__isnull=True, table__round__isnull=True)
            | Q(penalty__isnull=False, penalty__round__isnull=True)
        ).exclude(carried)
    elif up_to_round is not None:
        if after:
            entries = entries.filter(
                Q(penalty__isnull=True, table__round__isnull=True)
                | Q(penalty__isnull=True, table__round__number__gt=up_to_round)
                | Q(penalty__isnull=False, penalty__round__isnull=True)
                | Q(penalty__round__number__gt=up_to_round)
            ).exclude(carried)
        elif exact:
            entries = entries.filter(
                Q(penalty__isnull=True, table__round__number=up_to_round)
                | Q(penalty__round__number=up_to_round)
            )
        else:
            entries = entries.filter(
                Q(penalty__isnull=True, table__round__number__lte=up_to_round)
                | Q(penalty__round__number__lte=up_to_round)
                | carried
            )
    return _summed(entries)


def journal_totals_of_table(table_id: int) -> dict[int, Totals]:
    """Each player's totals from the result lines of one table (a penalty's line counts in
    its own round, so it stays where it is when the table moves)."""
    return _summed(Entry.objects.filter(table_id=table_id, penalty__isnull=True))


def journal_totals_of_penalty(penalty_id: int) -> dict[int, Totals]:
    """Each player's totals from one penalty's lines (the penalty and its cancellation)."""
    return _summed(Entry.objects.filter(penalty_id=penalty_id))


def _summed(entries: Any) -> dict[int, Totals]:
    lines = list(entries.values_list("player_id", "seat", "points", "kind", "result_id"))
    # The results as a subquery, not a list of ids: a league's journal names hundreds of
    # thousands, more than one statement may carry as parameters.
    decided = {
        pk: outcomes(scores, verdict)
        for pk, scores, verdict in Result.objects.filter(
            pk__in=entries.values("result_id")
        ).values_list("pk", "scores", "verdict")
    }
    # Each line counts for the person its player now is (ledger/clubs/people.py).
    person = people.canonical_ids({line[0] for line in lines})
    totals: dict[int, Totals] = {}
    for player_id, seat, points, kind, result_id in lines:
        t = totals.setdefault(person[player_id], Totals())
        t.points += points
        if kind in Entry.POINTS_ONLY:
            continue  # a penalty or its cancellation: points, no game
        step = 1 if kind == Entry.Kind.CREDIT else -1
        t.played += step
        seat_outcomes = decided[result_id]
        if seat < len(seat_outcomes):
            name = COUNTERS[seat_outcomes[seat]]
            setattr(t, name, getattr(t, name) + step)
    return totals


def round_totals_from_journal(competition: Competition) -> dict[tuple[int, int], Any]:
    """Each (round key, player)'s totals summed from the competition's journal in one pass,
    as the per-round totals should hold them (rows all zero left out): a result's lines
    count in its table's round, a penalty's in the round it was given in (0: none), a
    carried score's before the first round (RoundTotal.BEFORE_ROUNDS)."""

    decided = {
        pk: outcomes(scores, verdict)
        for pk, scores, verdict in Result.objects.filter(competition=competition).values_list(
            "pk", "scores", "verdict"
        )
    }
    keyed: dict[tuple[int, int], Totals] = {}
    lines = list(
        Entry.objects.filter(competition=competition).values_list(
            "player_id",
            "seat",
            "points",
            "kind",
            "result_id",
            "table__round_id",
            "penalty_id",
            "penalty__round_id",
            "penalty__kind",
        )
    )
    # Each line counts for the person its player now is (ledger/clubs/people.py).
    person = people.canonical_ids({line[0] for line in lines})
    for line in lines:
        player_id, seat, points, kind, result_id, table_round, penalty, penalty_round, what = line
        count_round_line(
            keyed,
            person[player_id],
            seat,
            points,
            kind,
            table_round,
            penalty,
            penalty_round,
            what,
            decided.get(result_id, ()),
        )
    return without_zeros(keyed)


def count_round_line(
    keyed: dict[tuple[int, int], Totals],
    person: int,
    seat: int,
    points: Decimal,
    kind: str,
    table_round: int | None,
    penalty_id: int | None,
    penalty_round: int | None,
    penalty_kind: str | None,
    seat_outcomes: Sequence[str],
) -> None:
    """Count one journal line in the per-round totals ``keyed`` (by round key and person):
    ``seat_outcomes``, its result's outcome for each seat. Also what an import counts as it
    proves the journal it wrote (transfer.prove_arrival)."""
    key = (penalty_round if penalty_id is not None else table_round) or 0
    if penalty_kind == Penalty.Kind.CARRY:
        key = RoundTotal.BEFORE_ROUNDS
    t = keyed.get((key, person))
    if t is None:
        t = keyed[(key, person)] = Totals()
    t.points += points
    if kind in Entry.POINTS_ONLY:
        return
    step = 1 if kind == Entry.Kind.CREDIT else -1
    t.played += step
    if seat < len(seat_outcomes):
        name = COUNTERS[seat_outcomes[seat]]
        setattr(t, name, getattr(t, name) + step)


def without_zeros(keyed: dict[tuple[int, int], Totals]) -> dict[tuple[int, int], Totals]:
    """The rows of ``keyed`` that are not all zero (as the per-round totals keep them)."""
    return {k: t for k, t in keyed.items() if t != Totals()}
