"""An event's schedule over days and venues: each round of each of its competitions (the
stages linked to one another: a qualifying Swiss and its knockout, league nights and their
final) with its day, start and venue; the night's pages filtered to one venue play the
round scheduled there."""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ledger.clubs.errors import Invalid
from ledger.clubs.models import Competition, Role, Round
from ledger.clubs.office.roles import require_role
from ledger.formats import selectors
from ledger.formats.models import Stage
from ledger.night.models import ScheduledRound, Venue


@dataclass(frozen=True)
class Slot:
    """One round of the event as the schedule shows it."""

    competition: Competition
    number: int
    day: datetime.date | None
    starts_at: datetime.time | None
    venue: Venue | None
    published: bool


@dataclass(frozen=True)
class Day:
    day: datetime.date | None  # None: rounds with no day yet
    slots: list[Slot]

    def venues(self) -> list[Venue]:
        seen: dict[int, Venue] = {}
        for s in self.slots:
            if s.venue is not None:
                seen.setdefault(s.venue.pk, s.venue)
        return list(seen.values())


def event_of(competition: Competition) -> list[Competition]:
    """The competition and every stage linked to it, before and after, in the order they
    were made."""
    found = {competition.pk: competition}
    todo = [competition]
    while todo:
        current = todo.pop()
        linked = list(current.next_stages.select_related("competition"))  # stages it feeds
        neighbours = [s.competition for s in linked]
        stage = Stage.objects.filter(competition=current).prefetch_related("sources").first()
        if stage is not None:
            neighbours += list(stage.sources.all())
        for other in neighbours:
            if other.pk not in found:
                found[other.pk] = other
                todo.append(other)
    return sorted(found.values(), key=lambda c: (c.created_at, c.pk))


def slots_of(competition: Competition) -> list[Slot]:
    """Every round of one competition the schedule knows of: those published, those still
    planned and those scheduled ahead."""
    published = set(selectors.published_numbers(competition))
    planned = selectors.planned_rounds(competition) or 0
    scheduled = {
        s.number: s
        for s in ScheduledRound.objects.filter(competition=competition).select_related("venue")
    }
    days = dict(
        Round.objects.filter(competition=competition, played_on__isnull=False).values_list(
            "number", "played_on"
        )
    )
    numbers = sorted(published | set(range(1, planned + 1)) | set(scheduled))
    out = []
    for n in numbers:
        s = scheduled.get(n)
        out.append(
            Slot(
                competition,
                n,
                (s.day if s is not None and s.day else None) or days.get(n),
                s.starts_at if s is not None else None,
                s.venue if s is not None else None,
                n in published,
            )
        )
    return out


def schedule(competition: Competition) -> list[Day]:
    """The event's rounds by day (the rounds without a day last), each day's by start."""
    slots = [s for c in event_of(competition) for s in slots_of(c)]
    by_day: dict[datetime.date | None, list[Slot]] = {}
    for s in slots:
        by_day.setdefault(s.day, []).append(s)
    days = sorted(by_day, key=lambda d: (d is None, d or datetime.date.min))
    return [
        Day(
            d,
            sorted(
                by_day[d],
                key=lambda s: (
                    s.starts_at is None,
                    s.starts_at or datetime.time.min,
                    s.competition.created_at,
                    s.number,
                ),
            ),
        )
        for d in days
    ]


def venues_of(competition: Competition) -> list[Venue]:
    """The venues the competition's rounds are scheduled at."""
    return list(Venue.objects.filter(rounds__competition=competition).distinct().order_by("name"))


def round_at(competition: Competition, venue: Venue) -> Round | None:
    """The round being played at the venue: the latest published round scheduled there."""
    numbers = set(selectors.published_numbers(competition))
    here = [
        n
        for n in ScheduledRound.objects.filter(competition=competition, venue=venue).values_list(
            "number", flat=True
        )
        if n in numbers
    ]
    if not here:
        return None
    return Round.objects.filter(competition=competition, number=max(here)).first()


@dataclass
class SlotData:
    number: int
    day: datetime.date | None
    starts_at: datetime.time | None
    venue: int | None  # a venue's id, or None


@transaction.atomic
def save_schedule(
    *, user: Any, competition: Competition, slots: list[SlotData], new_venue: str = ""
) -> list[ScheduledRound]:
    """Set the day, start and venue of the competition's rounds; ``new_venue`` (a name)
    adds a venue to the club first, and a slot whose venue is 0 takes it."""
    club = competition.club
    require_role(user, club, Role.ORGANISER)
    made: Venue | None = None
    name = (new_venue or "").strip()
    if name:
        made, _created = Venue.objects.get_or_create(club=club, name=name[:80])
    known = {v.pk: v for v in Venue.objects.filter(club=club)}
    out = []
    for s in slots:
        if s.number < 1:
            raise Invalid(_("A round's number starts from 1."), fields={"number": ["?"]})
        venue: Venue | None = None
        if s.venue == 0:
            if made is None:
                raise Invalid(
                    _("Give the new venue a name."),
                    fields={"new_venue": [_("A name is needed.")]},
                )
            venue = made
        elif s.venue is not None:
            venue = known.get(s.venue)
            if venue is None:
                raise Invalid(_("Choose one of the club's venues."), fields={"venue": ["?"]})
        row, _created = ScheduledRound.objects.update_or_create(
            competition=competition,
            number=s.number,
            defaults={"day": s.day, "starts_at": s.starts_at, "venue": venue},
        )
        if s.day is not None:
            # The round's own date follows (the season orders its nights by it).
            Round.objects.filter(competition=competition, number=s.number).update(played_on=s.day)
        out.append(row)
    return out
