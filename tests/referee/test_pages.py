from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from ledger.clubs.models import Result
from ledger.referee.models import Case
from tests.referee import planted

pytestmark = pytest.mark.django_db


def _client(people: Any, role: str, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(people.users[role])
    return client


def test_desk_offers_to_open_a_case_from_a_result(people: Any, tarocco_result: Result) -> None:
    page = _client(people, "referee").get(f"/referee/?result={tarocco_result.pk}")
    assert page.status_code == 200
    assert f'value="{tarocco_result.pk}"' in page.content.decode()


def test_desk_tells_a_member_they_do_not_referee(people: Any) -> None:
    page = _client(people, "member").get("/referee/")
    assert "do not referee" in page.content.decode()


def test_pasted_revoke_is_highlighted_on_the_timeline_and_ruled(
    people: Any, tarocco_result: Result
) -> None:
    client = _client(people, "referee")
    record, step = planted.tarocco_revoke()
    response = client.post(
        "/referee/open/",
        {
            "competition": tarocco_result.competition_id,
            "result": tarocco_result.pk,
            "record": json.dumps(record),
        },
    )
    case = Case.objects.get()
    assert response.status_code == 302
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert f'id="step-{step}" value="{step + 1}" class="step offending first"' in page
    assert "tarocco.play.follow_suit" in page
    assert "One must follow the suit led when able." in page
    ruling = {
        "kind": "artificial",
        "artificial_0": "plus",
        "artificial_1": "minus",
        "artificial_2": "plus",
        "artificial_3": "plus",
        "note": "Revoke",
    }
    # First the journal lines about to be written; nothing is written yet.
    preview = client.post(f"/referee/case/{case.pk}/rule/", ruling).content.decode()
    assert 'id="ruling-preview"' in preview and 'id="confirm-ruling"' in preview
    case.refresh_from_db()
    assert case.status == Case.Status.OPEN
    client.post(f"/referee/case/{case.pk}/rule/", {**ruling, "confirm": "1"})
    case.refresh_from_db()
    assert case.status == Case.Status.RULED
    assert case.correction is not None and case.correction.supersedes_id == tarocco_result.pk
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="ruled"' in page and "Artificial score" in page


def test_the_page_speaks_italian_by_default(people: Any, tarocco_result: Result) -> None:
    client = _client(people, "referee", language="it")
    record, _step = planted.tarocco_revoke()
    client.post(
        "/referee/open/",
        {"competition": tarocco_result.competition_id, "record": json.dumps(record)},
    )
    case = Case.objects.get()
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert "Si risponde al seme di uscita se lo si ha." in page


def test_bad_json_is_refused_with_what_to_fix(people: Any, tarocco_result: Result) -> None:
    client = _client(people, "referee")
    response = client.post(
        "/referee/open/",
        {"competition": tarocco_result.competition_id, "record": "{not json"},
        follow=True,
    )
    assert "not valid JSON" in response.content.decode()
    assert not Case.objects.exists()


def test_upload_of_a_record_file(people: Any, tarocco_result: Result) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = _client(people, "referee")
    record, _step = planted.ergio_bad_reinforcement()
    upload = SimpleUploadedFile("hand.json", json.dumps(record).encode(), "application/json")
    client.post("/referee/open/", {"competition": tarocco_result.competition_id, "file": upload})
    case = Case.objects.get()
    assert case.record == record


def test_step_by_step_through_the_page(people: Any, tarocco_result: Result) -> None:
    client = _client(people, "referee")
    client.post("/referee/open/", {"competition": tarocco_result.competition_id})
    case = Case.objects.get()
    client.post(f"/referee/case/{case.pk}/deal/", {"seed": "4"})
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="to-act"' in page
    case.refresh_from_db()
    from ledger.referee import checking

    choice = checking.builder("tarocco", case.record)["choices"][0]["json"]
    client.post(f"/referee/case/{case.pk}/step/", {"action": choice})
    case.refresh_from_db()
    assert case.record["actions"] == [json.loads(choice)]


def test_strangers_cannot_see_cases(people: Any, tarocco_result: Result) -> None:
    _client(people, "referee").post(
        "/referee/open/",
        {"competition": tarocco_result.competition_id, "result": tarocco_result.pk},
    )
    case = Case.objects.get()
    assert _client(people, "member").get(f"/referee/case/{case.pk}/").status_code == 404


def test_organiser_sets_artificial_scores_on_a_page(people: Any, tarocco_result: Result) -> None:
    client = _client(people, "organiser")
    url = f"/referee/artificial/{tarocco_result.competition_id}/"
    assert client.get(url).status_code == 200
    client.post(url, {"average_plus": "5", "average": "0", "average_minus": "-5"})
    from ledger.referee.models import ArtificialScores

    assert ArtificialScores.objects.get().average_plus == 5
