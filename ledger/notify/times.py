"""When and where rounds are played, as the calendars and the seat messages give them: the
night's schedule (ledger/night, ``ScheduledRound``: a day, a start and a venue per round
number, set before or after the draw), else the day a round was played. A day and a start
are the club's local time (Europe/Rome): made an aware moment here, so that 21:00 is 21:00
on both sides of the change to and from summer time."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.conf import settings

from ledger.clubs.models import Competition, Round
from ledger.night.models import NightSettings, ScheduledRound


def zone() -> ZoneInfo:
    return ZoneInfo(settings.TIME_ZONE)


@dataclass
class Dated:
    """A round with a day: drawn or only scheduled."""

    competition: Competition
    number: int
    starts_at: datetime | None  # aware; None: a whole day
    day: date
    minutes: int
    venue: str = ""
    place: str = ""  # "table 3, seat 2" in a person's feed


def rounds_of(competitions: list[Competition]) -> list[Dated]:
    """The rounds of these competitions that have a day, in order: the schedule's day and
    start, else the day the round was played."""
    by_pk = {c.pk: c for c in competitions}
    minutes = dict(
        NightSettings.objects.filter(competition__in=competitions).values_list(
            "competition_id", "round_minutes"
        )
    )
    found: dict[tuple[int, int], Dated] = {}
    for r in Round.objects.filter(competition__in=competitions, played_on__isnull=False):
        assert r.played_on is not None
        found[(r.competition_id, r.number)] = Dated(
            by_pk[r.competition_id], r.number, None, r.played_on, 0
        )
    for s in ScheduledRound.objects.filter(
        competition__in=competitions, day__isnull=False
    ).select_related("venue"):
        assert s.day is not None
        start = (
            datetime.combine(s.day, s.starts_at).replace(tzinfo=zone())
            if s.starts_at is not None
            else None
        )
        venue = ""
        if s.venue is not None:
            venue = ", ".join(p for p in (s.venue.name, s.venue.address) if p)
        found[(s.competition_id, s.number)] = Dated(
            by_pk[s.competition_id],
            s.number,
            start,
            s.day,
            minutes.get(s.competition_id, 60),
            venue,
        )
    return [found[k] for k in sorted(found)]


def round_of(competition: Competition, number: int) -> Dated | None:
    for d in rounds_of([competition]):
        if d.number == number:
            return d
    return None
