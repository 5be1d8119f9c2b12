"""An event over several days and venues: the organiser sets each round's day, start and
venue; the schedule shows them, with the rounds of the stages linked to the competition;
the night's pages filtered to a venue play the round scheduled there."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from ledger.clubs.models import Competition, Round, Table
from ledger.clubs.results import services as core
from ledger.formats import services as formats
from ledger.formats import stages
from ledger.formats.models import Stage
from ledger.night import schedule
from ledger.night.models import ScheduledRound, Venue
from tests.formats.conftest import enter, make_competition

pytestmark = pytest.mark.django_db


def two_rounds(people: Any, club: Any) -> Competition:
    comp = make_competition(club, "league")
    enter(people, comp, 4)
    boss = people.users["organiser"]
    for number in (1, 2):
        draw = formats.generate_round(user=boss, competition=comp)
        formats.publish_draw(user=boss, draw=draw)
        for table in Table.objects.filter(round__number=number, competition=comp):
            core.record_result(
                user=boss,
                table=table,
                source="manual",
                scores=list(range(table.seats.count())),
            )
    return comp


def test_the_organiser_sets_days_and_venues_and_the_schedule_shows_them(
    client: Any, people: Any, club: Any, points_game: str
) -> None:
    comp = two_rounds(people, club)
    hall = Venue.objects.create(club=club, name="Sala Garibaldi")
    client.force_login(people.users["organiser"])
    page = client.post(
        f"/c/prova/{comp.slug}/night/schedule/",
        {
            "new_venue": "Palestra comunale",
            "number": ["1", "2"],
            "day-1": "2026-05-16",
            "time-1": "09:30",
            "venue-1": str(hall.pk),
            "day-2": "2026-05-17",
            "time-2": "14:00",
            "venue-2": "new",
        },
    )
    assert page.status_code == 302
    gym = Venue.objects.get(club=club, name="Palestra comunale")
    assert ScheduledRound.objects.get(competition=comp, number=2).venue == gym
    assert Round.objects.get(competition=comp, number=1).played_on == datetime.date(2026, 5, 16)
    text = client.get(f"/c/prova/{comp.slug}/night/schedule/", HTTP_ACCEPT_LANGUAGE="it")
    shown = text.content.decode()
    assert "sabato 16 maggio 2026" in shown.lower() and "domenica 17 maggio 2026" in shown.lower()
    assert shown.index("Sala Garibaldi") < shown.index("Palestra comunale")
    assert "09:30" in shown and "14:00" in shown


def test_a_day_that_is_not_one_is_refused_and_kept(
    client: Any, people: Any, club: Any, points_game: str
) -> None:
    comp = two_rounds(people, club)
    client.force_login(people.users["organiser"])
    page = client.post(
        f"/c/prova/{comp.slug}/night/schedule/",
        {"number": ["1"], "day-1": "16 maggio", "time-1": "", "venue-1": ""},
        HTTP_ACCEPT_LANGUAGE="it",
    )
    assert page.status_code == 400
    text = page.content.decode()
    assert "non è un giorno" in text and 'value="16 maggio"' in text


def test_the_night_pages_filtered_to_a_venue_play_its_round(
    client: Any, people: Any, club: Any, points_game: str
) -> None:
    comp = two_rounds(people, club)
    hall = Venue.objects.create(club=club, name="Sala Garibaldi")
    gym = Venue.objects.create(club=club, name="Palestra comunale")
    ScheduledRound.objects.create(competition=comp, number=1, venue=hall)
    ScheduledRound.objects.create(competition=comp, number=2, venue=gym)
    assert schedule.round_at(comp, hall).number == 1  # type: ignore[union-attr]
    assert schedule.round_at(comp, gym).number == 2  # type: ignore[union-attr]
    client.force_login(people.users["organiser"])
    base = f"/c/prova/{comp.slug}/night/"
    clock = client.get(base + f"clock/?venue={hall.pk}", HTTP_ACCEPT_LANGUAGE="en").content
    assert b"Round 1" in clock and b"Sala Garibaldi" in clock
    assert b"Round 2" in client.get(base + "clock/", HTTP_ACCEPT_LANGUAGE="en").content
    pairings = client.get(base + f"print/pairings/?venue={hall.pk}", HTTP_ACCEPT_LANGUAGE="en")
    assert b"Round 1" in pairings.content
    pdf = client.get(base + f"print/pairings/?venue={gym.pk}&format=pdf")
    assert pdf.content.startswith(b"%PDF")
    tables = client.get(base + f"tables/?venue={gym.pk}", HTTP_ACCEPT_LANGUAGE="en").content
    assert b"Round 2" in tables
    hub = client.get(base, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"?venue={hall.pk}" in hub and f"?venue={gym.pk}" in hub
    # Check-in for round 3, scheduled at the gym, seen from the hall.
    ScheduledRound.objects.create(competition=comp, number=3, venue=gym)
    checkin = client.get(base + f"checkin/?venue={hall.pk}", HTTP_ACCEPT_LANGUAGE="en")
    assert b"This round is not played at Sala Garibaldi" in checkin.content
    other = Venue.objects.create(club=club, name="Altrove")
    assert client.get(base + f"clock/?venue={other.pk}").status_code == 200
    assert client.get(base + "clock/?venue=x").status_code == 404


def test_the_schedule_of_an_event_holds_its_linked_stages(
    client: Any, people: Any, club: Any, points_game: str
) -> None:
    comp = two_rounds(people, club)
    knockout = Competition.objects.create(
        club=club, name="Tabellone", slug="tabellone", game="punti", format="knockout"
    )
    stages.make_stage(
        user=people.users["organiser"],
        competition=knockout,
        sources=[comp],
        season=None,
        rule=Stage.Rule.TOP,
        count=2,
        threshold=None,
        carry_over=False,
    )
    ScheduledRound.objects.create(competition=knockout, number=1, day=datetime.date(2026, 5, 17))
    assert [c.pk for c in schedule.event_of(knockout)] == [comp.pk, knockout.pk]
    text = client.get("/c/prova/tabellone/night/schedule/").content.decode()
    assert comp.name in text and "Tabellone" in text


def test_the_schedule_is_linked_from_the_competitions_navigation_for_everyone(
    client: Any, people: Any, club: Any, points_game: str
) -> None:
    comp = two_rounds(people, club)
    page = client.get(f"/c/prova/{comp.slug}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert f'href="/c/prova/{comp.slug}/night/schedule/"' in page
    assert 'data-nav="schedule">Programma</a>' in page
    schedule_page = client.get(
        f"/c/prova/{comp.slug}/night/schedule/", HTTP_ACCEPT_LANGUAGE="it"
    ).content.decode()
    link = schedule_page.split(f'href="/c/prova/{comp.slug}/night/schedule/"')[1].split(">")[0]
    assert 'aria-current="page"' in link
