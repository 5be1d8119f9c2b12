from __future__ import annotations

from typing import Any

import pytest

from ledger.clubs.models import Result
from ledger.referee import api
from ledger.referee.models import Case
from tests.referee import planted

pytestmark = pytest.mark.django_db


def test_check_finds_a_planted_revoke_without_login_and_records_nothing(people: Any) -> None:
    record, step = planted.tarocco_revoke()
    before = (Result.objects.count(), Case.objects.count())
    response = people.client(None, "en").post(
        "/api/v1/referee/check", {"game": "tarocco", "record": record}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["valid"] is False
    first = body["first_violation"]
    assert (first["rule"], first["step"]) == ("tarocco.play.follow_suit", step)
    assert first["paraphrase"]["it"] and first["paraphrase"]["en"]
    assert first["rule_text"] == first["paraphrase"]["en"]
    assert body["complete"] and len(body["scores"]) == 4
    offending = [s for g in body["timeline"] for s in g["steps"] if s["violations"]]
    assert offending[0]["step"] == step and offending[0]["first"]
    assert (Result.objects.count(), Case.objects.count()) == before


def test_check_answers_in_italian_when_asked(people: Any) -> None:
    record, _step = planted.ergio_bad_reinforcement()
    response = people.client(None, "it").post(
        "/api/v1/referee/check", {"record": record}, format="json"
    )
    body = response.json()
    assert body["first_violation"]["rule"] == "ergio.battle.reinforce.slots"
    assert body["first_violation"]["rule_text"] == body["first_violation"]["paraphrase"]["it"]
    assert any(g["name"].startswith("Scontro") and g["offending"] for g in body["timeline"])


def test_check_of_a_clean_record_is_valid_with_the_rules_score(people: Any) -> None:
    record = planted.played("tarocco", 3)
    body = (
        people.client(None)
        .post("/api/v1/referee/check", {"game": "tarocco", "record": record}, format="json")
        .json()
    )
    assert body["valid"] and body["violations"] == [] and body["first_violation"] is None
    assert sum(body["scores"]) == sum(body["outcome"]["scores"])


def test_check_says_what_to_fix_in_an_unreadable_record(people: Any) -> None:
    response = people.client(None).post(
        "/api/v1/referee/check",
        {"game": "tarocco", "record": {"deal": {"deck": ["XX"]}}},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["message"]


def test_check_without_a_game_is_refused(people: Any) -> None:
    response = people.client(None).post(
        "/api/v1/referee/check", {"record": {"actions": []}}, format="json"
    )
    assert response.status_code == 400
    assert "game" in response.json()["error"]["fields"]


def test_check_is_rate_limited_per_address(people: Any, monkeypatch: Any) -> None:
    monkeypatch.setattr(api, "CHECK_RATE", "2/m")
    client = people.client(None)
    body = {"game": "tarocco", "record": planted.played("tarocco", 3)}
    url = "/api/v1/referee/check"
    codes = [client.post(url, body, format="json").status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert client.post("/api/v1/referee/check", body, format="json").json()["error"]["code"] == (
        "rate_limited"
    )
