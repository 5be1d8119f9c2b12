from __future__ import annotations

import base64
import io
import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger.clubs.journal.journal import verify_chain
from ledger.clubs.models import Entry, Membership, Player, Result, Standing, Table
from ledger.clubs.results.services import record_result
from ledger.formats import services as formats
from ledger.formats.models import Draw
from ledger.night import services
from ledger.night.models import CheckIn, NightSettings
from tests.night.conftest import enter, night_competition

pytestmark = pytest.mark.django_db


def _login(people: Any, who: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users[who])
    return client


def _published(people: Any, competition: Any) -> list[Table]:
    draw = formats.generate_round(user=people.users["organiser"], competition=competition)
    formats.publish_draw(user=people.users["organiser"], draw=draw)
    return list(Table.objects.filter(round=draw.round).order_by("id"))


def test_a_player_checks_in_by_the_venue_code_on_their_phone(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    member = people.players["member"]
    enter(people, competition, 7)
    formats.enter_player(user=people.users["organiser"], competition=competition, player=member)
    organiser = _login(people, "organiser")
    page = organiser.get(reverse("night-checkin", args=[club.slug, competition.slug]))
    assert page.status_code == 200
    url = re.search(r'href="(http://testserver/c/[^"]+/checkin/1/[^"]+/)"', page.content.decode())
    assert url is not None
    path = url.group(1).removeprefix("http://testserver")
    anonymous = Client()
    assert anonymous.get(path).status_code == 302  # sign in first
    phone = _login(people, "member")
    assert b"I am here" in phone.get(path).content
    done = phone.post(path)
    assert done.status_code == 200 and b"you are checked in" in done.content
    assert CheckIn.objects.get(competition=competition, player=member).how == "phone"
    forged = path.rsplit("/", 2)[0] + "/not-the-code/"
    assert phone.get(forged).status_code == 404


def test_the_tablet_checks_in_on_a_second_tap_and_the_draw_takes_only_those_here(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    players = enter(people, competition, 9)
    tablet = _login(people, "organiser")
    for p in players[:8]:
        confirm = reverse("night-tablet-confirm", args=[club.slug, competition.slug, p.pk])
        assert p.name.encode() in tablet.get(confirm).content
        assert not CheckIn.objects.filter(player=p).exists()  # looking is not checking in
        tablet.post(confirm)
    assert CheckIn.objects.filter(competition=competition, round_number=1).count() == 8
    listing = tablet.get(reverse("night-checkin", args=[club.slug, competition.slug]))
    assert re.search(rb'id="here-count">8<', listing.content)
    assert re.search(rb'id="missing-count">1<', listing.content)
    tablet.post(reverse("night-checkin", args=[club.slug, competition.slug]), {"action": "draw"})
    draw = Draw.objects.get(round__competition=competition, round__number=1)
    seated = {p for t in draw.tables for p in t["players"]}
    assert seated == {p.pk for p in players[:8]}
    assert players[8].pk in draw.sitting_out or players[8].pk not in seated


def test_the_draw_page_says_which_tables_miss_results_and_which_disputes_are_open(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    enter(people, competition, 8)
    formats.update_settings(
        user=people.users["organiser"], competition=competition, hands_per_table=1
    )
    one, two = _published(people, competition)
    record_result(
        user=people.users["scorekeeper"], table=one, source="manual", scores=[1, 0, 0, -1]
    )
    page = _login(people, "organiser").get(
        reverse("formats-manage", args=[club.slug, competition.slug])
    )
    text = page.content.decode()
    assert "Results missing at: " + two.label in text
    assert one.label + " (" not in text


def test_the_clock_runs_pauses_and_gives_one_table_extra_minutes(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    enter(people, competition, 8)
    one, two = _published(people, competition)
    organiser = _login(people, "organiser")
    clock = reverse("night-clock", args=[club.slug, competition.slug])
    organiser.post(clock, {"action": "start", "minutes": "45"})
    organiser.post(clock, {"action": "extra", "table": one.pk, "minutes": "7"})
    data = organiser.get(reverse("night-clock-json", args=[club.slug, competition.slug, 1])).json()
    assert data["state"] == "running"
    assert 44 * 60 < data["left"] <= 45 * 60
    assert data["tables"][str(one.pk)]["left"] - data["tables"][str(two.pk)]["left"] == 7 * 60
    assert data["tables"][str(one.pk)]["extra"] == 7
    organiser.post(clock, {"action": "pause"})
    paused = services.clock_state(one.round)
    assert paused is not None and paused["state"] == "paused"
    organiser.post(clock, {"action": "resume"})
    entry = organiser.get(reverse("score-entry", args=[club.slug, competition.slug, one.pk]))
    assert b"7 extra minutes for this table" in entry.content
    organiser.post(clock, {"action": "end"})
    assert services.clock_state(one.round)["state"] == "ended"  # type: ignore[index]


@pytest.mark.parametrize(
    ("mode", "fixed", "credited"),
    [("substitute", "0", Decimal(3)), ("nobody", "0", Decimal(0)), ("fixed", "-1", Decimal(-2))],
)
def test_a_substitute_from_a_given_hand_is_credited_as_the_competition_says(
    club: Any, people: Any, points_game: str, mode: str, fixed: str, credited: Decimal
) -> None:
    competition = night_competition(club)
    enter(people, competition, 4)
    (table,) = _published(people, competition)
    settings = services.settings_for(competition)
    settings.substitute_points, settings.substitute_fixed = mode, Decimal(fixed)
    settings.save()
    seats = dict(table.seats.values_list("index", "player_id"))
    leaving = Player.objects.get(pk=seats[0])
    for scores in ([4, 0, 0, -4], [1, 1, -1, -1], [2, 0, -1, -1]):
        record_result(user=people.users["scorekeeper"], table=table, source="manual", scores=scores)
    sub = Player.objects.create(name="Sostituto")
    Membership.objects.create(club=club, player=sub)
    services.replace_player(
        user=people.users["organiser"], table=table, seat=0, substitute=sub, from_hand=2
    )
    record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[0, 0, 0, 0]
    )
    assert Standing.objects.get(competition=competition, player=leaving).points == Decimal(4)
    assert Standing.objects.get(competition=competition, player=sub).points == credited
    assert Standing.objects.get(competition=competition, player=sub).played == 3
    # Who sat where for every hand, from the journal.
    by_hand = services.seating_by_hand(table)
    assert [h["seats"][0]["name"] for h in by_hand] == [
        leaving.name,
        "Sostituto",
        "Sostituto",
        "Sostituto",
    ]
    assert verify_chain(club) == []


def test_a_mis_seated_table_is_re_seated_with_its_hands_after_a_preview(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    enter(people, competition, 4)
    (table,) = _published(people, competition)
    a, b, c, d = [s.player_id for s in table.seats.order_by("index")]
    record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[5, -1, -2, -2]
    )
    record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[3, -1, -1, -1]
    )
    organiser = _login(people, "organiser")
    page = reverse("night-table", args=[club.slug, competition.slug, table.pk])
    lines_before = Entry.objects.count()
    preview = organiser.post(page, {"action": "preview", "order": [b, a, c, d]})
    assert preview.status_code == 200 and b"reseat-apply" in preview.content
    assert Entry.objects.count() == lines_before  # a preview writes nothing
    organiser.post(page, {"action": "reseat", "order": [b, a, c, d]})
    points = dict(
        Standing.objects.filter(competition=competition).values_list("player_id", "points")
    )
    assert points[b] == Decimal(8) and points[a] == Decimal(-2)
    assert Result.objects.filter(table=table, status="accepted").count() == 2
    assert Result.objects.filter(table=table, status="superseded").count() == 2
    assert Entry.objects.filter(kind="reversal", table=table).count() == 8
    assert list(table.seats.order_by("index").values_list("player_id", flat=True)) == [b, a, c, d]
    assert verify_chain(club) == []


def test_night_settings_keep_what_was_typed_and_say_what_is_wrong(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    organiser = _login(people, "organiser")
    url = reverse("night-settings", args=[club.slug, competition.slug])
    bad = organiser.post(
        url,
        {
            "round_minutes": "0",
            "at_time": "stop",
            "substitute_points": "fixed",
            "substitute_fixed": "abc",
        },
    )
    assert bad.status_code == 400
    assert b'value="abc"' in bad.content and b"Give the minutes" in bad.content
    organiser.post(
        url,
        {
            "round_minutes": "50",
            "at_time": "stop",
            "substitute_points": "fixed",
            "substitute_fixed": "-1,5",
        },
    )
    saved = NightSettings.objects.get(competition=competition)
    assert (saved.round_minutes, saved.at_time, saved.substitute_fixed) == (
        50,
        "stop",
        Decimal("-1.5"),
    )


def _decode_png(data: bytes) -> list[str]:
    import zxingcpp
    from PIL import Image

    image = Image.open(io.BytesIO(data)).convert("L")
    return [
        r.text for r in zxingcpp.read_barcodes(image) if r.format == zxingcpp.BarcodeFormat.QRCode
    ]


def test_the_printed_pairings_qr_codes_open_each_tables_score_entry(
    club: Any, people: Any, points_game: str
) -> None:
    from pypdf import PdfReader

    competition = night_competition(club)
    enter(people, competition, 12)
    tables = _published(people, competition)
    organiser = _login(people, "organiser")
    page = organiser.get(reverse("night-print-pairings", args=[club.slug, competition.slug, 1]))
    found = re.findall(
        r'data-table="(\d+)">.*?src="data:image/png;base64,([^"]+)"', page.content.decode(), re.S
    )
    assert len(found) == len(tables) == 3
    for table_id, png in found:
        (url,) = _decode_png(base64.b64decode(png))
        path = url.removeprefix("http://testserver")
        assert path == reverse("score-entry", args=[club.slug, competition.slug, int(table_id)])
        opened = organiser.get(path)
        assert opened.status_code == 200
        assert Table.objects.get(pk=table_id).label.encode() in opened.content
    pdf = organiser.get(
        reverse("night-print-pairings", args=[club.slug, competition.slug, 1]) + "?format=pdf"
    )
    assert pdf["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(pdf.content))
    decoded = [text for p in reader.pages for image in p.images for text in _decode_png(image.data)]
    expected = {
        "http://testserver" + reverse("score-entry", args=[club.slug, competition.slug, t.pk])
        for t in tables
    }
    assert sorted(decoded) == sorted(expected)
    for kind in ("tents", "sheets"):
        for suffix in ("", "?format=pdf"):
            answer = organiser.get(
                reverse(f"night-print-{kind}", args=[club.slug, competition.slug, 1]) + suffix
            )
            assert answer.status_code == 200
    standings_pdf = organiser.get(
        reverse("night-print-standings", args=[club.slug, competition.slug]) + "?format=pdf"
    )
    assert standings_pdf.content.startswith(b"%PDF")


def test_a_penalty_shows_on_the_players_page_with_its_reason_until_cancelled(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    player = enter(people, competition, 4)[0]  # only an entrant is penalised
    referee = _login(people, "referee")
    url = reverse("night-penalties", args=[club.slug, competition.slug])
    bad = referee.post(url, {"player": player.pk, "points": "-3", "reason": "Telefono"})
    assert bad.status_code == 400 and b'value="-3"' in bad.content
    referee.post(url, {"player": player.pk, "points": "3", "reason": "Telefono squillato"})
    mine = (
        Client(HTTP_ACCEPT_LANGUAGE="en")
        .get(reverse("player", args=[club.slug, player.pk]))
        .content.decode()
    )
    assert "Telefono squillato" in mine and "-3" in mine
    penalty = player.penalties.get()
    referee.post(url, {"action": "cancel", "penalty": penalty.pk, "cancel_reason": "Errore"})
    mine = (
        Client(HTTP_ACCEPT_LANGUAGE="en")
        .get(reverse("player", args=[club.slug, player.pk]))
        .content.decode()
    )
    assert "cancelled: Errore" in mine
    assert Standing.objects.get(competition=competition, player=player).points == 0
    member = _login(people, "member")
    assert member.post(url, {"player": player.pk, "points": "1", "reason": "x"}).status_code == 403


def test_a_score_sheets_seat_headings_fit_their_columns() -> None:
    from ledger.night.printing import _fitted_cell, _Sheet

    doc = _Sheet("sheet")
    doc.add_page()
    doc.set_font("Helvetica", "B", 9)
    short, size = _fitted_cell(doc, "1. Lucia", 42.5, 7)
    assert (short, size) == ("1. Lucia", 9.0)
    smaller, size = _fitted_cell(doc, "2. Bonaccorso Dell'Agnello", 42.5, 7)
    assert smaller == "2. Bonaccorso Dell'Agnello" and size < 9
    cut, size = _fitted_cell(doc, "3. Maria Vittoria Gherardesca della Rocca di Pisa", 30, 7)
    assert cut.endswith("...") and cut.startswith("3. Maria") and size == 6
    doc.set_font_size(size)
    assert doc.get_string_width(cut) <= 30 - 2 * doc.c_margin
