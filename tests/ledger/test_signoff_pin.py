"""Sign-off on the scorekeeper's phone: a player sets a PIN of their own on their page, and
with sign-off at the table confirms a pending result by typing it; wrong PINs are limited."""

from __future__ import annotations

import pytest
from django.core.cache import caches

from ledger.clubs.errors import Invalid, NotAllowed
from ledger.clubs.models import Result
from ledger.clubs.results import selectors, services
from tests.ledger.helpers import record, use


@pytest.fixture(autouse=True)
def _fresh_limits():
    caches["limits"].clear()
    yield
    caches["limits"].clear()


def _with_login(table, index, django_user_model, name):
    player = table.seats.get(index=index).player
    player.user = django_user_model.objects.create_user(username=name, password="x")
    player.save()
    return player


def test_a_player_sets_their_pin_on_their_own_page_and_it_is_stored_hashed(
    client, people, manual_table, django_user_model
):
    player = _with_login(manual_table, 1, django_user_model, "seated")
    client.force_login(player.user)
    page = client.get(f"/c/prova/p/{player.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="signoff-pin"' in page
    client.post(f"/c/prova/p/{player.pk}/pin/", {"pin": "4821"})
    player.refresh_from_db()
    assert player.signoff_pin and "4821" not in player.signoff_pin


def test_a_pin_is_4_to_6_digits_and_only_the_player_sets_it(
    people, manual_table, django_user_model
):
    player = _with_login(manual_table, 1, django_user_model, "seated")
    with pytest.raises(Invalid):
        services.set_signoff_pin(user=player.user, player=player, pin="12")
    with pytest.raises(NotAllowed):
        services.set_signoff_pin(user=people.users["scorekeeper"], player=player, pin="1234")


def test_a_seated_player_signs_off_on_the_scorekeepers_phone_with_their_pin(
    client, people, manual_table, django_user_model
):
    use(manual_table.competition, "opponents")
    player = _with_login(manual_table, 1, django_user_model, "seated")
    services.set_signoff_pin(user=player.user, player=player, pin="4821")
    result = record(people, manual_table, [5, 1])
    client.force_login(people.users["scorekeeper"])
    page = client.get(f"/c/prova/coppa/r/{result.pk}/").content.decode()
    assert 'id="pin-form"' in page
    url = f"/c/prova/coppa/r/{result.pk}/pin/"
    client.post(url, {"player": player.pk, "pin": "0000"})
    result.refresh_from_db()
    assert result.status == Result.Status.PENDING
    client.post(url, {"player": player.pk, "pin": "4821"})
    result.refresh_from_db()
    assert result.status == Result.Status.ACCEPTED and result.confirmed_by == player.user


def test_five_wrong_pins_lock_the_player_out_even_with_the_right_one(
    client, people, manual_table, django_user_model
):
    use(manual_table.competition, "opponents")
    player = _with_login(manual_table, 1, django_user_model, "seated")
    services.set_signoff_pin(user=player.user, player=player, pin="4821")
    result = record(people, manual_table, [5, 1])
    client.force_login(people.users["scorekeeper"])
    url = f"/c/prova/coppa/r/{result.pk}/pin/"
    for wrong in ("1111", "2222", "3333", "4444", "5555"):
        client.post(url, {"player": player.pk, "pin": wrong})
    response = client.post(url, {"player": player.pk, "pin": "4821"}, follow=True)
    result.refresh_from_db()
    assert result.status == Result.Status.PENDING
    assert "Too many wrong PINs" in response.content.decode() or "Troppi PIN" in (
        response.content.decode()
    )


def test_no_pin_sign_off_where_the_players_do_not_confirm(people, manual_table, django_user_model):
    use(manual_table.competition, "second_person")
    player = _with_login(manual_table, 1, django_user_model, "seated")
    services.set_signoff_pin(user=player.user, player=player, pin="4821")
    result = record(people, manual_table, [5, 1])
    assert selectors.pin_signers(result) == []
    with pytest.raises(NotAllowed):
        services.confirm_with_pin(result=result, player=player, pin="4821")
