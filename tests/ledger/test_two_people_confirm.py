"""Confirmation means two people: the second has nothing to gain from the result. Nobody
who played at the table confirms it as the second person (a scorekeeper or an organiser
neither), and a sign-off at the table comes from the side the result went against."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.utils import translation

from ledger.clubs.errors import NotAllowed
from ledger.clubs.models import Entry, Result
from ledger.clubs.results import selectors, services
from ledger.clubs.results.services import create_table
from tests.ledger.helpers import record, use


@pytest.fixture(autouse=True)
def _fresh_limits():
    caches["limits"].clear()
    # The refusals are asserted in English; the Italian is the translations' test's.
    with translation.override("en"):
        yield
    caches["limits"].clear()


def _table_with(people, competition, first, others, label="T2"):
    """A two-seat table of ``competition`` with ``first`` (a person of ``people``) in seat 0."""
    return create_table(
        user=people.users["organiser"],
        competition=competition,
        label=label,
        players=[people.players[first], *others],
    )


def _login_for(player, django_user_model, name):
    player.user = django_user_model.objects.create_user(username=name, password="x")
    player.save()
    return player.user


def test_a_scorekeeper_who_played_at_the_table_is_not_the_second_person(
    client, people, manual_table
):
    competition = manual_table.competition
    use(competition, "second_person")
    table = _table_with(people, competition, "scorekeeper2", [people.extra[3]])
    result = record(people, table, [5, 1])
    with pytest.raises(NotAllowed) as refused:
        services.confirm_result(user=people.users["scorekeeper2"], result=result)
    assert "You played at this table" in refused.value.message
    result.refresh_from_db()
    assert result.status == Result.Status.PENDING and not Entry.objects.exists()
    assert result not in selectors.confirmable(people.users["scorekeeper2"], competition)
    client.force_login(people.users["scorekeeper2"])
    page = client.get(f"/c/prova/coppa/r/{result.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="cannot-confirm"' in page and "You played at this table" in page
    assert 'id="confirm"' not in page
    # A scorekeeper who did not play there is the second person.
    services.confirm_result(user=people.users["referee"], result=result)
    result.refresh_from_db()
    assert result.status == Result.Status.ACCEPTED


def test_an_organiser_cannot_confirm_her_own_tables_results_even_together(people, manual_table):
    competition = manual_table.competition
    use(competition, "second_person")
    elsewhere = record(people, manual_table, [2, 3])
    hers = record(people, _table_with(people, competition, "organiser", [people.extra[4]]), [4, 0])
    organiser = people.users["organiser"]
    assert list(selectors.confirmable(organiser, competition)) == [elsewhere]
    with pytest.raises(NotAllowed):
        services.confirm_results(
            user=organiser, competition=competition, ids=[elsewhere.pk, hers.pk]
        )
    assert set(Result.objects.values_list("status", flat=True)) == {Result.Status.PENDING}
    assert not Entry.objects.exists()


def test_blind_re_entry_is_never_typed_by_a_player_of_the_table(people, manual_table):
    competition = manual_table.competition
    use(competition, "blind")
    result = record(
        people, _table_with(people, competition, "scorekeeper2", [people.extra[3]]), [5, 1]
    )
    with pytest.raises(NotAllowed):
        services.reenter_result(
            user=people.users["scorekeeper2"], result=result, source="manual", scores=[5, 1]
        )
    result.refresh_from_db()
    assert result.status == Result.Status.PENDING


def test_the_player_who_gained_never_signs_off_with_a_pin(
    client, people, manual_table, django_user_model
):
    use(manual_table.competition, "opponents")
    winner, loser = (s.player for s in manual_table.seats.order_by("index"))
    for player, name in ((winner, "winner"), (loser, "loser")):
        services.set_signoff_pin(
            user=_login_for(player, django_user_model, name), player=player, pin="4821"
        )
    result = record(people, manual_table, [5, 1])  # typed by a scorekeeper who did not play
    assert selectors.pin_signers(result) == [loser]
    with pytest.raises(NotAllowed):
        services.confirm_with_pin(result=result, player=winner, pin="4821")
    with pytest.raises(NotAllowed) as refused:
        services.confirm_result(user=winner.user, result=result)
    assert "in your favour" in refused.value.message
    client.force_login(people.users["scorekeeper"])
    url = f"/c/prova/coppa/r/{result.pk}/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'<option value="{winner.pk}">' not in page and f'<option value="{loser.pk}">' in page
    answer = client.post(
        url + "pin/", {"player": winner.pk, "pin": "4821"}, follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "cannot sign this result off" in answer.content.decode()
    result.refresh_from_db()
    assert result.status == Result.Status.PENDING
    client.post(url + "pin/", {"player": loser.pk, "pin": "4821"})
    result.refresh_from_db()
    assert result.status == Result.Status.ACCEPTED and result.confirmed_by == loser.user


def test_the_side_that_entered_a_result_does_not_sign_it_off(
    people, manual_competition, django_user_model
):
    use(manual_competition, "opponents")
    partner, first_opponent, second_opponent = people.extra[:3]
    table = create_table(
        user=people.users["organiser"],
        competition=manual_competition,
        label="T4",
        players=[people.players["scorekeeper"], partner, first_opponent, second_opponent],
    )
    for player in (partner, first_opponent, second_opponent):
        _login_for(player, django_user_model, f"p{player.pk}")
    won = record(people, table, [3, 3, -3, -3])  # the scorekeeper and seat 1 won together
    with pytest.raises(NotAllowed) as refused:
        services.confirm_result(user=partner.user, result=won)
    assert "side of the player who entered it" in refused.value.message
    assert won not in selectors.confirmable(partner.user, manual_competition)
    assert won in selectors.confirmable(first_opponent.user, manual_competition)
    services.confirm_result(user=first_opponent.user, result=won)
    # Typed by the side that lost: the winners are its opponents and sign it off.
    lost = record(people, table, [-2, -2, 2, 2])
    services.confirm_result(user=second_opponent.user, result=lost)
    assert Result.objects.filter(status=Result.Status.ACCEPTED).count() == 2


def test_who_may_sign_off_is_named_only_to_those_who_may_see_the_sealed_result(
    client, people, manual_table, django_user_model
):
    """The players who may sign off are the side a result went against: naming them says
    who lost, so a member who may not read the waiting result is not told."""
    use(manual_table.competition, "opponents")
    _winner, loser = (s.player for s in manual_table.seats.order_by("index"))
    services.set_signoff_pin(
        user=_login_for(loser, django_user_model, "loser"), player=loser, pin="4821"
    )
    result = record(people, manual_table, [5, 1])
    url = f"/c/prova/coppa/r/{result.pk}/"

    def confirm_card(who):
        client.force_login(who)
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        return page.split('id="who-confirms"', 1)[1].split("</section>", 1)[0]

    hidden = confirm_card(people.users["member"])
    assert loser.name not in hidden and 'id="pin-form"' not in hidden
    shown = confirm_card(people.users["scorekeeper2"])
    assert f"({loser.name})" in shown and 'id="pin-form"' in shown
