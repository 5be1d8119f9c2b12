"""Confirmation modes, disputes with both versions, and corrections with their preview."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from ledger.clubs.errors import Conflict, NotAllowed
from ledger.clubs.models import Dispute, Entry, Result, Standing
from ledger.clubs.results import services
from tests.ledger.helpers import record, use


def points(competition):
    return dict(Standing.objects.filter(competition=competition).values_list("player_id", "points"))


def test_second_person_confirmation_never_by_the_one_who_entered(people, manual_table):
    use(manual_table.competition, "second_person")
    result = record(people, manual_table, [5, 1])
    assert result.status == Result.Status.PENDING and not Entry.objects.exists()
    with pytest.raises(NotAllowed):
        services.confirm_result(user=people.users["scorekeeper"], result=result)
    services.confirm_result(user=people.users["scorekeeper2"], result=result)
    result.refresh_from_db()
    assert result.status == Result.Status.ACCEPTED
    assert result.confirmed_by == people.users["scorekeeper2"]
    assert Entry.objects.count() == 2


def test_blind_reentry_that_agrees_accepts_the_result(people, manual_table):
    use(manual_table.competition, "blind")
    result = record(people, manual_table, [5, 1])
    with pytest.raises(Conflict):
        services.confirm_result(user=people.users["scorekeeper2"], result=result)
    _r, dispute = services.reenter_result(
        user=people.users["scorekeeper2"], result=result, source="manual", scores=[5, 1]
    )
    result.refresh_from_db()
    assert dispute is None and result.status == Result.Status.ACCEPTED


def test_blind_reentry_that_differs_opens_a_dispute_with_both_versions(people, manual_table):
    use(manual_table.competition, "blind")
    result = record(people, manual_table, [5, 1])
    _r, dispute = services.reenter_result(
        user=people.users["scorekeeper2"], result=result, source="manual", scores=[1, 5]
    )
    result.refresh_from_db()
    assert result.status == Result.Status.DISPUTED
    assert result.scores == ["5", "1"] and dispute.other_scores == ["1", "5"]
    assert not Entry.objects.exists()


def test_a_referee_ruling_for_the_second_version_keeps_the_first(people, manual_table):
    use(manual_table.competition, "blind")
    first = record(people, manual_table, [5, 1])
    _r, dispute = services.reenter_result(
        user=people.users["scorekeeper2"], result=first, source="manual", scores=[1, 5]
    )
    with pytest.raises(NotAllowed):
        services.rule_dispute(user=people.users["scorekeeper"], dispute=dispute, ruling="second")
    counting = services.rule_dispute(
        user=people.users["referee"], dispute=dispute, ruling="second", note="Score sheet"
    )
    first.refresh_from_db()
    dispute.refresh_from_db()
    assert first.status == Result.Status.SUPERSEDED and counting.supersedes == first
    assert counting.status == Result.Status.ACCEPTED and counting.scores == ["1", "5"]
    assert dispute.ruling == "second" and dispute.ruled_by == people.users["referee"]
    a, b = (s.player_id for s in manual_table.seats.order_by("index"))
    assert points(manual_table.competition) == {a: Decimal(1), b: Decimal(5)}


def test_opponents_sign_off_lets_a_seated_player_confirm(people, manual_table, django_user_model):
    use(manual_table.competition, "opponents")
    seated = manual_table.seats.get(index=1).player
    seated.user = django_user_model.objects.create_user(username="seated", password="x")
    seated.save()
    result = record(people, manual_table, [5, 1])
    with pytest.raises(NotAllowed):
        services.confirm_result(user=people.users["member"], result=result)
    services.confirm_result(user=seated.user, result=result)
    result.refresh_from_db()
    assert result.status == Result.Status.ACCEPTED


def test_a_contested_result_waits_for_a_referee(people, manual_table):
    use(manual_table.competition, "second_person")
    result = record(people, manual_table, [5, 1])
    dispute = services.dispute_result(
        user=people.users["scorekeeper2"], result=result, reason="Seat 1 had 3"
    )
    assert Dispute.objects.get() == dispute and dispute.other_scores is None
    services.rule_dispute(user=people.users["referee"], dispute=dispute, ruling="first")
    result.refresh_from_db()
    assert (
        result.status == Result.Status.ACCEPTED and result.confirmed_by == people.users["referee"]
    )


def test_the_correction_preview_changes_nothing_and_shows_the_new_order(people, manual_table):
    old = record(people, manual_table, [10, 2])
    before = points(manual_table.competition)
    entries = Entry.objects.count()
    preview = services.preview_correction(
        user=people.users["referee"], result=old, source="manual", scores=[0, 9]
    )
    assert points(manual_table.competition) == before and Entry.objects.count() == entries
    old.refresh_from_db()
    assert old.status == Result.Status.ACCEPTED
    by_name = {r["name"]: r for r in preview["rows"]}
    a, b = (s.player.name for s in manual_table.seats.order_by("index"))
    assert by_name[a]["rank_before"] == 1 and by_name[a]["rank_after"] == 2
    assert by_name[b]["points_after"] == Decimal(9)
    assert by_name[b]["rating_after"] > by_name[b]["rating_before"]


def test_the_correction_pages_preview_then_apply_with_a_reason(client, people, manual_table):
    old = record(people, manual_table, [10, 2])
    client.force_login(people.users["referee"])
    url = f"/c/prova/coppa/r/{old.pk}/correct/"
    body = {"seat_0": "0", "seat_1": "9", "reason": "Wrong sheet", "apply": "0"}
    page = client.post(url, body).content.decode()
    assert 'id="downstream"' in page and 'id="apply-correction"' in page
    old.refresh_from_db()
    assert old.status == Result.Status.ACCEPTED
    response = client.post(url, {**body, "apply": "1"})
    assert response.status_code == 302
    old.refresh_from_db()
    new = old.superseded_by
    assert old.status == Result.Status.SUPERSEDED and new.reason == "Wrong sheet"
    page = client.get(f"/c/prova/coppa/r/{new.pk}/").content.decode()
    assert 'id="versions"' in page and "Wrong sheet" in page


def test_a_correction_without_a_reason_is_refused(client, people, manual_table):
    old = record(people, manual_table, [10, 2])
    client.force_login(people.users["referee"])
    page = client.post(
        f"/c/prova/coppa/r/{old.pk}/correct/", {"seat_0": "0", "seat_1": "9", "apply": "1"}
    )
    assert page.status_code == 200
    old.refresh_from_db()
    assert old.status == Result.Status.ACCEPTED


def test_the_confirm_button_works_from_the_result_page(client, people, manual_table):
    use(manual_table.competition, "second_person")
    result = record(people, manual_table, [5, 1])
    client.force_login(people.users["scorekeeper2"])
    page = client.get(f"/c/prova/coppa/r/{result.pk}/").content.decode()
    assert 'id="confirm"' in page
    client.post(f"/c/prova/coppa/r/{result.pk}/confirm/")
    result.refresh_from_db()
    assert result.status == Result.Status.ACCEPTED


def test_blind_mode_hides_the_first_entry_until_it_is_confirmed(client, people, manual_table):
    use(manual_table.competition, "blind")
    record(people, manual_table, [57, 13])
    client.force_login(people.users["scorekeeper2"])
    result = Result.objects.get()
    page = client.get(f"/c/prova/coppa/r/{result.pk}/").content.decode()
    shown = re.compile(r">\s*57\s*<")
    assert not shown.search(page) and 'id="reenter-form"' in page
    assert not shown.search(client.get("/c/prova/coppa/").content.decode())


def test_the_table_page_shows_a_qr_code_for_sign_off(client, people, manual_table):
    use(manual_table.competition, "opponents")
    client.force_login(people.users["scorekeeper"])
    page = client.get(f"/c/prova/coppa/t/{manual_table.pk}/score/").content.decode()
    assert 'id="sign-off"' in page and "<svg" in page
