"""Someone who moves up from a sign-up's waiting list is told they have a place, by e-mail
through a real SMTP server, in their language, once; nothing before the commit."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from ledger.clubs.models import Competition, Membership, Player
from ledger.notify import apps as notify_apps
from ledger.notify import tasks
from ledger.notify.models import Delivery, Kind, Preferences
from ledger.signup import services
from ledger.signup.models import Registration, SignUp
from tests.notify.conftest import Inbox, text_of

pytestmark = pytest.mark.django_db


def _full_event(people: Any, django_user_model: Any) -> tuple[Competition, list[SignUp]]:
    """A competition with two places and four people signed up: two wait. Everyone is a
    member with a login; Carla reads English, Dario Italian; Dario has no login address,
    only the one he signed up with."""
    club = people.club
    competition = Competition.objects.create(club=club, name="Coppa d'inverno", slug="inverno")
    services.save_registration(
        user=people.users["organiser"],
        competition=competition,
        data=services.Settings(who=Registration.Who.ANYONE, cap=2, fee=Decimal("5.00")),
    )
    made = []
    for name in ("Anna Bianchi", "Bruno Neri", "Carla Rossi", "Dario Verdi"):
        first = name.split()[0].lower()
        user = django_user_model.objects.create_user(
            username=first, password="pw", email="" if first == "dario" else f"{first}@login.org"
        )
        player = Player.objects.create(name=name, user=user)
        Membership.objects.create(club=club, player=player)
        if first == "carla":
            Preferences.objects.create(player=player, language="en")
        person = services.Person(name=name, email=f"{first}@signup.org")
        made.append(services.sign_up(user=AnonymousUser(), competition=competition, person=person))
    assert [s.status for s in made] == ["registered"] * 2 + ["waiting"] * 2
    assert all(s.player_id for s in made)
    return competition, made


def test_the_first_waiting_moves_up_and_is_told_in_their_language_once(
    inbox: Inbox,
    people: Any,
    django_user_model: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    _competition, made = _full_event(people, django_user_model)
    with django_capture_on_commit_callbacks(execute=False) as waiting:
        services.withdraw(user=people.users["organiser"], signup=made[0])
    assert inbox.messages == []  # nothing before the commit
    for callback in waiting:
        callback()
    (message,) = inbox.to("carla@login.org")
    assert len(inbox.messages) == 1
    assert message["Subject"] == "Coppa d'inverno: you have a place"
    assert message["Content-Language"] == "en"
    body = text_of(message)
    assert "A place has come free in Coppa d'inverno and it is yours" in body
    assert "https://ledger.example/c/prova/inverno/signup/" in body
    delivery = Delivery.objects.get()
    assert (delivery.kind, delivery.status) == (Kind.PLACE, Delivery.Status.SENT)
    # The same job run again sends nothing more.
    tasks.deliver.apply(args=[notify_apps.MOVED_UP, json.dumps({"signup": made[2].pk})])
    assert len(inbox.messages) == 1 and Delivery.objects.count() == 1


def test_the_organiser_moving_someone_up_tells_them_at_the_address_they_signed_up_with(
    inbox: Inbox,
    people: Any,
    django_user_model: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    _competition, made = _full_event(people, django_user_model)
    with django_capture_on_commit_callbacks(execute=True):
        services.move_up(user=people.users["organiser"], signup=made[3])
    (message,) = inbox.to("dario@signup.org")
    assert len(inbox.messages) == 1
    assert message["Subject"] == "Coppa d'inverno: hai un posto"
    assert "Si è liberato un posto in Coppa d'inverno ed è tuo" in text_of(message)


def test_a_place_switched_off_sends_nothing(
    inbox: Inbox,
    people: Any,
    django_user_model: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    _competition, made = _full_event(people, django_user_model)
    Preferences.objects.filter(player_id=made[2].player_id).update(muted=["place:email"])
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(user=people.users["organiser"], signup=made[0])
    assert inbox.messages == []
    assert SignUp.objects.get(pk=made[2].pk).status == SignUp.Status.REGISTERED
