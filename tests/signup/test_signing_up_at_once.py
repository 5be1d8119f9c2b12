"""Many people signing up at the same moment never take more places than the cap: each
sign-up holds the registration's row while it counts the places left."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection, connections

from ledger.clubs.models import Competition
from ledger.signup import services
from ledger.signup.models import Registration, SignUp
from tests.conftest import People

NEEDS_PG = "threads writing at once need PostgreSQL"


@pytest.mark.skipif(connection.vendor != "postgresql", reason=NEEDS_PG)
@pytest.mark.usefixtures("transactional_db")
def test_twelve_people_at_once_for_five_places_leave_seven_waiting(
    people: People, manual_competition: Competition
) -> None:
    services.save_registration(
        user=people.users["organiser"],
        competition=manual_competition,
        data=services.Settings(who=Registration.Who.ANYONE, cap=5, fee=Decimal(3)),
    )
    names = [f"Persona {chr(ord('A') + n)}{chr(ord('a') + n)}" for n in range(12)]
    barrier = threading.Barrier(len(names))
    problems: list[str] = []

    def signs_up(name: str) -> None:
        try:
            barrier.wait()
            services.sign_up(
                user=AnonymousUser(),
                competition=manual_competition,
                person=services.Person(name=name, email="x@example.org", not_them=True),
            )
        except Exception as exc:
            problems.append(repr(exc))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=signs_up, args=(n,)) for n in names]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert problems == []
    signups = list(SignUp.objects.order_by("number"))
    assert [s.number for s in signups] == list(range(1, 13))
    assert [s.status for s in signups] == ["registered"] * 5 + ["waiting"] * 7
