"""Confirmation that explains itself: who confirms and why on the result page, Confirm as
prominent as Contest, and a night's or an import's waiting results confirmed together."""

from __future__ import annotations

import pytest

from ledger.clubs.errors import Conflict, NotAllowed
from ledger.clubs.models import Entry, Result
from ledger.clubs.results import selectors, services
from tests.ledger.helpers import record, use


def _seat_user(table, index, django_user_model, name):
    player = table.seats.get(index=index).player
    player.user = django_user_model.objects.create_user(username=name, password="x")
    player.save()
    return player.user


def test_confirming_several_results_counts_them_all_in_one_write(people, manual_table):
    use(manual_table.competition, "second_person")
    first = record(people, manual_table, [5, 1])
    second = record(people, manual_table, [2, 7])
    done = services.confirm_results(
        user=people.users["scorekeeper2"],
        competition=manual_table.competition,
        ids=[first.pk, second.pk],
    )
    assert {r.pk for r in done} == {first.pk, second.pk}
    for r in (first, second):
        r.refresh_from_db()
        assert r.status == Result.Status.ACCEPTED
        assert r.confirmed_by == people.users["scorekeeper2"]
    assert Entry.objects.count() == 4


def test_one_result_that_may_not_be_confirmed_leaves_every_other_pending(people, manual_table):
    use(manual_table.competition, "second_person")
    mine = record(people, manual_table, [5, 1], who="scorekeeper2")
    theirs = record(people, manual_table, [2, 7])
    with pytest.raises(NotAllowed) as caught:
        services.confirm_results(
            user=people.users["scorekeeper2"],
            competition=manual_table.competition,
            ids=[theirs.pk, mine.pk],
        )
    assert f" {mine.pk}" in caught.value.message or f"#{mine.pk}" in caught.value.message
    for r in (mine, theirs):
        r.refresh_from_db()
        assert r.status == Result.Status.PENDING
    assert not Entry.objects.exists()


def test_an_already_confirmed_result_in_the_batch_refuses_the_whole_batch(people, manual_table):
    use(manual_table.competition, "second_person")
    first = record(people, manual_table, [5, 1])
    second = record(people, manual_table, [2, 7])
    services.confirm_result(user=people.users["referee"], result=first)
    with pytest.raises(Conflict):
        services.confirm_results(
            user=people.users["scorekeeper2"],
            competition=manual_table.competition,
            ids=[first.pk, second.pk],
        )
    second.refresh_from_db()
    assert second.status == Result.Status.PENDING


def test_blind_reentry_results_are_not_confirmed_together(people, manual_table):
    use(manual_table.competition, "blind")
    result = record(people, manual_table, [5, 1])
    assert not selectors.confirmable(people.users["scorekeeper2"], manual_table.competition)
    with pytest.raises(Conflict):
        services.confirm_results(
            user=people.users["scorekeeper2"],
            competition=manual_table.competition,
            ids=[result.pk],
        )


def test_a_seated_player_with_sign_off_may_confirm_only_their_tables_results(
    people, manual_table, django_user_model
):
    use(manual_table.competition, "opponents")
    seated = _seat_user(manual_table, 1, django_user_model, "seated")
    result = record(people, manual_table, [5, 1])
    assert list(selectors.confirmable(seated, manual_table.competition)) == [result]
    assert not selectors.confirmable(people.users["member"], manual_table.competition)


def test_the_result_page_says_who_confirms_and_offers_a_primary_confirm(
    client, people, manual_table
):
    use(manual_table.competition, "second_person")
    result = record(people, manual_table, [5, 1])
    client.force_login(people.users["scorekeeper2"])
    page = client.get(f"/c/prova/coppa/r/{result.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="who-confirms"' in page and "a second person" in page
    italian = client.get(f"/c/prova/coppa/r/{result.pk}/", HTTP_ACCEPT_LANGUAGE="it")
    assert "una seconda persona" in italian.content.decode()
    assert 'class="primary big" id="confirm"' in page
    assert 'class="secondary big" id="contest"' in page


def test_the_one_who_entered_is_told_why_they_cannot_confirm(client, people, manual_table):
    use(manual_table.competition, "second_person")
    result = record(people, manual_table, [5, 1])
    client.force_login(people.users["scorekeeper"])
    page = client.get(f"/c/prova/coppa/r/{result.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="cannot-confirm"' in page and "You entered this result" in page
    assert 'id="confirm"' not in page


def test_a_seated_player_without_sign_off_is_told_why_not(
    client, people, manual_table, django_user_model
):
    use(manual_table.competition, "second_person")
    seated = _seat_user(manual_table, 0, django_user_model, "seated")
    result = record(people, manual_table, [5, 1])
    client.force_login(seated)
    page = client.get(f"/c/prova/coppa/r/{result.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "does not let the players confirm their own results" in page
    assert 'id="confirm"' not in page and 'id="contest"' in page


def test_the_waiting_results_page_confirms_the_ticked_ones(client, people, manual_table):
    use(manual_table.competition, "second_person")
    first = record(people, manual_table, [5, 1])
    second = record(people, manual_table, [2, 7])
    client.force_login(people.users["scorekeeper2"])
    front = client.get("/c/prova/coppa/").content.decode()
    assert 'id="to-confirm"' in front and "/c/prova/coppa/to-confirm/" in front
    page = client.get("/c/prova/coppa/to-confirm/").content.decode()
    assert page.count('name="results"') == 2 and page.count("checked") == 2
    response = client.post("/c/prova/coppa/to-confirm/", {"results": [str(second.pk)]})
    assert response.status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.status == Result.Status.PENDING and second.status == Result.Status.ACCEPTED


def test_the_waiting_results_page_refuses_nothing_ticked_with_a_message(
    client, people, manual_table
):
    use(manual_table.competition, "second_person")
    record(people, manual_table, [5, 1])
    client.force_login(people.users["scorekeeper2"])
    response = client.post("/c/prova/coppa/to-confirm/", {})
    assert response.status_code == 400
    assert 'id="results-error"' in response.content.decode()


def test_the_waiting_results_page_can_show_only_imported_results(client, people, manual_table):
    use(manual_table.competition, "second_person")
    typed = record(people, manual_table, [5, 1])
    imported, _created = services.record_result(
        user=people.users["scorekeeper"],
        table=manual_table,
        source="manual",
        origin="import",
        scores=[3, 3],
    )
    client.force_login(people.users["scorekeeper2"])
    page = client.get("/c/prova/coppa/to-confirm/?imported=1").content.decode()
    assert f"/r/{imported.pk}/" in page and f"/r/{typed.pk}/" not in page


def test_the_score_entry_page_links_the_waiting_results(client, people, manual_table):
    use(manual_table.competition, "second_person")
    record(people, manual_table, [5, 1])
    client.force_login(people.users["scorekeeper2"])
    page = client.get(f"/c/prova/coppa/t/{manual_table.pk}/score/").content.decode()
    assert 'id="to-confirm"' in page
    client.force_login(people.users["scorekeeper"])
    page = client.get(f"/c/prova/coppa/t/{manual_table.pk}/score/").content.decode()
    assert 'id="to-confirm"' not in page
