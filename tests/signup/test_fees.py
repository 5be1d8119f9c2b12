"""Fees in exact euros: the rate each person pays, payments and refunds by method, and the
treasurer's report per event and per season summing them to the cent, in every file."""

from __future__ import annotations

import csv
import io
from datetime import date
from decimal import Decimal
from typing import Any

import openpyxl
import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse

from ledger.clubs.errors import Invalid, NotAllowed
from ledger.clubs.models import Competition, Season
from ledger.signup import services, treasury
from ledger.signup.models import Payment, Registration, SignUp
from tests.conftest import People

pytestmark = pytest.mark.django_db
D = Decimal


def _setup(people: People, competition: Competition) -> None:
    services.save_registration(
        user=people.users["organiser"],
        competition=competition,
        data=services.Settings(
            who=Registration.Who.ANYONE,
            cap=4,
            fee=D("12.50"),
            fee_member=D("8.00"),
            fee_junior=D("5.25"),
        ),
    )


def _sign(competition: Competition, name: str, junior: bool = False) -> SignUp:
    return services.sign_up(
        user=AnonymousUser(),
        competition=competition,
        person=services.Person(name=name, email="x@example.org", junior=junior),
    )


def test_each_person_pays_the_lowest_fee_they_are_entitled_to(
    people: People, manual_competition: Competition
) -> None:
    _setup(people, manual_competition)
    full = _sign(manual_competition, "Anna Bianchi")
    member = _sign(manual_competition, "Giocatore 2")
    junior = _sign(manual_competition, "Bruno Neri", junior=True)
    junior_member = _sign(manual_competition, "Giocatore 3", junior=True)
    assert [(s.rate, s.fee) for s in (full, member, junior, junior_member)] == [
        ("full", D("12.50")),
        ("member", D("8.00")),
        ("junior", D("5.25")),
        ("junior", D("5.25")),
    ]


def test_the_report_sums_payments_and_refunds_by_method_to_the_cent(
    people: People, manual_competition: Competition, club: Any
) -> None:
    season = Season.objects.create(
        club=club, name="2026", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    manual_competition.season = season
    manual_competition.save()
    _setup(people, manual_competition)
    organiser = people.users["organiser"]
    anna = _sign(manual_competition, "Anna Bianchi")  # 12.50
    member = _sign(manual_competition, "Giocatore 2")  # 8.00
    junior = _sign(manual_competition, "Bruno Neri", junior=True)  # 5.25
    carla = _sign(manual_competition, "Carla Rossi")  # 12.50, withdraws after paying
    services.pay(user=organiser, signup=anna, method=Payment.Method.CASH)
    services.pay(user=organiser, signup=member, method=Payment.Method.CARD, amount=D("3.10"))
    services.pay(user=organiser, signup=member, method=Payment.Method.TRANSFER)  # 4.90 left
    services.pay(user=organiser, signup=carla, method=Payment.Method.CASH)
    services.withdraw(user=organiser, signup=carla)
    services.refund(user=organiser, signup=carla, method=Payment.Method.CASH, amount=D("10.00"))
    with pytest.raises(Invalid):
        services.pay(user=organiser, signup=anna, method=Payment.Method.CASH)  # nothing left
    with pytest.raises(Invalid):
        services.refund(user=organiser, signup=carla, method=Payment.Method.CASH, amount=D("3"))
    with pytest.raises(NotAllowed):
        services.pay(user=people.users["member"], signup=junior, method=Payment.Method.CASH)

    report = treasury.event_report(manual_competition)
    total = report.total
    # By hand: due 12.50 + 8.00 + 5.25 (Carla withdrew: nothing due) = 25.75; in: 12.50 cash,
    # 3.10 card, 4.90 transfer, Carla 12.50 cash less 10.00 back = 2.50 cash.
    assert total.due == D("25.75")
    assert total.paid == D("23.00")
    assert total.by_method == {"cash": D("15.00"), "card": D("3.10"), "transfer": D("4.90")}
    assert total.refunded == D("10.00")
    assert total.balance == D("2.75")  # Bruno's 5.25 due, less Carla's 2.50 still held
    assert all(isinstance(v, Decimal) for v in report.rows()[-1][3:])

    season_total = treasury.season_report(season).total
    assert (season_total.due, season_total.paid, season_total.count) == (
        D("25.75"),
        D("23.00"),
        4,
    )

    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(organiser)
    args = [club.slug, manual_competition.slug]
    page = client.get(reverse("signup-report", args=args))
    assert page.status_code == 200 and "25,75" in page.content.decode().replace("25.75", "25,75")
    text = client.get(reverse("signup-report-file", args=[*args, "csv"])).content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[-1][3:] == ["25.75", "23.00", "15.00", "3.10", "4.90", "10.00", "2.75"]
    book = openpyxl.load_workbook(
        io.BytesIO(client.get(reverse("signup-report-file", args=[*args, "xlsx"])).content)
    )
    sheet = book.active
    assert sheet.freeze_panes == "A2"
    last = [c.value for c in sheet[sheet.max_row]]
    assert last[3:] == [25.75, 23, 15, 3.1, 4.9, 10, 2.75]
    pdf = client.get(reverse("signup-report-file", args=[*args, "pdf"]))
    assert pdf.content.startswith(b"%PDF")
    ods = client.get(reverse("season-fees-file", args=[club.slug, season.pk, "ods"]))
    assert ods.status_code == 200 and ods.content[:2] == b"PK"
    assert client.get(reverse("season-fees", args=[club.slug, season.pk])).status_code == 200
    stranger = Client()
    stranger.force_login(people.users["member"])
    assert stranger.get(reverse("signup-report", args=args)).status_code == 403


def test_a_bad_amount_is_refused_at_its_field_and_nothing_is_written(
    people: People, manual_competition: Competition
) -> None:
    _setup(people, manual_competition)
    anna = _sign(manual_competition, "Anna Bianchi")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["organiser"])
    url = reverse(
        "signup-payment", args=[manual_competition.club.slug, manual_competition.slug, anna.pk]
    )
    answer = client.post(url, {"method": "cash", "amount": "12.505"}, follow=True)
    assert "Anna Bianchi" in answer.content.decode()
    assert not Payment.objects.exists()
    client.post(url, {"method": "cash", "amount": "5"})
    assert services.balance(anna) == D("7.50")
