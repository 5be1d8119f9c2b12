"""What each event owes whom: the people an event concerns, the kind of message each gets
and the facts it says. Read by the job (ledger/notify/tasks.py), after the commit."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from ledger.clubs import events
from ledger.clubs.models import Competition, Dispute, Membership, Player, Result, Role
from ledger.clubs.results import confirmers
from ledger.formats.models import Bye, Draw
from ledger.notify import times
from ledger.notify.models import Announcement, Kind
from ledger.play import live
from ledger.play import services as play
from ledger.play.models import GameTable, PlaySeat
from ledger.referee.models import Case
from ledger.signup.models import SignUp

#: Someone moved up from a sign-up's waiting list (heard from ledger/signup's signal).
MOVED_UP = "signup.moved_up"


@dataclass
class Owed:
    player_id: int
    kind: str
    facts: dict[str, Any] = field(default_factory=dict)
    # Where the e-mail goes when the person has none of their own (the sign-up's address).
    address: str = ""


@dataclass
class Heard:
    """An event as the job reads it: its key (one per event for all time), its club and the
    messages it owes."""

    key: str
    club_id: int
    owed: list[Owed]


def round_published(draw_id: int) -> Heard | None:
    """Each player drawn: their table, seat, opponents and the round's start; each player
    given a bye: their bye and its points."""
    draw = (
        Draw.objects.select_related("round__competition__club")
        .filter(pk=draw_id, status=Draw.Status.PUBLISHED)
        .first()
    )
    if draw is None:
        return None
    rnd = draw.round
    competition = rnd.competition
    planned = times.round_of(competition, rnd.number)
    ids = {p for t in draw.tables for p in t["players"]}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    common: dict[str, Any] = {
        "club": competition.club.name,
        "competition": competition.name,
        "round": rnd.number,
        "starts_at": planned.starts_at.isoformat() if planned and planned.starts_at else None,
        "played_on": planned.day.isoformat() if planned else None,
        "venue": planned.venue if planned else "",
        "path": reverse("competition", args=[competition.club.slug, competition.slug]),
    }
    owed: list[Owed] = []
    for t in draw.tables:
        players = list(t["players"])
        for index, player_id in enumerate(players):
            facts = {
                **common,
                "table": str(t["label"]),
                "seat": index + 1,
                "opponents": [names.get(p, "") for p in players if p != player_id],
            }
            owed.append(Owed(player_id, Kind.SEAT, facts))
    points = dict(
        Bye.objects.filter(competition=competition, round_number=rnd.number).values_list(
            "player_id", "points"
        )
    )
    for player_id in draw.byes:
        bye_points = points.get(player_id)
        owed.append(
            Owed(
                player_id,
                Kind.BYE,
                {**common, "points": str(bye_points.normalize()) if bye_points is not None else ""},
            )
        )
    return Heard(f"{events.ROUND_PUBLISHED}:{draw.pk}", competition.club_id, owed)


def _result_facts(result: Result) -> dict[str, Any]:
    competition = result.competition
    return {
        "club": competition.club.name,
        "competition": competition.name,
        "table": result.table.label,
        "result": result.pk,
        "path": reverse("result", args=[competition.club.slug, competition.slug, result.pk]),
    }


def _seated(result: Result) -> list[Player]:
    return [
        seat.player
        for seat in result.table.seats.select_related("player__user").order_by("index")
        if not seat.player.automated
    ]


def result_waiting(result_id: int) -> Heard | None:
    """Those who may confirm a waiting result: the players at its table the competition
    lets sign it off, and in a competition checked by a second person, the club's
    scorekeepers who did not play there."""
    result = (
        Result.objects.select_related("competition__club", "table", "entered_by")
        .filter(pk=result_id, status=Result.Status.PENDING)
        .first()
    )
    if result is None:
        return None
    competition = result.competition
    if competition.confirmation == Competition.Confirmation.NONE:
        return None
    candidates = {p.pk: p for p in _seated(result) if p.user is not None}
    if competition.confirmation != Competition.Confirmation.OPPONENTS:
        candidates = {}
        staff = Membership.objects.filter(
            club=competition.club,
            role__in=[Role.SCOREKEEPER, Role.REFEREE, Role.ORGANISER],
            player__automated=False,
            player__user__isnull=False,
        ).select_related("player__user")
        for m in staff:
            candidates[m.player.pk] = m.player
    facts = {**_result_facts(result), "blind": competition.confirmation == "blind"}
    owed = [
        Owed(p.pk, Kind.CONFIRM, facts)
        for p in candidates.values()
        if confirmers.refusal(p.user, result) is None
    ]
    return Heard(f"{events.RESULT_WAITING}:{result.pk}", competition.club_id, owed)


CHANGES = ("corrected", "voided", "contested", "ruled")


def result_changed(result_id: int, change: str) -> Heard | None:
    """The players of the hand: their result corrected, voided, contested or ruled on (a
    ruling is a referee's message)."""
    result = (
        Result.objects.select_related("competition__club", "table").filter(pk=result_id).first()
    )
    if result is None or change not in CHANGES:
        return None
    reason = result.void_reason if change == "voided" else result.reason
    if change == "contested":
        dispute = Dispute.objects.filter(result=result).first()
        reason = dispute.reason if dispute else ""
    facts = {**_result_facts(result), "change": change, "reason": reason}
    kind = Kind.REFEREE if change == "ruled" else Kind.CHANGED
    owed = [Owed(p.pk, kind, facts) for p in _seated(result)]
    return Heard(f"{events.RESULT_CHANGED}:{result.pk}:{change}", result.competition.club_id, owed)


def referee_call(case_id: int) -> Heard | None:
    """The players of the hand a referee's case is about."""
    case = (
        Case.objects.select_related("result__competition__club", "result__table")
        .filter(pk=case_id)
        .first()
    )
    if case is None or case.result is None:
        return None
    facts = {**_result_facts(case.result), "change": "called"}
    owed = [Owed(p.pk, Kind.REFEREE, facts) for p in _seated(case.result)]
    return Heard(f"{events.REFEREE_CALL}:{case.pk}", case.club_id, owed)


def announcement(announcement_id: int) -> Heard | None:
    """Every member of the club."""
    made = Announcement.objects.select_related("club").filter(pk=announcement_id).first()
    if made is None:
        return None
    facts = {
        "club": made.club.name,
        "title": made.title,
        "text": made.text,
        "path": reverse("club", args=[made.club.slug]),
    }
    members = Membership.objects.filter(club=made.club, player__automated=False).values_list(
        "player_id", flat=True
    )
    owed = [Owed(player_id, Kind.ANNOUNCEMENT, facts) for player_id in members]
    return Heard(f"{events.ANNOUNCEMENT}:{made.pk}", made.club_id, owed)


def table_turn(table_id: int, move: int) -> Heard | None:
    """The player whose turn it is at a digital table, when nobody has moved since and
    they do not have the table's page open."""
    table = GameTable.objects.filter(pk=table_id).first()
    if table is None or table.status != GameTable.Status.PLAYING or table.moves_count != move:
        return None
    seat_index = play.state_of(table).to_act()
    if seat_index is None:
        return None
    seat = (
        PlaySeat.objects.filter(table=table, index=seat_index, kind=PlaySeat.Kind.HUMAN)
        .select_related("player")
        .first()
    )
    if seat is None or seat.player is None or seat.user_id is None:
        return None
    if live.watching(table.pk, seat.user_id):
        return None
    facts = {
        "table": table.label or f"#{table.pk}",
        "path": reverse("play-table", args=[table.pk]),
    }
    return Heard(
        f"{events.TABLE_TURN}:{table.pk}:{move}",
        table.club_id,
        [Owed(seat.player.pk, Kind.TURN, facts)],
    )


def moved_up(signup_id: int) -> Heard | None:
    """The person who has a place now, after waiting for one: once for each sign-up (it
    never waits again), while they still hold the place."""
    signup = (
        SignUp.objects.select_related("registration__competition__club")
        .filter(pk=signup_id, status=SignUp.Status.REGISTERED)
        .first()
    )
    if signup is None or signup.player_id is None:
        return None
    competition = signup.registration.competition
    facts = {
        "club": competition.club.name,
        "competition": competition.name,
        "name": signup.name,
        "path": reverse("signup", args=[competition.club.slug, competition.slug]),
    }
    owed = [Owed(signup.player_id, Kind.PLACE, facts, address=signup.email)]
    return Heard(f"{MOVED_UP}:{signup.pk}", competition.club_id, owed)


READERS: dict[str, Callable[[dict[str, Any]], Heard | None]] = {
    events.ROUND_PUBLISHED: lambda ids: round_published(int(ids["draw"])),
    events.RESULT_WAITING: lambda ids: result_waiting(int(ids["result"])),
    events.RESULT_CHANGED: lambda ids: result_changed(int(ids["result"]), str(ids["change"])),
    events.REFEREE_CALL: lambda ids: referee_call(int(ids["case"])),
    events.ANNOUNCEMENT: lambda ids: announcement(int(ids["announcement"])),
    events.TABLE_TURN: lambda ids: table_turn(int(ids["table"]), int(ids["move"])),
    MOVED_UP: lambda ids: moved_up(int(ids["signup"])),
}


def hear(event: str, ids: dict[str, Any]) -> Heard | None:
    reader = READERS.get(event)
    return reader(ids) if reader is not None else None
