"""Calling the referee from a result page: a seated player or a scorekeeper contests a
result in any confirmation mode, within the club's window; the case lands on the queue."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from ledger.clubs.models import Competition, Result
from ledger.clubs.results import services
from ledger.referee.models import Case
from tests.referee import planted

pytestmark = pytest.mark.django_db


def _table_result(people: Any, competition: Competition) -> Result:
    table = services.create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=[people.players["member"], *people.extra[:3]],
    )
    result, _ = services.record_result(
        user=people.users["scorekeeper"],
        table=table,
        source="full_record",
        record=planted.played("tarocco", 7),
    )
    return result


def _client(people: Any, who: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users[who])
    return client


def _url(result: Result) -> str:
    return f"/c/{result.club.slug}/{result.competition.slug}/r/{result.pk}/"


def test_a_seated_player_contests_an_accepted_result_and_it_reaches_the_queue(
    people: Any, tarocco: Competition
) -> None:
    tarocco.confirmation = Competition.Confirmation.NONE
    tarocco.save()
    result = _table_result(people, tarocco)
    assert result.status == Result.Status.ACCEPTED
    player = _client(people, "member")
    assert 'id="contest-form"' in player.get(_url(result)).content.decode()

    response = player.post(_url(result) + "dispute/", {"reason": "Revoke at trick 3"})
    assert response.status_code == 302
    case = Case.objects.get()
    assert (case.result, case.reason, case.status) == (result, "Revoke at trick 3", "open")
    assert case.record == result.record and case.verdict
    result.refresh_from_db()
    assert result.status == Result.Status.ACCEPTED  # it counts until the ruling

    page = player.get(_url(result)).content.decode()
    assert 'id="case-state"' in page and "waiting for the ruling" in page
    assert 'id="contest-form"' not in page  # one call at a time
    queue = _client(people, "referee").get("/referee/").content.decode()
    assert f"/referee/case/{case.pk}/" in queue and "Revoke at trick 3" in queue


def test_contesting_a_pending_result_disputes_it_and_opens_a_case(
    people: Any, tarocco: Competition
) -> None:
    tarocco.confirmation = Competition.Confirmation.SECOND_PERSON
    tarocco.save()
    result = _table_result(people, tarocco)
    assert result.status == Result.Status.PENDING
    _client(people, "member").post(_url(result) + "dispute/", {"reason": "Wrong points"})
    result.refresh_from_db()
    case = Case.objects.get()
    assert result.status == Result.Status.DISPUTED
    assert case.dispute is not None and case.dispute.result == result


def test_a_player_not_at_the_table_cannot_contest(people: Any, tarocco: Competition) -> None:
    tarocco.confirmation = Competition.Confirmation.NONE
    tarocco.save()
    result = _table_result(people, tarocco)
    outsider = Client()
    outsider.force_login(people.users["stranger"])
    assert 'id="contest-form"' not in outsider.get(_url(result)).content.decode()
    response = outsider.post(_url(result) + "dispute/", {"reason": "No"})
    assert response.status_code == 302
    assert not Case.objects.exists()


def test_after_the_clubs_window_the_result_can_no_longer_be_contested(
    people: Any, tarocco: Competition
) -> None:
    tarocco.confirmation = Competition.Confirmation.NONE
    tarocco.save()
    result = _table_result(people, tarocco)
    Result.objects.filter(pk=result.pk).update(
        entered_at=timezone.now() - timedelta(days=8),
        confirmed_at=timezone.now() - timedelta(days=8),
    )
    player = _client(people, "member")
    page = player.get(_url(result)).content.decode()
    assert 'id="contest-form"' not in page and "has passed" in page
    organiser = _client(people, "organiser")
    organiser.post(f"/referee/window/{people.club.pk}/", {"days": "10"})
    people.club.refresh_from_db()
    assert people.club.contest_days == 10
    assert 'id="contest-form"' in player.get(_url(result)).content.decode()


def test_an_empty_reason_is_refused_at_the_field(people: Any, tarocco: Competition) -> None:
    tarocco.confirmation = Competition.Confirmation.NONE
    tarocco.save()
    result = _table_result(people, tarocco)
    response = _client(people, "member").post(_url(result) + "dispute/", {"reason": "  "})
    assert response.status_code == 400
    assert 'id="reason-error"' in response.content.decode()
    assert not Case.objects.exists()


def test_the_referees_ruling_shows_on_the_contested_result(
    people: Any, tarocco: Competition
) -> None:
    tarocco.confirmation = Competition.Confirmation.NONE
    tarocco.save()
    result = _table_result(people, tarocco)
    _client(people, "member").post(_url(result) + "dispute/", {"reason": "Revoke"})
    case = Case.objects.get()
    referee = _client(people, "referee")
    referee.post(
        f"/referee/case/{case.pk}/rule/",
        {"kind": "upheld", "note": "Played fairly", "confirm": "1"},
    )
    case.refresh_from_db()
    assert case.status == "ruled" and case.correction is not None
    page = _client(people, "member").get(_url(result)).content.decode()
    assert "Result upheld" in page and f"/r/{case.correction.pk}/" in page
    assert "Played fairly" in page


def test_ruling_on_a_contested_pending_result_closes_its_dispute_and_counts(
    people: Any, tarocco: Competition
) -> None:
    from ledger.clubs.models import Dispute, Entry

    tarocco.confirmation = Competition.Confirmation.SECOND_PERSON
    tarocco.save()
    result = _table_result(people, tarocco)
    _client(people, "member").post(_url(result) + "dispute/", {"reason": "Wrong points"})
    case = Case.objects.get()
    _client(people, "referee").post(
        f"/referee/case/{case.pk}/rule/", {"kind": "upheld", "confirm": "1"}
    )
    case.refresh_from_db()
    dispute = Dispute.objects.get(result=result)
    assert case.status == "ruled" and dispute.ruling == Dispute.Ruling.FIRST
    new = case.correction
    assert new is not None and new.status == Result.Status.ACCEPTED
    credited = Entry.objects.filter(result=new, kind=Entry.Kind.CREDIT).count()
    assert credited == 4
    assert not Entry.objects.filter(result=result).exists()  # it never counted
