"""Calendars (RFC 5545, written with the icalendar library): a club's feed (the rounds of all
its competitions), a competition's, and a person's own (the rounds they are drawn in, with
table and seat), at a secret address a phone's calendar subscribes to. Times are written in
Europe/Rome (the club's zone) with the zone's VTIMEZONE, so that a round at 21:00 stays at
21:00 across the change to and from summer time; a round with a day and no time is a
whole-day event."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import icalendar
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from ledger.clubs.models import Club, Competition, Player, Role, Round
from ledger.formats.models import Draw
from ledger.notify.models import Preferences
from ledger.notify.times import Dated, rounds_of, zone

PRODID = "-//Club ledger//Calendars//IT"


def event_for(dated: Dated, site: str) -> icalendar.Event:
    competition = dated.competition
    event = icalendar.Event()
    event.add("uid", f"round-{competition.pk}-{dated.number}@{site.split('://')[-1]}")
    title = _("%(competition)s, round %(round)d") % {
        "competition": competition.name,
        "round": dated.number,
    }
    if dated.place:
        title = f"{title} · {dated.place}"
    event.add("summary", title)
    if dated.starts_at is not None:
        start = dated.starts_at.astimezone(zone())
        event.add("dtstart", start)
        event.add("dtend", start + timedelta(minutes=dated.minutes or 60))
    else:
        event.add("dtstart", dated.day)
        event.add("dtend", dated.day + timedelta(days=1))
    event.add("dtstamp", timezone.now())
    event.add("location", dated.venue or competition.club.city or competition.club.name)
    url = f"{site}{reverse('competition', args=[competition.club.slug, competition.slug])}"
    event.add("url", url)
    lines = [competition.club.name, competition.name]
    if dated.place:
        lines.append(dated.place)
    lines.append(url)
    event.add("description", "\n".join(lines))
    return event


def calendar(name: str, dated: list[Dated]) -> bytes:
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", settings.TIME_ZONE)
    site = settings.LEDGER_SITE_URL
    for d in dated:
        cal.add_component(event_for(d, site))
    # The zone's VTIMEZONE, with its summer and winter rules, for every TZID used.
    cal.add_missing_timezones()
    return bytes(cal.to_ical())


def _answer(body: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "private, max-age=300"
    return response


def _language(request: HttpRequest) -> str:
    return getattr(request, "LANGUAGE_CODE", settings.LANGUAGE_CODE)


def club_feed(request: HttpRequest, club: str) -> HttpResponse:
    owner = get_object_or_404(Club, slug=club)
    competitions = list(Competition.objects.filter(club=owner))
    return _answer(calendar(owner.name, rounds_of(competitions)), f"{owner.slug}.ics")


def competition_feed(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    competition = get_object_or_404(Competition, club__slug=club, slug=slug)
    return _answer(calendar(competition.name, rounds_of([competition])), f"{competition.slug}.ics")


def round_file(request: HttpRequest, club: str, slug: str, number: int) -> HttpResponse:
    """One round, to add to a calendar with a tap."""
    competition = get_object_or_404(Competition, club__slug=club, slug=slug)
    found = [d for d in rounds_of([competition]) if d.number == number]
    if not found:
        raise Http404
    response = _answer(calendar(competition.name, found), f"{competition.slug}-{number}.ics")
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}-{number}.ics"'
    return response


def person_rounds(player: Player) -> list[Dated]:
    """The rounds a person is drawn in, with their table and seat (or bye)."""
    draws = list(
        Draw.objects.filter(status=Draw.Status.PUBLISHED).select_related("round__competition__club")
    )
    mine: dict[tuple[int, int], str] = {}
    competitions: dict[int, Competition] = {}
    for draw in draws:
        key = (draw.round.competition_id, draw.round.number)
        for t in draw.tables:
            if player.pk in t["players"]:
                mine[key] = _("table %(table)s, seat %(seat)d") % {
                    "table": t["label"],
                    "seat": t["players"].index(player.pk) + 1,
                }
        if player.pk in draw.byes:
            mine[key] = _("bye")
        if key in mine:
            competitions[draw.round.competition_id] = draw.round.competition
    out = []
    for d in rounds_of(list(competitions.values())):
        key = (d.competition.pk, d.number)
        if key in mine:
            d.place = mine[key]
            out.append(d)
    return out


def person_feed(request: HttpRequest, key: str) -> HttpResponse:
    prefs = Preferences.objects.filter(calendar_key=key).select_related("player").first()
    if prefs is None:
        raise Http404
    with translation.override(prefs.language):
        body = calendar(_("My rounds"), person_rounds(prefs.player))
    return _answer(body, "rounds.ics")


def _webcal(url: str) -> str:
    return "webcal://" + url.split("://", 1)[-1]


@never_cache
def competition_page(request: HttpRequest, club: str, slug: str) -> HttpResponse:
    """The competition's rounds with "add to calendar" and the feeds to subscribe to (the
    rounds' days, starts and venues are set on the night's schedule page)."""
    competition = get_object_or_404(
        Competition.objects.select_related("club"), club__slug=club, slug=slug
    )
    organiser = competition.club.allows(request.user, Role.ORGANISER)
    dated = {d.number: d for d in rounds_of([competition])}
    numbers = set(dated) | set(
        Round.objects.filter(competition=competition).values_list("number", flat=True)
    )
    rows: list[dict[str, Any]] = []
    for number in sorted(numbers):
        d = dated.get(number)
        rows.append(
            {
                "number": number,
                "starts_at": d.starts_at.astimezone(zone()) if d and d.starts_at else None,
                "day": d.day if d else None,
                "venue": d.venue if d else "",
                "file": reverse("calendar-round", args=[club, slug, number]) if d else "",
            }
        )
    feed = request.build_absolute_uri(reverse("calendar-competition", args=[club, slug]))
    club_feed_url = request.build_absolute_uri(reverse("calendar-club", args=[club]))
    return render(
        request,
        "notify/calendar.html",
        {
            "competition": competition,
            "club": competition.club,
            "organiser": organiser,
            "rows": rows,
            "feed": feed,
            "webcal": _webcal(feed),
            "club_feed": club_feed_url,
            "club_webcal": _webcal(club_feed_url),
        },
    )
