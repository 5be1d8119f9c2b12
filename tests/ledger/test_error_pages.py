"""A wrong address or a missing role gets a page of the site, in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


@override_settings(DEBUG=False)
def test_a_missing_page_is_the_sites_own_page_in_italian() -> None:
    page = Client(HTTP_ACCEPT_LANGUAGE="it").get("/c/nessuno/niente/")
    assert page.status_code == 404
    text = page.content.decode()
    assert "Pagina non trovata" in text
    assert "Torna ai circoli" in text
    assert 'href="/"' in text


@override_settings(DEBUG=False)
def test_a_night_page_before_any_round_says_so_in_english(club: Any, people: Any) -> None:
    from ledger.clubs.models import Competition

    Competition.objects.create(club=club, name="Serata", slug="serata", game="tarocco")
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["organiser"])
    page = client.get(f"/c/{club.slug}/serata/night/screen/")
    assert page.status_code == 404
    assert "No round is published yet." in page.content.decode()
