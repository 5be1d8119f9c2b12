"""Penalties: entries of their own in the journal.

An organiser or a referee gives a player a penalty at any time, with the points it takes
and a reason the player reads on their page. It is journaled as one line of kind
"penalty", chained by hash and sealed like every line, and folded into the standings in
the same transaction. The line names the penalty and no result (its hash and seal read the
empty result as every verifier does); the penalty row keeps the reason. A cancellation
never removes it: a line of kind "cancel" gives the points back, and the penalty keeps who
cancelled it and why.

Penalties count in the standings (their points), in the tiebreaks and the next seating
(through the points the formats read from the journal) and, when the club chooses, in the
ratings: a penalty given at a table lowers the player's score in the last hand that table
recorded before it, when the hands are ranked for the ratings.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs import jobs
from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.models import (
    Club,
    Competition,
    Entry,
    Penalty,
    Player,
    Result,
    Role,
    Round,
    RoundTotal,
    Table,
)
from ledger.clubs.office.entrants import takes_part
from ledger.clubs.office.roles import require_role
from ledger.clubs.projections.projections import project
from ledger.clubs.storage import signing


def parse_points(value: Any) -> Decimal:
    """The points a penalty takes, as typed: a positive number, at most two decimals."""
    try:
        points = Decimal(str(value).strip().replace(",", "."))
    except (InvalidOperation, ValueError):
        raise Invalid(
            _("Give the points the penalty takes, as a number."),
            fields={"points": [_("Give a number, such as 2 or 0.5.")]},
        ) from None
    if not points.is_finite() or points <= 0 or points != points.quantize(Decimal("0.01")):
        raise Invalid(
            _("A penalty takes more than zero points, with at most two decimals."),
            fields={"points": [_("Give a positive number, such as 2 or 0.5.")]},
        )
    if points >= Decimal("100000000"):
        raise Invalid(_("That is too many points."), fields={"points": [_("Too large.")]})
    return points


@transaction.atomic
def give_penalty(
    *,
    user: Any,
    competition: Competition,
    player: Player,
    points: Any,
    reason: str,
    round: Round | None = None,
    table: Table | None = None,
) -> Penalty:
    """Take ``points`` (a positive number) from ``player`` in ``competition``, at once."""
    club = competition.club
    require_role(user, club, Role.REFEREE)
    taken = parse_points(points)
    reason = (reason or "").strip()
    if not reason:
        raise Invalid(
            _("Say why: the player reads the reason on their page."),
            fields={"reason": [_("Required.")]},
        )
    if not takes_part(competition, player):
        raise Invalid(
            _(
                "%(name)s takes no part in %(competition)s: a penalty is given only to its "
                "entrants and to the players of its tables."
            )
            % {"name": player.name, "competition": competition.name},
            fields={"player": [_("Not in this competition.")]},
        )
    if round is not None and round.competition_id != competition.pk:
        raise Invalid(_("That round belongs to another competition."), fields={"round": ["?"]})
    if table is not None:
        if table.competition_id != competition.pk:
            raise Invalid(_("That table belongs to another competition."), fields={"table": ["?"]})
        if not _played_at(table, player):
            raise Invalid(
                _("%(name)s did not sit at table %(table)s.")
                % {"name": player.name, "table": table.label},
                fields={"table": [_("Not this player's table.")]},
            )
        if round is not None and table.round_id is not None and round.pk != table.round_id:
            raise Invalid(
                _("Table %(table)s is not in round %(n)d.")
                % {"table": table.label, "n": round.number},
                fields={"table": [_("Another round's table.")]},
            )
        round = round or table.round
    penalty = Penalty.objects.create(
        club=club,
        competition=competition,
        player=player,
        round=round,
        table=table,
        points=-taken,
        reason=reason[:200],
        given_by=user,
    )
    _journal(penalty, Entry.Kind.PENALTY, penalty.points, user)
    _ratings_follow(penalty)
    return penalty


@transaction.atomic
def carry_score(
    *, user: Any, competition: Competition, player: Player, points: Decimal, came_from: str
) -> Penalty | None:
    """Add the score ``player`` carries over from ``came_from`` (an earlier stage) to
    their standing in ``competition``: one journal line of kind "carry", on the penalties'
    path (cancelled as a penalty is, by a reversing line), at no table, so never in the
    ratings. Nothing is written for a score of zero. The caller checks the organiser."""
    if not points:
        return None
    carried = Penalty.objects.create(
        club=competition.club,
        competition=competition,
        player=player,
        kind=Penalty.Kind.CARRY,
        points=points,
        reason=(_("carried over from %(stage)s") % {"stage": came_from})[:200],
        given_by=user,
    )
    _journal(carried, Entry.Kind.CARRY, carried.points, user)
    return carried


@transaction.atomic
def cancel_penalty(*, user: Any, penalty: Penalty, reason: str = "") -> Penalty:
    """Give a penalty's points back with a reversing line; the penalty stays on record."""
    penalty = Penalty.objects.select_for_update().select_related("club").get(pk=penalty.pk)
    require_role(user, penalty.club, Role.REFEREE)
    if penalty.cancelled_at is not None:
        if penalty.carried:
            raise Conflict(_("This carried score was already cancelled."))
        raise Conflict(_("This penalty was already cancelled."))
    penalty.cancelled_by = user
    penalty.cancelled_at = timezone.now()
    penalty.cancel_reason = (reason or "").strip()[:200]
    penalty.save(update_fields=["cancelled_by", "cancelled_at", "cancel_reason"])
    _journal(penalty, Entry.Kind.CANCEL, -penalty.points, user)
    _ratings_follow(penalty)
    return penalty


def _played_at(table: Table, player: Player) -> bool:
    """The player sits at the table, or a hand of it credited them (before a replacement)."""
    return (
        table.seats.filter(player=player).exists()
        or Entry.objects.filter(table=table, player=player, kind=Entry.Kind.CREDIT).exists()
    )


def _journal(penalty: Penalty, kind: str, points: Decimal, user: Any) -> Entry:
    """Fold the line into the standings, then chain it under the lock on the club's head
    (the order every write takes its locks in). The hash is computed here on every
    database; the line's place of a result is the penalty."""
    now = timezone.now()
    project(
        [
            (
                penalty.competition_id,
                [(0, penalty.player_id, points)],
                kind,
                (),
                RoundTotal.BEFORE_ROUNDS if penalty.carried else penalty.round_id or 0,
            )
        ],
        now,
    )
    club = Club.objects.select_for_update().get(pk=penalty.club_id)
    sequence = club.journal_length + 1
    entry = Entry(
        club_id=club.pk,
        competition_id=penalty.competition_id,
        result=None,
        table_id=penalty.table_id,
        penalty=penalty,
        player_id=penalty.player_id,
        seat=0,
        points=points,
        kind=kind,
        source=Result.Source.MANUAL,
        entered_by=user,
        created_at=now,
        sequence=sequence,
        prev_hash=club.journal_head,
    )
    entry.hash = entry.compute_hash()
    (entry.origin,) = signing.new_origins(1)
    entry.seal_version = signing.SEAL_VERSION
    entry.seal = signing.seal_line(entry)
    entry.save()
    Club.objects.filter(pk=club.pk).update(journal_length=sequence, journal_head=entry.hash)
    return entry


def _ratings_follow(penalty: Penalty) -> None:
    if not (penalty.table_id and penalty.club.penalties_in_ratings):
        return
    club_id, game = penalty.club_id, penalty.competition.game
    transaction.on_commit(lambda: jobs.delay(jobs.RECOMPUTE_RATINGS, club_id, game))
