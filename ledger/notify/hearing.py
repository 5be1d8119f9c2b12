"""What each event owes whom: the people an event concerns, the kind of message each gets
and the facts it says. Read by the job (ledger/notify/tasks.py), after the commit."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse

from ledger.clubs import events
from ledger.formats.models import Bye, Draw
from ledger.notify.models import Kind, RoundTime


@dataclass
class Owed:
    player_id: int
    kind: str
    facts: dict[str, Any] = field(default_factory=dict)


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
    planned = RoundTime.objects.filter(round=rnd).first()
    ids = {p for t in draw.tables for p in t["players"]}
    from ledger.clubs.models import Player

    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    common: dict[str, Any] = {
        "club": competition.club.name,
        "competition": competition.name,
        "round": rnd.number,
        "starts_at": planned.starts_at.isoformat() if planned else None,
        "played_on": rnd.played_on.isoformat() if rnd.played_on else None,
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


READERS = {
    events.ROUND_PUBLISHED: lambda ids: round_published(int(ids["draw"])),
}


def hear(event: str, ids: dict[str, Any]) -> Heard | None:
    reader = READERS.get(event)
    return reader(ids) if reader is not None else None
