"""The projections against the journal: results and standings rows edited behind the service.

The journal is sealed and chained; the result rows and the standings rows are not (they are
updated in place by design). Each is derived from, or must agree with, the journal, so an
edit to one of them shows as a disagreement: a result whose scores, status or seats are not
what its journal lines say, a standings row that is not the sum of its lines.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from ledger.clubs.models import Club, Competition, Entry, Result, RoundTotal, Seat, Standing
from ledger.clubs.projections.totals import journal_totals, round_totals_from_journal

CENT = Decimal("0.01")


def _cents(value: Any) -> Decimal:
    return Decimal(str(value)).quantize(CENT)


def result_problems(club: Club) -> list[str]:
    """Results whose row disagrees with their journal lines."""
    lines: dict[int, dict[str, dict[int, tuple[int, Decimal]]]] = defaultdict(
        lambda: {Entry.Kind.CREDIT: {}, Entry.Kind.REVERSAL: {}}
    )
    # A multiset, not a map: a seat credited (or reversed) twice is a line too many, even
    # when both lines say the same (a replayed line), and is reported, never overwritten.
    repeats: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
    # A penalty's lines (and their cancellations) name no result: the standings' audit
    # counts them.
    journal = Entry.objects.filter(club=club).exclude(kind__in=Entry.POINTS_ONLY)
    for result_id, seat, player_id, points, kind in journal.values_list(
        "result_id", "seat", "player_id", "points", "kind"
    ):
        by_seat = lines[result_id][kind]
        if seat in by_seat:
            repeats[result_id].append((kind, seat, player_id))
        by_seat[seat] = (player_id, _cents(points))
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, index, player_id in Seat.objects.filter(
        table__competition__club=club
    ).values_list("table_id", "index", "player_id"):
        seats[table_id][index] = player_id
    problems = []
    found = Result.objects.filter(club=club).values_list("pk", "status", "scores", "table_id")
    known = set()
    for pk, status, scores, table_id in found.iterator():
        known.add(pk)
        mine = lines.get(pk, {Entry.Kind.CREDIT: {}, Entry.Kind.REVERSAL: {}})
        credits, reversals = mine[Entry.Kind.CREDIT], mine[Entry.Kind.REVERSAL]
        try:
            wanted = {i: (seats[table_id].get(i), _cents(s)) for i, s in enumerate(scores or [])}
        except (ArithmeticError, ValueError, TypeError):
            wanted = None
        say = None
        if repeats.get(pk):
            counted = Counter((kind, seat) for kind, seat, _p in repeats[pk])
            (kind, seat), extra = min(counted.items())
            say = (
                _("seat %(seat)d is credited %(times)d times")
                if kind == Entry.Kind.CREDIT
                else _("seat %(seat)d is reversed %(times)d times")
            ) % {"seat": seat + 1, "times": extra + 1}
        elif status in (Result.Status.PENDING, Result.Status.DISPUTED):
            if credits or reversals:
                say = _("it is not counted, yet the journal credits it")
        elif status == Result.Status.ACCEPTED:
            if reversals:
                say = _("it counts, yet the journal reverses it")
            elif credits and credits != wanted:
                say = _("its scores or seats are not the ones the journal credited")
            elif not credits and (wanted is None or any(p for _x, p in wanted.values())):
                say = _("it counts, yet the journal has no line for it")
        elif status in (Result.Status.SUPERSEDED, Result.Status.VOIDED):
            if credits and credits != wanted:
                say = _("its scores or seats are not the ones the journal credited")
            elif set(credits) != set(reversals) or any(
                reversals[s] != (credits[s][0], -credits[s][1]) for s in reversals
            ):
                say = _("it was replaced, yet the journal does not reverse exactly its credits")
        else:
            say = _("its status is unknown")
        if say:
            problems.append(
                _("%(club)s: result #%(id)d does not match the journal: %(why)s")
                % {"club": club.slug, "id": pk, "why": say}
            )
    for result_id in sorted(set(lines) - known):
        problems.append(
            _("%(club)s: journal lines name result #%(id)d, which is not in the club")
            % {"club": club.slug, "id": result_id}
        )
    return problems


def standing_problems(club: Club) -> list[str]:
    """Standings rows that are not the sum of the journal's lines."""
    problems = []
    for competition in Competition.objects.filter(club=club).order_by("pk"):
        totals = journal_totals(competition)
        rows = {s.player_id: s for s in Standing.objects.filter(competition=competition)}
        for player_id in sorted(set(totals) | set(rows)):
            t, row = totals.get(player_id), rows.get(player_id)
            want = (
                (_cents(t.points), t.played, t.wins, t.draws, t.losses)
                if t
                else (_cents(0), 0, 0, 0, 0)
            )
            have = (
                (_cents(row.points), row.played, row.wins, row.draws, row.losses)
                if row
                else (_cents(0), 0, 0, 0, 0)
            )
            if want != have:
                problems.append(
                    _(
                        "%(club)s/%(comp)s: the standings row of player #%(p)d says %(have)s, "
                        "the journal %(want)s"
                    )
                    % {
                        "club": club.slug,
                        "comp": competition.slug,
                        "p": player_id,
                        "have": _describe(have),
                        "want": _describe(want),
                    }
                )
        problems += _round_total_problems(club, competition)
    return problems


def _round_total_problems(club: Club, competition: Competition) -> list[str]:
    """Per-round totals (the projection "as of round N" and the movement column read)
    that are not the sum of the journal's lines of their round."""
    want = round_totals_from_journal(competition)
    have = {
        (r.round_key, r.player_id): r
        for r in RoundTotal.objects.filter(competition=competition)
        if (r.points, r.played, r.wins, r.draws, r.losses) != (Decimal(0), 0, 0, 0, 0)
    }
    problems = []
    for key in sorted(set(want) | set(have)):
        t, row = want.get(key), have.get(key)
        wanted = (_cents(t.points), t.played, t.wins, t.draws, t.losses) if t else None
        had = (_cents(row.points), row.played, row.wins, row.draws, row.losses) if row else None
        if wanted != had:
            zero = (_cents(0), 0, 0, 0, 0)
            problems.append(
                _(
                    "%(club)s/%(comp)s: the totals of player #%(p)d in one round say "
                    "%(have)s, the journal %(want)s"
                )
                % {
                    "club": club.slug,
                    "comp": competition.slug,
                    "p": key[1],
                    "have": _describe(had or zero),
                    "want": _describe(wanted or zero),
                }
            )
    return problems


def _describe(totals: tuple[Decimal, int, int, int, int]) -> str:
    points, played, wins, draws, losses = totals
    return _("%(pts)s points, %(n)d played (%(w)d-%(d)d-%(l)d)") % {
        "pts": points,
        "n": played,
        "w": wins,
        "d": draws,
        "l": losses,
    }
