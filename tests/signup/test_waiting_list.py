"""Sign-up with a cap: people register themselves, the ones above the cap wait and move up
in order when someone withdraws, one person signs up once, and closing enters the registered
in the competition through the enrolment path."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from ledger.clubs.errors import Conflict, NotAllowed
from ledger.clubs.models import Club, Competition, Membership, Player
from ledger.formats.models import Entrant
from ledger.signup import services
from ledger.signup.models import LogLine, Registration, SignUp
from tests.conftest import People

pytestmark = pytest.mark.django_db


def _open(people: People, competition: Competition, **kw: Any) -> Registration:
    data = services.Settings(who=Registration.Who.ANYONE, cap=3, fee=Decimal("10.00"))
    for name, value in kw.items():
        setattr(data, name, value)
    return services.save_registration(
        user=people.users["organiser"], competition=competition, data=data
    )


def _sign(competition: Competition, name: str, **kw: Any) -> SignUp:
    person = services.Person(name=name, email=f"{name.split()[0].lower()}@example.org", **kw)
    return services.sign_up(user=AnonymousUser(), competition=competition, person=person)


def _statuses(registration: Registration) -> list[tuple[str, str]]:
    return [(s.name, s.status) for s in registration.signups.order_by("number")]


def test_above_the_cap_people_wait_and_move_up_in_order_when_someone_withdraws(
    people: People, manual_competition: Competition, django_capture_on_commit_callbacks: Any
) -> None:
    registration = _open(people, manual_competition)
    moved: list[str] = []

    def heard(signup: SignUp, **_: Any) -> None:
        moved.append(signup.name)

    services.moved_up.connect(heard)
    try:
        names = ["Anna Bianchi", "Bruno Neri", "Carla Rossi", "Dario Verdi", "Elena Galli"]
        made = [_sign(manual_competition, n) for n in names]
        assert [s.status for s in made] == ["registered"] * 3 + ["waiting"] * 2
        assert services.places_left(registration) == 0
        with django_capture_on_commit_callbacks(execute=True):
            freed = services.withdraw(user=people.users["organiser"], signup=made[1])
        assert [s.name for s in freed] == ["Dario Verdi"]
        assert moved == ["Dario Verdi"]  # told after the commit, for the notifications
        assert _statuses(registration) == [
            ("Anna Bianchi", "registered"),
            ("Bruno Neri", "withdrawn"),
            ("Carla Rossi", "registered"),
            ("Dario Verdi", "registered"),
            ("Elena Galli", "waiting"),
        ]
    finally:
        services.moved_up.disconnect(heard)
    whats = list(registration.log.values_list("what", flat=True))
    assert whats.count(LogLine.What.MOVED_UP) == 1
    assert whats.count(LogLine.What.WITHDRAWN) == 1


def test_a_larger_cap_gives_the_new_places_to_those_waiting(
    people: People, manual_competition: Competition
) -> None:
    registration = _open(people, manual_competition, cap=1)
    for name in ["Anna Bianchi", "Bruno Neri", "Carla Rossi"]:
        _sign(manual_competition, name)
    _open(people, manual_competition, cap=2)
    assert _statuses(registration) == [
        ("Anna Bianchi", "registered"),
        ("Bruno Neri", "registered"),
        ("Carla Rossi", "waiting"),
    ]


def test_one_person_signs_up_once_whatever_the_spelling(
    people: People, manual_competition: Competition
) -> None:
    registration = _open(people, manual_competition)
    _sign(manual_competition, "Niccolò Della Gherardesca")
    with pytest.raises(Conflict):
        _sign(manual_competition, "della gherardesca niccolo")
    # The database refuses it too, whatever path a second row takes.
    first = registration.signups.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        SignUp.objects.create(
            registration=registration, number=2, name="x", key=first.key, status="waiting", fee=0
        )
    assert registration.signups.count() == 1


def test_a_close_name_asks_did_you_mean_before_anyone_new_is_made(
    people: People, manual_competition: Competition
) -> None:
    _open(people, manual_competition)
    _sign(manual_competition, "Nicolò Della Gherardesca")
    with pytest.raises(services.DidYouMean) as asked:
        _sign(manual_competition, "Niccolò Della Gherardesca")
    assert asked.value.names == ["Nicolò Della Gherardesca"]
    assert SignUp.objects.count() == 1
    _sign(manual_competition, "Niccolò Della Gherardesca", not_them=True)
    assert SignUp.objects.count() == 2


def test_a_member_typing_their_name_differently_is_matched_to_the_member(
    people: People, manual_competition: Competition
) -> None:
    _open(people, manual_competition)
    member = people.extra[0]  # "Giocatore 0"
    done = _sign(manual_competition, "giocatore 0")
    assert done.player == member and done.name == "Giocatore 0"


def test_only_members_may_register_when_the_event_is_for_members(
    people: People, manual_competition: Competition, django_user_model: Any
) -> None:
    _open(people, manual_competition, who=Registration.Who.MEMBERS)
    with pytest.raises(NotAllowed):
        _sign(manual_competition, "Anna Bianchi")
    outsider = django_user_model.objects.create_user(username="out", password="x")
    with pytest.raises(NotAllowed):
        services.sign_up(
            user=outsider, competition=manual_competition, person=services.Person(name="Out")
        )
    mine = services.sign_up(
        user=people.users["member"], competition=manual_competition, person=services.Person()
    )
    assert mine.player == people.players["member"] and mine.status == "registered"


def test_a_membership_card_is_asked_at_its_field_when_required(
    people: People, manual_competition: Competition
) -> None:
    _open(people, manual_competition, card_required=True)
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    url = reverse("signup", args=[manual_competition.club.slug, manual_competition.slug])
    answer = client.post(url, {"name": "Anna Bianchi", "email": "anna@example.org"})
    assert answer.status_code == 400
    body = answer.content.decode()
    assert "tessera" in body and 'value="Anna Bianchi"' in body
    assert not SignUp.objects.exists()
    answer = client.post(url, {"name": "Anna Bianchi", "email": "anna@example.org", "card": "77"})
    assert answer.status_code == 302
    assert SignUp.objects.get().card == "77"


def test_closing_enters_the_registered_and_makes_members_of_newcomers(
    people: People, manual_competition: Competition, club: Club
) -> None:
    registration = _open(people, manual_competition, cap=2)
    _sign(manual_competition, "giocatore 1")  # a member, typed in lower case
    _sign(manual_competition, "Anna Bianchi")
    _sign(manual_competition, "Bruno Neri")  # waiting
    services.close_registration(user=people.users["organiser"], competition=manual_competition)
    entered = list(
        Entrant.objects.filter(competition=manual_competition)
        .order_by("number")
        .values_list("player__name", flat=True)
    )
    assert entered == ["Giocatore 1", "Anna Bianchi"]
    anna = Player.objects.get(name="Anna Bianchi")
    assert Membership.objects.filter(club=club, player=anna).exists()
    assert not Player.objects.filter(name="Bruno Neri").exists()
    registration.refresh_from_db()
    assert registration.closed_at is not None
    with pytest.raises(Conflict):
        _sign(manual_competition, "Carla Rossi")


def test_people_register_themselves_from_the_event_page(
    people: People, manual_competition: Competition
) -> None:
    _open(people, manual_competition, cap=1)
    url = reverse("signup", args=[manual_competition.club.slug, manual_competition.slug])
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    page = client.get(url)
    assert page.status_code == 200 and "Iscriviti" in page.content.decode()
    client.post(url, {"name": "Anna Bianchi", "email": "anna@example.org"})
    answer = client.post(url, {"name": "Bruno Neri", "email": "bruno@example.org"}, follow=True)
    assert "lista d&#x27;attesa" in answer.content.decode()
    assert _statuses(Registration.objects.get()) == [
        ("Anna Bianchi", "registered"),
        ("Bruno Neri", "waiting"),
    ]


def test_the_organiser_opens_edits_and_closes_the_list_from_its_page(
    people: People, manual_competition: Competition
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["organiser"])
    args = [manual_competition.club.slug, manual_competition.slug]
    url = reverse("signup-manage", args=args)
    assert client.get(url).status_code == 200
    bad = client.post(url, {"action": "settings", "who": "anyone", "cap": "0", "fee": "5,5"})
    assert bad.status_code == 400 and not Registration.objects.exists()
    settings = {"action": "settings", "who": "anyone", "cap": "1", "fee": "5,50"}
    assert client.post(url, settings).status_code == 302
    assert Registration.objects.get().fee == Decimal("5.50")
    for name in ["Anna Bianchi", "Bruno Neri"]:
        client.post(url, {"action": "add", "add-name": name})
    page = client.get(url).content.decode()
    assert "Anna Bianchi" in page and 'id="waiting"' in page
    anna, bruno = SignUp.objects.order_by("number")
    client.post(url, {"action": "withdraw", "signup": anna.pk})
    bruno.refresh_from_db()
    assert bruno.status == "registered"
    pay = reverse("signup-payment", args=[*args, bruno.pk])
    client.post(pay, {"method": "card", "next": url})
    assert services.balance(bruno) == Decimal("0.00")
    client.post(url, {"action": "close"})
    assert list(
        Entrant.objects.filter(competition=manual_competition).values_list(
            "player__name", flat=True
        )
    ) == ["Bruno Neri"]
    assert client.get(url).status_code == 200
    assert client.get(reverse("signup", args=args)).status_code == 200
    member = Client()
    member.force_login(people.users["member"])
    assert member.get(url).status_code == 403


def test_fees_still_due_show_at_check_in_and_are_paid_at_the_tablet(
    people: People, manual_competition: Competition
) -> None:
    _open(people, manual_competition)
    _sign(manual_competition, "Giocatore 4")
    services.close_registration(user=people.users["organiser"], competition=manual_competition)
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["organiser"])
    args = [manual_competition.club.slug, manual_competition.slug]
    page = client.get(reverse("night-checkin", args=args)).content.decode()
    assert 'id="fees-due"' in page and "Giocatore 4" in page and "10,00 €" in page
    player = people.extra[4]
    tablet = reverse("night-tablet-confirm", args=[*args, player.pk])
    assert "Quota da pagare" in client.get(tablet).content.decode()
    signup = SignUp.objects.get()
    answer = client.post(
        reverse("signup-payment", args=[*args, signup.pk]), {"method": "cash", "next": tablet}
    )
    assert answer["Location"] == tablet
    assert 'id="tablet-fee-paid"' in client.get(tablet).content.decode()
