"""The results' reads (selectors, as HackSoft's Django styleguide has them): who must
confirm a pending result and who may, the results a person may confirm with one tap, the
players who may sign one off with their PIN, whether a result is sealed until its blind
second entry, which results may be voided, and the penalties that stand, table by table and
player by player. Nothing here writes.

The pages, the API and the rooms above read through these; the writes are in services.py
(results) and penalties.py (penalties), which may use these reads. Imports the club's models
and the confirmers' rules (confirmers.py) alone: never a module of this room that writes
(services, previews, penalties), nor any room above the results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from ledger.clubs.models import Club, Competition, Entry, Penalty, Player, Result, Role, Table
from ledger.clubs.results import confirmers

# The results a referee or an organiser may void: those that count or still may.
VOIDABLE = (Result.Status.PENDING, Result.Status.ACCEPTED, Result.Status.DISPUTED)


def who_confirms(result: Result, *, reveal: bool = True) -> str:
    """Who must confirm a pending result and why, in words for the result page (naming the
    players who may sign it off only with ``reveal``: the names say who lost)."""
    return confirmers.who_confirms(result, reveal=reveal)


def why_not_confirm(user: Any, result: Result) -> str | None:
    """None when ``user`` may confirm the pending ``result``; otherwise the reason, in words
    (the rules the services' confirmations refuse by, confirmers.refusal)."""
    return confirmers.refusal(user, result)


def confirmable(user: Any, competition: Competition) -> Any:
    """The pending results of ``competition`` that ``user`` may confirm with one tap (blind
    re-entry is typed one by one, so none there), oldest first: never one they entered,
    never one of a table they played at, except as the opponent who signs it off."""
    mode = competition.confirmation
    if not getattr(user, "is_authenticated", False) or mode in (
        Competition.Confirmation.NONE,
        Competition.Confirmation.BLIND,
    ):
        return Result.objects.none()
    pending = (
        Result.objects.filter(competition=competition, status=Result.Status.PENDING)
        .exclude(entered_by=user)
        .select_related("table", "entered_by")
        .prefetch_related("table__seats__player")
        .order_by("entered_at", "pk")
    )
    played = set(pending.filter(table__seats__player__user=user).values_list("pk", flat=True))
    signs = set()
    if played and mode == Competition.Confirmation.OPPONENTS:
        signs = {
            r.pk
            for r in Result.objects.filter(pk__in=played).select_related("competition", "club")
            if confirmers.refusal(user, r) is None
        }
    if competition.club.allows(user, Role.SCOREKEEPER):
        return pending.exclude(pk__in=played - signs) if played - signs else pending
    return pending.filter(pk__in=signs)


def pin_signers(result: Result) -> list[Player]:
    """The players seated at a pending result's table who may sign it off with their PIN:
    sign-off at the table, a login and a PIN of their own, and a seat on the side the result
    went against (never the one who entered it, their side, or a player it favours)."""
    if (
        result.status != Result.Status.PENDING
        or result.competition.confirmation != Competition.Confirmation.OPPONENTS
    ):
        return []
    may = confirmers.signoff_seats(result)
    return [
        seat.player
        for seat in result.table.seats.select_related("player").order_by("index")
        if seat.index in may
        and seat.player.user_id
        and seat.player.signoff_pin
        and seat.player.user_id != result.entered_by_id
    ]


def sealed_blind(result: Result) -> bool:
    """A pending result of a competition with blind re-entry: its first entry is sealed to
    everyone but who entered it, referees and organisers included
    (ledger/clubs/office/visibility.py), until the second entry is made or a referee opens
    it (services.open_sealed_result)."""
    return (
        result.status == Result.Status.PENDING
        and result.competition.confirmation == Competition.Confirmation.BLIND
    )


def active_total(
    competition: Competition, up_to_round: int | None = None, *, carried: bool = True
) -> dict[int, Decimal]:
    """Each player's points from penalties (and carried scores) that stand (not
    cancelled); with ``up_to_round``, those given in that round or before; without
    ``carried``, the penalties alone."""
    out: dict[int, Decimal] = defaultdict(Decimal)
    standing = Penalty.objects.filter(competition=competition, cancelled_at__isnull=True)
    if not carried:
        standing = standing.filter(kind=Penalty.Kind.PENALTY)
    if up_to_round is not None:
        # A carried score counts from before the first round.
        standing = standing.filter(Q(round__number__lte=up_to_round) | Q(kind=Penalty.Kind.CARRY))
    for player_id, points in standing.values_list("player_id", "points"):
        out[player_id] += points
    return dict(out)


def zero_sum_check(competition: Competition) -> list[dict[str, Any]]:
    """Per table of the competition: the points its counting hands gave (they sum to zero
    in a zero-sum game), and the penalties given there, so that an organiser sees that a
    table's total differs from zero by its penalties and nothing else."""
    lines = (
        Entry.objects.filter(competition=competition)
        .exclude(penalty__kind=Penalty.Kind.CARRY)
        .values_list("table_id", "penalty_id", "points", "kind")
    )
    hands: dict[int | None, Decimal] = defaultdict(Decimal)
    fines: dict[int | None, Decimal] = defaultdict(Decimal)
    table_id: int | None
    for table_id, penalty_id, points, _kind in lines:
        if penalty_id is not None:
            fines[table_id] += points
        else:
            hands[table_id] += points
    tables = dict(Table.objects.filter(competition=competition).values_list("pk", "label"))
    out = []
    for table_id in sorted(set(hands) | set(fines), key=lambda t: (t is None, t or 0)):
        total = hands.get(table_id, Decimal(0)) + fines.get(table_id, Decimal(0))
        out.append(
            {
                "table": table_id,
                "label": tables.get(table_id, "") if table_id else _("No table"),
                "hands": hands.get(table_id, Decimal(0)),
                "penalties": fines.get(table_id, Decimal(0)),
                "total": total,
                "balanced": hands.get(table_id, Decimal(0)) == 0,
            }
        )
    return out


def for_player(player: Player, club: Club) -> Iterable[Penalty]:
    """The player's penalties (a carried score is no penalty: their journal shows it)."""
    return (
        Penalty.objects.filter(club=club, player=player, kind=Penalty.Kind.PENALTY)
        .select_related("competition", "round", "table")
        .order_by("-given_at", "-id")
    )
