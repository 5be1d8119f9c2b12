"""The iCalendar feeds: valid for the icalendar library, with the Europe/Rome zone's
VTIMEZONE, and a round at 21:00 stays at 21:00 on both sides of the change to and from
summer time (25 October 2026, 28 March 2027); a person's feed lists their rounds with table
and seat at a secret address; an organiser sets a round's time on the calendar page."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import icalendar
from django.test import Client
from django.urls import reverse

from ledger.clubs.models import Round
from ledger.night.models import NightSettings, ScheduledRound, Venue
from ledger.notify.models import Preferences
from tests.notify.conftest import publish_round


def feed(url: str) -> icalendar.Calendar:
    answer = Client().get(url)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/calendar")
    cal = icalendar.Calendar.from_ical(answer.content)
    assert cal["VERSION"] == "2.0" and cal["PRODID"]
    for event in cal.walk("VEVENT"):
        for required in ("UID", "DTSTAMP", "DTSTART", "SUMMARY"):
            assert required in event, required
    return cal


def plan(competition: Any, number: int, local: datetime, venue: Venue | None = None) -> None:
    """The night's schedule: round ``number`` on that day at that local time."""
    NightSettings.objects.get_or_create(competition=competition, defaults={"round_minutes": 90})
    ScheduledRound.objects.create(
        competition=competition,
        number=number,
        day=local.date(),
        starts_at=local.time(),
        venue=venue,
    )


def test_a_round_keeps_its_local_time_across_both_changes_of_summer_time(
    drawn: dict[str, Any],
) -> None:
    competition = drawn["competition"]
    plan(competition, 1, datetime(2026, 10, 24, 21, 0))  # summer time, UTC+2
    plan(competition, 2, datetime(2026, 10, 25, 21, 0))  # the day it ends: UTC+1
    plan(competition, 3, datetime(2027, 3, 29, 21, 0))  # summer time again: UTC+2
    cal = feed(reverse("calendar-competition", args=["prova", competition.slug]))
    (zone,) = cal.walk("VTIMEZONE")
    assert str(zone["TZID"]) == "Europe/Rome"
    assert zone.walk("STANDARD") and zone.walk("DAYLIGHT")
    starts = {}
    assert len(cal.walk("VEVENT")) == 3
    for event in cal.walk("VEVENT"):
        start = event["DTSTART"]
        assert start.params["TZID"] == "Europe/Rome"
        assert start.dt.hour == 21 and start.dt.minute == 0
        assert (event["DTEND"].dt - start.dt).total_seconds() == 90 * 60
        starts[str(event["SUMMARY"])] = start.dt.astimezone(UTC)
    assert starts["Coppa d'autunno, turno 1"] == datetime(2026, 10, 24, 19, 0, tzinfo=UTC)
    assert starts["Coppa d'autunno, turno 2"] == datetime(2026, 10, 25, 20, 0, tzinfo=UTC)
    assert starts["Coppa d'autunno, turno 3"] == datetime(2027, 3, 29, 19, 0, tzinfo=UTC)
    # The raw text names the zone and the local time, as phone calendars read it.
    text = Client().get(reverse("calendar-competition", args=["prova", competition.slug]))
    assert b"DTSTART;TZID=Europe/Rome:20261025T210000" in text.content
    assert b"DTSTART;TZID=Europe/Rome:20270329T210000" in text.content


def test_a_round_with_a_day_and_no_time_is_a_whole_day(drawn: dict[str, Any]) -> None:
    competition = drawn["competition"]
    Round.objects.create(competition=competition, number=1, played_on=date(2026, 10, 25))
    cal = feed(reverse("calendar-club", args=["prova"]))
    (event,) = cal.walk("VEVENT")
    assert event["DTSTART"].dt == date(2026, 10, 25)
    assert event["DTEND"].dt == date(2026, 10, 26)


def test_a_persons_feed_lists_the_rounds_they_are_drawn_in_with_table_and_seat(
    drawn: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    competition = drawn["competition"]
    plan(competition, 1, datetime(2026, 10, 25, 21, 0))
    draw = publish_round(drawn, django_capture_on_commit_callbacks)
    player = drawn["players"][1]
    key = Preferences.objects.get(player=player).calendar_key
    cal = feed(reverse("calendar-person", args=[key]))
    (event,) = cal.walk("VEVENT")
    (table,) = [t for t in draw.tables if player.pk in t["players"]]
    seat = table["players"].index(player.pk) + 1
    # Player 1 reads English.
    assert str(event["SUMMARY"]) == (
        f"Coppa d'autunno, round 1 · table {table['label']}, seat {seat}"
    )
    assert event["DTSTART"].dt.astimezone(UTC) == datetime(2026, 10, 25, 20, 0, tzinfo=UTC)
    # Someone else's rounds are not in it; a wrong key finds nothing.
    other = drawn["players"][0]
    Preferences.objects.get_or_create(player=other)
    assert Client().get(reverse("calendar-person", args=["not-a-key"])).status_code == 404


def test_the_seat_message_gives_the_start_in_rome_time(
    drawn: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    from django.core import mail

    plan(drawn["competition"], 1, datetime(2026, 10, 25, 21, 0))
    publish_round(drawn, django_capture_on_commit_callbacks)
    (message,) = [m for m in mail.outbox if m.to == ["p1@example.org"]]
    assert "Start: Oct. 25, 2026, 9 p.m." in message.body


def test_the_calendar_page_offers_each_scheduled_round_and_the_feeds(
    people: Any, drawn: dict[str, Any]
) -> None:
    competition = drawn["competition"]
    hall = Venue.objects.create(club=people.club, name="Sala grande", address="Via Roma 1")
    plan(competition, 1, datetime(2027, 3, 29, 21, 0), venue=hall)
    ScheduledRound.objects.create(competition=competition, number=2)  # no day yet
    url = reverse("calendar-page", args=["prova", competition.slug])
    member = Client(HTTP_ACCEPT_LANGUAGE="it")
    page = member.get(url).content.decode()
    assert "Aggiungi al calendario" in page and "webcal://" in page and "Sala grande" in page
    one = member.get(reverse("calendar-round", args=["prova", competition.slug, 1]))
    assert one.status_code == 200 and b"DTSTART;TZID=Europe/Rome:20270329T210000" in one.content
    (event,) = icalendar.Calendar.from_ical(one.content).walk("VEVENT")
    assert str(event["LOCATION"]) == "Sala grande, Via Roma 1"
    assert (
        member.get(reverse("calendar-round", args=["prova", competition.slug, 2])).status_code
        == 404
    )
    # The competition's page links to its calendar; an organiser's calendar page to the schedule.
    competition_page = member.get(reverse("competition", args=["prova", competition.slug]))
    assert url in competition_page.content.decode()
    organiser = Client()
    organiser.force_login(people.users["organiser"])
    assert (
        reverse("night-schedule", args=["prova", competition.slug])
        in organiser.get(url).content.decode()
    )
