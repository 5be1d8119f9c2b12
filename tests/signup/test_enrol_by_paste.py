"""The enrolment by paste matches members as the sign-up does (ledger/formats/names.py):
accents, case, apostrophes and the order of the words aside, and asks "did you mean"
beside a new name close to a member's."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ledger.clubs.models import Club, Competition, Membership, Player
from ledger.formats.models import Entrant
from ledger.formats.office import match_names, pasted_names
from tests.conftest import People

pytestmark = pytest.mark.django_db


def test_pasted_names_find_members_however_typed_and_ask_about_close_ones(
    people: People, club: Club, manual_competition: Competition
) -> None:
    niccolo = Player.objects.create(name="Niccolò Della Gherardesca")
    Membership.objects.create(club=club, player=niccolo)
    names = pasted_names(
        "1. Niccolo Della Gherardesca\nDELLA GHERARDESCA niccolò\nGiocatore 3\nGiocatore 33\n"
    )
    assert names == ["Niccolo Della Gherardesca", "Giocatore 3", "Giocatore 33"]
    matched = match_names(club, names)
    assert matched.known == [niccolo, people.extra[3]]
    assert matched.new == ["Giocatore 33"]
    assert dict(matched.asked)["Giocatore 33"] == ["Giocatore 3"]

    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["organiser"])
    url = reverse("office-enrol", args=[club.slug, manual_competition.slug])
    asked = client.post(url, {"how": "paste", "names": "Niccolo Della Gherardesca\nGiocatore 33"})
    assert "Intendevi Giocatore 3?" in asked.content.decode()
    client.post(url, {"how": "paste", "names": "niccolo della gherardesca", "confirm": "1"})
    assert list(
        Entrant.objects.filter(competition=manual_competition).values_list("player", flat=True)
    ) == [niccolo.pk]
    assert Player.objects.filter(name__icontains="gherardesca").count() == 1
