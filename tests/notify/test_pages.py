"""The notifications' pages: a person's choices saved and kept, the one-tap unsubscribe, the
club's log for organisers only, the competition's calendar page."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from ledger.notify import sending
from ledger.notify.models import Preferences


def logged_in(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def test_a_person_saves_their_choices_and_finds_them_again(people: Any) -> None:
    client = logged_in(people.users["member"])
    page = client.get(reverse("notify-settings"))
    assert page.status_code == 200
    assert "My seat for the next round" in page.content.decode()
    answer = client.post(
        reverse("notify-settings"),
        {"email": "me@example.org", "language": "en", "seat__email": "on", "bye__push": "on"},
    )
    assert answer.status_code == 302
    prefs = Preferences.objects.get(player=people.players["member"])
    assert prefs.email == "me@example.org"
    assert prefs.wants("seat", "email") and prefs.wants("bye", "push")
    assert not prefs.wants("seat", "push") and not prefs.wants("announcement", "email")
    again = client.get(reverse("notify-settings")).content.decode()
    assert 'value="me@example.org"' in again


def test_a_bad_address_is_refused_at_its_field_and_kept(people: Any) -> None:
    client = logged_in(people.users["member"])
    page = client.post(reverse("notify-settings"), {"email": "not-an-address", "language": "en"})
    assert page.status_code == 200
    body = page.content.decode()
    assert 'value="not-an-address"' in body and 'aria-invalid="true"' in body
    member = people.players["member"]
    assert not Preferences.objects.filter(player=member).exclude(email="").exists()


def test_the_pages_speak_italian(people: Any) -> None:
    body = logged_in(people.users["member"], "it").get(reverse("notify-settings")).content
    assert "Il mio posto nel prossimo turno" in body.decode()


def test_one_tap_unsubscribes_from_the_link_in_a_message(people: Any) -> None:
    player = people.players["member"]
    token = sending.unsubscribe_token(player.pk, "seat", "email")
    url = reverse("notify-unsubscribe", args=[token])
    page = Client().get(url)
    assert page.status_code == 200 and "confirm-unsubscribe" in page.content.decode()
    assert not Preferences.objects.filter(player=player).exists()  # a GET changes nothing
    done = Client().post(url)
    assert done.status_code == 200 and "unsubscribed" in done.content.decode()
    assert not Preferences.objects.get(player=player).wants("seat", "email")
    # The mail program's own one-click button (RFC 8058) posts too.
    other = sending.unsubscribe_token(player.pk, "bye", "email")
    Client().post(reverse("notify-unsubscribe", args=[other]), {"List-Unsubscribe": "One-Click"})
    assert not Preferences.objects.get(player=player).wants("bye", "email")


def test_a_forged_unsubscribe_link_changes_nothing(people: Any) -> None:
    token = sending.unsubscribe_token(people.players["member"].pk, "seat", "email")
    page = Client().post(reverse("notify-unsubscribe", args=[token[:-3] + "abc"]))
    assert page.status_code == 400
    assert not Preferences.objects.exists()


def test_only_organisers_read_the_club_log(people: Any) -> None:
    url = reverse("notify-log", args=[people.club.slug])
    assert logged_in(people.users["member"]).get(url).status_code == 302
    page = logged_in(people.users["organiser"]).get(url)
    assert page.status_code == 200
    assert "What was sent to whom" in page.content.decode()
