"""A night's logistics: check-in, the round clock, replacements and re-seating. Every write
is one transaction and checks the role; results and their journal lines are written by
ledger.clubs.results.services only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from django.core import signing
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.clubs import jobs
from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.models import (
    Competition,
    Entry,
    Membership,
    Player,
    Result,
    Role,
    Round,
    Seat,
    Table,
)
from ledger.clubs.office.roles import require_role
from ledger.clubs.results import previews
from ledger.clubs.results import services as core
from ledger.formats import selectors
from ledger.formats import services as formats
from ledger.formats.models import Absence, Draw, Entrant
from ledger.night.models import CheckIn, ExtraTime, NightSettings, Replacement, RoundClock


def settings_for(competition: Competition) -> NightSettings:
    found, _created = NightSettings.objects.get_or_create(competition=competition)
    return found


@transaction.atomic
def update_settings(
    *,
    user: Any,
    competition: Competition,
    round_minutes: Any,
    at_time: str,
    substitute_points: str,
    substitute_fixed: Any,
    penalties_in_ratings: bool | None = None,
) -> NightSettings:
    require_role(user, competition.club, Role.ORGANISER)
    found = NightSettings.objects.select_for_update().get(pk=settings_for(competition).pk)
    errors: dict[str, list[str]] = {}
    try:
        minutes = int(str(round_minutes).strip())
        if not 1 <= minutes <= 600:
            raise ValueError
    except ValueError:
        errors["round_minutes"] = [_("Give the minutes, from 1 to 600.")]
        minutes = found.round_minutes
    if at_time not in NightSettings.AtTime.values:
        errors["at_time"] = [_("Choose one of the options.")]
    if substitute_points not in NightSettings.SubstitutePoints.values:
        errors["substitute_points"] = [_("Choose one of the options.")]
    try:
        fixed = Decimal(str(substitute_fixed or "0").strip().replace(",", "."))
        if (
            not fixed.is_finite()
            or abs(fixed) >= 1000000
            or fixed != fixed.quantize(Decimal("0.01"))
        ):
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        errors["substitute_fixed"] = [_("Give a number, such as 0 or -2.")]
        fixed = found.substitute_fixed
    if errors:
        raise Invalid(_("Check the fields marked below."), fields=errors)
    found.round_minutes, found.at_time = minutes, at_time
    found.substitute_points, found.substitute_fixed = substitute_points, fixed
    found.save()
    if penalties_in_ratings is not None:
        club = competition.club
        if club.penalties_in_ratings != penalties_in_ratings:
            club.penalties_in_ratings = penalties_in_ratings
            club.save(update_fields=["penalties_in_ratings"])
            club_id, game = club.pk, competition.game
            transaction.on_commit(lambda: jobs.delay(jobs.RECOMPUTE_RATINGS, club_id, game))
    return found


# --- rounds of the night -----------------------------------------------------------------


def checkin_round(competition: Competition) -> int:
    """The round players check in for: the one being drafted, else the next to draw."""
    return formats.next_round_number(competition)


# --- check-in ----------------------------------------------------------------------------

_SALT = "night.checkin"


def checkin_token(competition: Competition, round_number: int) -> str:
    """The code in the venue's QR code: it names the competition and round, signed, so a
    guessed address checks nobody in."""
    return signing.Signer(salt=_SALT).sign(f"{competition.pk}.{round_number}").split(":", 1)[1]


def token_matches(competition: Competition, round_number: int, token: str) -> bool:
    try:
        signing.Signer(salt=_SALT).unsign(f"{competition.pk}.{round_number}:{token}")
    except signing.BadSignature:
        return False
    return True


def entrants_for(competition: Competition, round_number: int) -> list[Entrant]:
    return [
        e
        for e in Entrant.objects.filter(competition=competition)
        .select_related("player")
        .order_by("player__name")
        if e.plays_in(round_number)
    ]


@transaction.atomic
def check_in(
    *, user: Any, competition: Competition, round_number: int, player: Player, how: str
) -> CheckIn:
    """A player is here for a round: checked in by themselves (signed in as that player),
    at the tablet or by the organiser (both an organiser's session)."""
    if how == CheckIn.How.PHONE:
        if getattr(getattr(user, "player", None), "pk", None) != player.pk:
            raise Invalid(_("Sign in as yourself to check in on your phone."))
    else:
        require_role(user, competition.club, Role.ORGANISER)
    if round_number != checkin_round(competition):
        raise Conflict(
            _("Check-in is open for round %(n)d only.") % {"n": checkin_round(competition)}
        )
    entrant = Entrant.objects.filter(competition=competition, player=player).first()
    if entrant is None or not entrant.plays_in(round_number):
        raise Invalid(
            _("%(name)s is not entered for round %(n)d: ask the organiser.")
            % {"name": player.name, "n": round_number}
        )
    found, _created = CheckIn.objects.get_or_create(
        competition=competition,
        round_number=round_number,
        player=player,
        defaults={"how": how, "by": user},
    )
    return found


@transaction.atomic
def undo_check_in(
    *, user: Any, competition: Competition, round_number: int, player: Player
) -> None:
    require_role(user, competition.club, Role.ORGANISER)
    CheckIn.objects.filter(
        competition=competition, round_number=round_number, player=player
    ).delete()


@dataclass
class Attendance:
    round_number: int
    here: list[tuple[Entrant, CheckIn]] = field(default_factory=list)
    missing: list[Entrant] = field(default_factory=list)


def attendance(competition: Competition, round_number: int) -> Attendance:
    checked = {
        c.player_id: c
        for c in CheckIn.objects.filter(competition=competition, round_number=round_number)
    }
    out = Attendance(round_number)
    for e in entrants_for(competition, round_number):
        if e.player_id in checked:
            out.here.append((e, checked[e.player_id]))
        else:
            out.missing.append(e)
    return out


@transaction.atomic
def draw_checked_in(*, user: Any, competition: Competition) -> Draw:
    """Draw the next round with the players checked in only: every entrant not checked in
    is marked absent for that round (the organiser can still adjust the draft)."""
    require_role(user, competition.club, Role.ORGANISER)
    number = checkin_round(competition)
    seen = attendance(competition, number)
    if not seen.here:
        raise Conflict(_("Nobody is checked in for round %(n)d yet.") % {"n": number})
    here = {e.player_id for e, _c in seen.here}
    for e in entrants_for(competition, number):
        if e.player_id in here:
            Absence.objects.filter(
                competition=competition, round_number=number, player_id=e.player_id
            ).delete()
        else:
            Absence.objects.get_or_create(
                competition=competition, round_number=number, player_id=e.player_id
            )
    return formats.generate_round(user=user, competition=competition)


def checkin_blockers(competition: Competition) -> list[dict[str, Any]]:
    """What check-in holds back: the players not checked in for the next round, once
    check-in for it has begun (the formats' blockers ask this through ``blockers.add``)."""
    out: list[dict[str, Any]] = []
    number = checkin_round(competition)
    seen = attendance(competition, number)
    if seen.here and seen.missing:
        out.append(
            {
                "code": "checkin",
                "message": _("Not checked in for round %(n)d: %(names)s.")
                % {"n": number, "names": ", ".join(e.player.name for e in seen.missing)},
            }
        )
    return out


# --- the clock -----------------------------------------------------------------------------


def clock_for(rnd: Round) -> RoundClock | None:
    return RoundClock.objects.filter(round=rnd).first()


@transaction.atomic
def clock_action(*, user: Any, rnd: Round, action: str, minutes: Any = None) -> RoundClock:
    """Start, pause, resume or end a round's clock (an organiser)."""
    competition = rnd.competition
    require_role(user, competition.club, Role.ORGANISER)
    now = timezone.now()
    clock = RoundClock.objects.select_for_update().filter(round=rnd).first()
    if action == "start":
        if clock is not None and clock.state != "ready":
            raise Conflict(_("The clock of this round has already started."))
        try:
            length = (
                int(minutes)
                if minutes not in (None, "")
                else settings_for(competition).round_minutes
            )
        except (TypeError, ValueError):
            raise Invalid(
                _("Give the round's length in minutes."), fields={"minutes": [_("A number.")]}
            ) from None
        if not 1 <= length <= 600:
            raise Invalid(_("Give the round's length in minutes."), fields={"minutes": ["1-600"]})
        if clock is None:
            clock = RoundClock(round=rnd, minutes=length)
        clock.minutes = length
        clock.started_at = now
        clock.save()
        return clock
    if clock is None or clock.state == "ready":
        raise Conflict(_("Start the clock first."))
    if clock.state == "ended":
        raise Conflict(_("This round's clock has ended."))
    if action == "pause":
        if clock.state == "paused":
            raise Conflict(_("The clock is already paused."))
        clock.paused_at = now
    elif action == "resume":
        if clock.state != "paused" or clock.paused_at is None:
            raise Conflict(_("The clock is not paused."))
        clock.paused_seconds += (now - clock.paused_at).total_seconds()
        clock.paused_at = None
    elif action == "end":
        if clock.paused_at is not None:
            clock.paused_seconds += (now - clock.paused_at).total_seconds()
            clock.paused_at = None
        clock.ended_at = now
    else:
        raise Invalid(_("Unknown action."))
    clock.save()
    return clock


@transaction.atomic
def give_extra_time(*, user: Any, table: Table, minutes: Any, reason: str = "") -> ExtraTime:
    require_role(user, table.competition.club, Role.ORGANISER)
    try:
        extra = int(str(minutes).strip())
        if not 0 <= extra <= 120:
            raise ValueError
    except ValueError:
        raise Invalid(
            _("Give the extra minutes, from 0 to 120."), fields={"minutes": [_("0 to 120.")]}
        ) from None
    found, _created = ExtraTime.objects.update_or_create(
        table=table, defaults={"minutes": extra, "reason": reason.strip()[:120]}
    )
    return found


def clock_state(
    rnd: Round | None, table: Table | None = None, now: datetime | None = None
) -> dict[str, Any] | None:
    """The clock as pages and the big screen read it: state, seconds left (for one table
    with its extra minutes if given), the moment it ends when running."""
    if rnd is None:
        return None
    clock = clock_for(rnd)
    if clock is None:
        return None
    now = now or timezone.now()
    extra = 0
    if table is not None:
        found = ExtraTime.objects.filter(table=table).first()
        extra = found.minutes if found else 0
    left = clock.left(extra, now)
    at_time = settings_for(rnd.competition)
    return {
        "state": clock.state,
        "minutes": clock.minutes,
        "extra": extra,
        "left": int(left),
        "left_text": clock_text(max(left, 0)),
        "up": left <= 0 and clock.state != "ready",
        "ends_at": clock.ends_at(extra),
        "at_time": at_time.get_at_time_display(),
        "round": rnd.number,
    }


def clock_text(seconds: float) -> str:
    s = int(abs(seconds))
    sign = "-" if seconds < 0 else ""
    return (
        f"{sign}{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
        if s >= 3600
        else f"{sign}{s // 60:02d}:{s % 60:02d}"
    )


# --- replacements and re-seating --------------------------------------------------------------


def hands_of(table: Table) -> list[Result]:
    """The table's hands that count, in the order they were first recorded: a corrected
    hand keeps the place of the version it replaced."""
    results = list(
        Result.objects.filter(table=table).order_by("entered_at", "pk").select_related("supersedes")
    )
    by_pk = {r.pk: r for r in results}

    def first_of(r: Result) -> Result:
        while r.supersedes_id is not None and r.supersedes_id in by_pk:
            r = by_pk[r.supersedes_id]
        return r

    counting = [r for r in results if r.status == Result.Status.ACCEPTED]
    return sorted(counting, key=lambda r: (first_of(r).entered_at, first_of(r).pk))


def seating_by_hand(table: Table) -> list[dict[str, Any]]:
    """Who sat where for every counting hand, as the journal credited it."""
    hands = hands_of(table)
    lines = Entry.objects.filter(result__in=hands, kind=Entry.Kind.CREDIT).values_list(
        "result_id", "seat", "player__name", "points"
    )
    seated: dict[int, dict[int, tuple[str, Decimal]]] = {}
    for result_id, seat, name, points in lines:
        seated.setdefault(result_id, {})[seat] = (name, points)
    out = []
    for n, r in enumerate(hands, start=1):
        row = seated.get(r.pk, {})
        out.append(
            {
                "hand": n,
                "result": r,
                "seats": [
                    {
                        "name": row.get(i, ("", Decimal(0)))[0],
                        "points": row.get(i, ("", 0))[1],
                        "scored": s,
                    }
                    for i, s in enumerate(r.scores)
                ],
            }
        )
    return out


def _new_substitute(competition: Competition, name: str) -> Player:
    name = name.strip()
    if not name:
        raise Invalid(
            _("Choose a member or type the substitute's name."),
            fields={"substitute": [_("Required.")]},
        )
    player = Player.objects.create(name=name[:120])
    Membership.objects.create(club=competition.club, player=player)
    return player


def _special(table: Table) -> dict[int, Decimal | None]:
    """Substitutes at this table whose hands credit other points: player -> fixed points,
    or None when they go to nobody (0)."""
    out: dict[int, Decimal | None] = {}
    for r in Replacement.objects.filter(table=table).order_by("at", "pk"):
        if r.points == NightSettings.SubstitutePoints.NOBODY:
            out[r.substitute_id] = None
        elif r.points == NightSettings.SubstitutePoints.FIXED:
            out[r.substitute_id] = r.fixed
        else:
            out.pop(r.substitute_id, None)
    return out


def _points(player: int, score: Any, special: dict[int, Decimal | None]) -> Decimal:
    if player in special:
        fixed = special[player]
        return fixed if fixed is not None else Decimal(0)
    return Decimal(score)


def _credited(result: Result) -> dict[int, tuple[int, Decimal]]:
    return {
        seat: (player, points)
        for seat, player, points in Entry.objects.filter(
            result=result, kind=Entry.Kind.CREDIT
        ).values_list("seat", "player_id", "points")
    }


def other_table_of_round(table: Table, player: Player) -> Table | None:
    """Another table of ``table``'s round where ``player`` sits now or played a hand that
    counts (None when there is none, or the table is in no round)."""
    if table.round_id is None:
        return None
    seat = (
        Seat.objects.filter(player=player, table__round_id=table.round_id)
        .exclude(table=table)
        .select_related("table")
        .first()
    )
    if seat is not None:
        return seat.table
    line = (
        Entry.objects.filter(
            player=player,
            table__round_id=table.round_id,
            kind=Entry.Kind.CREDIT,
            result__status=Result.Status.ACCEPTED,
        )
        .exclude(table=table)
        .select_related("table")
        .first()
    )
    return line.table if line is not None else None


def busy_in_round(table: Table) -> set[int]:
    """The players who sit at another table of ``table``'s round (the replacement form
    offers none of them)."""
    if table.round_id is None:
        return set()
    return set(
        Seat.objects.filter(table__round_id=table.round_id)
        .exclude(table=table)
        .values_list("player_id", flat=True)
    )


@transaction.atomic
def replace_player(
    *,
    user: Any,
    table: Table,
    seat: int,
    substitute: Player | None = None,
    new_name: str = "",
    from_hand: int | None = None,
) -> Replacement:
    """Put a substitute in a seat from hand ``from_hand`` on (default: the next hand to
    be recorded). Hands already recorded from that one on are written again for the
    substitute; later hands credit the substitute as the competition says (the hand's
    points, none, or a fixed score)."""
    table = Table.objects.select_for_update().select_related("competition__club").get(pk=table.pk)
    competition = table.competition
    require_role(user, competition.club, Role.ORGANISER)
    seats = {s.index: s for s in Seat.objects.filter(table=table).select_related("player")}
    if seat not in seats:
        raise Invalid(_("This table has no such seat."), fields={"seat": [_("Choose a seat.")]})
    waiting = Result.objects.filter(
        table=table, status__in=[Result.Status.PENDING, Result.Status.DISPUTED]
    ).exists()
    if waiting:
        # A waiting hand is credited to whoever sits in its seat when it comes to count:
        # after a replacement, that would be the substitute for a hand they did not play.
        raise Conflict(
            _(
                "A hand of table %(table)s is waiting for confirmation or a referee's ruling: "
                "settle it before replacing a player, so that it is credited to whoever "
                "played it."
            )
            % {"table": table.label}
        )
    hands = hands_of(table)
    start = from_hand if from_hand is not None else len(hands) + 1
    if not 1 <= start <= len(hands) + 1:
        raise Invalid(
            _("Choose a hand from 1 to %(n)d.") % {"n": len(hands) + 1},
            fields={"from_hand": [_("From 1 to %(n)d.") % {"n": len(hands) + 1}]},
        )
    if substitute is None:
        substitute = _new_substitute(competition, new_name)
    elif not competition.club.memberships.filter(player=substitute).exists():
        raise Invalid(_("Choose a member of the club."), fields={"substitute": ["?"]})
    if any(s.player_id == substitute.pk for s in seats.values()):
        raise Invalid(
            _("%(name)s already sits at this table.") % {"name": substitute.name},
            fields={"substitute": [_("Already at the table.")]},
        )
    elsewhere = other_table_of_round(table, substitute)
    if elsewhere is not None:
        raise Invalid(
            _(
                "%(name)s plays at table %(other)s in this round: a player sits at one table "
                "a round."
            )
            % {"name": substitute.name, "other": elsewhere.label},
            fields={"substitute": [_("At table %(t)s this round.") % {"t": elsewhere.label}]},
        )
    replaced = seats[seat].player
    rules = settings_for(competition)
    # The seat keeps whom it was drawn for: a match counts for that entrant (docs/ledger.md).
    drawn_for = seats[seat].entrant_id
    Seat.objects.filter(pk=seats[seat].pk).update(
        player=substitute, stands_for_id=None if drawn_for == substitute.pk else drawn_for
    )
    special = dict(table.seat_points or {})
    special.pop(str(seat), None)
    if rules.substitute_points == NightSettings.SubstitutePoints.NOBODY:
        special[str(seat)] = None
    elif rules.substitute_points == NightSettings.SubstitutePoints.FIXED:
        special[str(seat)] = f"{rules.substitute_fixed:f}"
    table.seat_points = special or None
    table.save(update_fields=["seat_points"])
    replacement = Replacement.objects.create(
        table=table,
        seat=seat,
        replaced=replaced,
        substitute=substitute,
        from_hand=start,
        points=rules.substitute_points,
        fixed=rules.substitute_fixed,
        by=user,
    )
    note = _("%(sub)s replaced %(old)s from hand %(n)d.") % {
        "sub": substitute.name,
        "old": replaced.name,
        "n": start,
    }
    special_now = _special(table)
    for hand in hands[start - 1 :]:
        lines = _credited(hand)
        lines[seat] = (substitute.pk, _points(substitute.pk, hand.scores[seat], special_now))
        core.rewrite_result(
            user=user,
            result=hand,
            lines=[(i, p, x) for i, (p, x) in lines.items()],
            reason=note,
        )
    return replacement


def _check_order(table: Table, order: Sequence[int]) -> dict[int, int]:
    current = dict(Seat.objects.filter(table=table).values_list("index", "player_id"))
    if sorted(order) != sorted(current.values()) or len(order) != len(current):
        raise Invalid(
            _("Put each of the table's players in exactly one seat."),
            fields={"order": [_("Each player once.")]},
        )
    return current


def _table_totals(table: Table) -> dict[int, Decimal]:
    """Each player's points at the table, as the journal credited its counting hands."""
    totals: dict[int, Decimal] = {}
    for player, points in Entry.objects.filter(
        result__in=hands_of(table), kind=Entry.Kind.CREDIT
    ).values_list("player_id", "points"):
        totals[player] = totals.get(player, Decimal(0)) + points
    return totals


def reseat_preview(table: Table, order: Sequence[int], user: Any = None) -> dict[str, Any]:
    """What re-seating would change: each player's points at the table now and after, the
    after found by ``reseat`` itself, run in a savepoint that is rolled back
    (ledger/clubs/results/previews.py), so a substitute's special credit moves as it will."""
    current = _check_order(table, order)
    names = dict(Player.objects.filter(pk__in=order).values_list("pk", "name"))
    before = _table_totals(table)
    changed = [current[i] for i in sorted(current)] != list(order)
    after = before
    if changed:
        _made, after = previews.dry_run(
            lambda: reseat(user=user, table=table, order=order), lambda: _table_totals(table)
        )
    return {
        "players": [
            {
                "name": names[p],
                "before": before.get(p, Decimal(0)),
                "after": after.get(p, Decimal(0)),
                "changed": before.get(p, Decimal(0)) != after.get(p, Decimal(0)),
            }
            for p in order
        ],
        "changed": changed,
    }


@transaction.atomic
def reseat(*, user: Any, table: Table, order: Sequence[int]) -> list[Result]:
    """Seat the table's players in ``order`` (player ids, seat 0 first) and write its
    recorded hands again for the seats as they should have been: every hand's old lines
    reversed and its new ones credited, together."""
    table = Table.objects.select_for_update().select_related("competition__club").get(pk=table.pk)
    require_role(user, table.competition.club, Role.ORGANISER)
    current = _check_order(table, order)
    if [current[i] for i in sorted(current)] == list(order):
        raise Conflict(_("The table already sits in these seats."))
    drawn_for = dict(Seat.objects.filter(table=table).values_list("player_id", "stands_for_id"))
    Seat.objects.filter(table=table).delete()
    Seat.objects.bulk_create(
        [
            Seat(table=table, index=i, player_id=p, stands_for_id=drawn_for.get(p))
            for i, p in enumerate(order)
        ]
    )
    if table.seat_points:
        # A substitute's special credit follows the substitute to their new seat.
        moved = {}
        for index, value in table.seat_points.items():
            player = current.get(int(index))
            if player is not None and player in order:
                moved[str(list(order).index(player))] = value
        table.seat_points = moved or None
        table.save(update_fields=["seat_points"])
    moved_to = {i: list(order).index(p) for i, p in current.items()}
    special = _special(table)
    out = []
    for hand in hands_of(table):
        lines = _credited(hand)
        again = []
        for i, (player, _was) in lines.items():
            j = moved_to[i]
            again.append((j, player, _points(player, hand.scores[j], special)))
        out.append(
            core.rewrite_result(
                user=user, result=hand, lines=again, reason=_("The table was re-seated.")
            )
        )
    return out


def tonight_for(player: Player, club_id: int) -> list[dict[str, Any]]:
    """The table a player sits at in the round being played of each of the club's
    competitions whose clock is set and not ended, with that table's clock (for the
    player's own page)."""
    seats = (
        Seat.objects.filter(
            player=player,
            table__competition__club_id=club_id,
            table__round__draw__status=Draw.Status.PUBLISHED,
        )
        .select_related("table__round", "table__competition__club")
        .order_by("-table__round__number", "-table_id")
    )
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for seat in seats[:20]:
        table = seat.table
        competition = table.competition
        if competition.pk in seen:
            continue
        seen.add(competition.pk)
        drawn = table.round  # a published draw's round: never None here
        if drawn is None or selectors.current_round(competition) != drawn.number:
            continue
        state = clock_state(drawn, table)
        if state is None or state["state"] == "ended":
            continue
        out.append({"competition": competition, "table": table, "seat": seat.index, "clock": state})
    return out


# --- time up: what the competition's setting says happens to hands after time -----------------


def time_up_at(clock: RoundClock, extra: int, now: datetime) -> datetime | None:
    """The moment play time ran out at a table (its extra minutes included), or None while
    time is left. Ending the round early ends its time too."""
    if clock.started_at is None:
        return None
    if clock.ended_at is None and clock.left(extra, now) > 0:
        return None
    ran_out = clock.started_at + timedelta(
        seconds=clock.paused_seconds, minutes=clock.minutes + extra
    )
    if clock.ended_at is not None and clock.ended_at < ran_out:
        return clock.ended_at
    return ran_out


def refuse_hands_after_time(sender: Any, table: Table, user: Any, **kwargs: Any) -> None:
    """Refuse a table's new hand once its time is up, as the competition's setting says:
    with "finish the hand in play" the one hand in play when time ran out is still
    recorded and no other; with "stop at once" none is. An organiser who gives the table
    extra minutes lets its hands in again."""
    if table.round_id is None:
        return
    clock = RoundClock.objects.filter(round_id=table.round_id).first()
    if clock is None or clock.started_at is None:
        return
    now = timezone.now()
    found = ExtraTime.objects.filter(table_id=table.pk).values_list("minutes", flat=True).first()
    up = time_up_at(clock, found or 0, now)
    if up is None:
        return
    rule = (
        NightSettings.objects.filter(competition_id=table.competition_id)
        .values_list("at_time", flat=True)
        .first()
    ) or NightSettings.AtTime.FINISH_HAND
    if rule == NightSettings.AtTime.STOP:
        raise Invalid(
            _(
                "Time is up at table %(table)s: this competition stops play at time, so no "
                "more hands are recorded there. If the hand ended in time, ask an organiser "
                "to give the table extra minutes."
            )
            % {"table": table.label}
        )
    if Result.objects.filter(table_id=table.pk, entered_at__gte=up).exists():
        raise Invalid(
            _(
                "Time is up at table %(table)s and the hand that was in play is recorded: no "
                "new hand starts after time. An organiser can give the table extra minutes."
            )
            % {"table": table.label}
        )
