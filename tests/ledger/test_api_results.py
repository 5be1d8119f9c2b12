"""POST/GET /api/v1/results/: recording, idempotency, and every kind of bad input."""

from __future__ import annotations

import json

import pytest

from ledger.clubs.models import Entry, Result, Standing

URL = "/api/v1/results/"


def post(client, body, key=None, raw=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    data = raw if raw is not None else json.dumps(body)
    return client.post(URL, data=data, content_type="application/json", **headers)


def test_a_scorekeeper_records_a_result_and_its_entries(people, manual_table):
    response = post(
        people.client("scorekeeper"),
        {"table": manual_table.pk, "source": "manual", "scores": [12, -3]},
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["status"] == "accepted"
    assert [(e["seat"], e["points"]) for e in body["entries"]] == [(0, "12.00"), (1, "-3.00")]
    assert Standing.objects.get(player=people.extra[0]).points == 12


def test_a_retry_with_the_same_key_returns_the_first_answer(people, manual_table):
    client = people.client("scorekeeper")
    body = {"table": manual_table.pk, "source": "manual", "scores": [5, 1]}
    first = post(client, body, key="phone-42")
    second = post(client, body, key="phone-42")
    assert first.status_code == second.status_code == 201
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert Result.objects.count() == 1
    assert Entry.objects.count() == 2


def test_the_same_key_with_another_body_is_a_conflict(people, manual_table):
    client = people.client("scorekeeper")
    post(client, {"table": manual_table.pk, "source": "manual", "scores": [5, 1]}, key="k1")
    response = post(
        client, {"table": manual_table.pk, "source": "manual", "scores": [6, 1]}, key="k1"
    )
    assert response.status_code == 409
    assert "Idempotency-Key" in response.json()["error"]["message"]
    assert Result.objects.count() == 1


def test_idempotency_keys_are_per_club(people, manual_table, other_club, django_user_model):
    from ledger.clubs.models import Competition, Membership
    from ledger.clubs.results.services import create_table

    competition = Competition.objects.create(
        club=other_club, name="X", slug="x", game=manual_table.competition.game
    )
    for p in people.extra[:2]:
        Membership.objects.create(club=other_club, player=p)
    Membership.objects.create(
        club=other_club, player=people.players["scorekeeper"], role="scorekeeper"
    )
    table = create_table(
        user=people.users["scorekeeper"],
        competition=competition,
        label="A",
        players=people.extra[:2],
    )
    client = people.client("scorekeeper")
    assert (
        post(
            client, {"table": manual_table.pk, "source": "manual", "scores": [1, 2]}, key="same"
        ).status_code
        == 201
    )
    assert (
        post(
            client, {"table": table.pk, "source": "manual", "scores": [1, 2]}, key="same"
        ).status_code
        == 201
    )
    assert Result.objects.count() == 2


def test_malformed_json_is_refused_with_a_message(people, manual_table):
    response = post(people.client("scorekeeper"), None, raw='{"table": 1, "scores": [1,')
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "malformed"
    assert "JSON" in error["message"]
    assert Result.objects.count() == 0


def test_a_body_that_is_not_an_object_is_refused(people, manual_table):
    response = post(people.client("scorekeeper"), [1, 2])
    assert response.status_code == 400
    assert Result.objects.count() == 0


def test_a_missing_table_is_named_in_the_field_errors(people, manual_table):
    response = post(people.client("scorekeeper"), {"source": "manual", "scores": [1, 2]})
    assert response.status_code == 400
    assert "table" in response.json()["error"]["fields"]


def test_the_wrong_number_of_scores_is_refused(people, manual_table):
    response = post(
        people.client("scorekeeper"),
        {"table": manual_table.pk, "source": "manual", "scores": [1, 2, 3]},
    )
    assert response.status_code == 400
    assert "2" in response.json()["error"]["message"]
    assert Entry.objects.count() == 0


def test_an_unknown_seat_is_refused(people, manual_table):
    players = [people.extra[0].pk, people.extra[1].pk, people.extra[2].pk]
    response = post(
        people.client("scorekeeper"),
        {"table": manual_table.pk, "source": "manual", "scores": [1, 2], "players": players},
    )
    assert response.status_code == 400
    assert "seats 2 players, but 3 were named" in response.json()["error"]["message"]
    assert Result.objects.count() == 0


def test_a_player_not_at_the_table_is_refused(people, manual_table):
    players = [people.extra[0].pk, people.extra[4].pk]
    response = post(
        people.client("scorekeeper"),
        {"table": manual_table.pk, "source": "manual", "scores": [1, 2], "players": players},
    )
    assert response.status_code == 400
    error = response.json()["error"]
    # Seats counted from 1 and players by name, in words.
    assert f"{people.extra[4].name} is not in seat 2" in error["message"]
    assert people.extra[1].name in error["message"]
    assert "1" in error["fields"]["players"]
    assert Result.objects.count() == 0


def test_a_write_to_another_club_is_forbidden(people, manual_table, other_club, django_user_model):
    from ledger.clubs.models import Membership, Player

    outsider = django_user_model.objects.create_user(username="lucchese", password="x")
    Membership.objects.create(
        club=other_club, player=Player.objects.create(name="L", user=outsider), role="organiser"
    )
    people.users["lucchese"] = outsider
    response = post(
        people.client("lucchese"), {"table": manual_table.pk, "source": "manual", "scores": [1, 2]}
    )
    assert response.status_code == 403
    assert manual_table.competition.club.name in response.json()["error"]["message"]
    assert Result.objects.count() == 0


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("member", 403),
        ("stranger", 403),
        ("scorekeeper", 201),
        ("referee", 201),
        ("organiser", 201),
    ],
)
def test_recording_needs_the_scorekeeper_role(people, manual_table, who, status):
    response = post(
        people.client(who), {"table": manual_table.pk, "source": "manual", "scores": [1, 2]}
    )
    assert response.status_code == status


def test_anonymous_visitors_read_but_cannot_write(people, manual_table):
    anonymous = people.client(None)
    assert anonymous.get(URL).status_code == 200
    response = post(anonymous, {"table": manual_table.pk, "source": "manual", "scores": [1, 2]})
    assert response.status_code in (401, 403)
    assert "Token" in response.json()["error"]["message"]


def test_a_score_that_is_not_a_number_is_refused(people, manual_table):
    response = post(
        people.client("scorekeeper"),
        {"table": manual_table.pk, "source": "manual", "scores": ["dieci", 2]},
    )
    assert response.status_code == 400
    assert "scores" in response.json()["error"]["fields"]


def test_results_are_listed_and_filtered_by_competition(people, manual_table):
    client = people.client("scorekeeper")
    post(client, {"table": manual_table.pk, "source": "manual", "scores": [1, 2]})
    listed = client.get(URL, {"competition": manual_table.competition_id}).json()
    assert listed["count"] == 1
    assert client.get(URL, {"competition": "abc"}).status_code == 400
    detail = client.get(f"{URL}{listed['results'][0]['id']}/").json()
    assert detail["scores"] == ["1.00", "2.00"]


def test_entries_are_read_only_through_the_api(people, manual_table):
    client = people.client("organiser")
    post(client, {"table": manual_table.pk, "source": "manual", "scores": [1, 2]})
    entry = Entry.objects.first()
    assert client.get("/api/v1/entries/").json()["count"] == 2
    assert client.delete(f"/api/v1/entries/{entry.pk}/").status_code == 405
    assert client.put(f"/api/v1/entries/{entry.pk}/", {}).status_code == 405
    assert client.post("/api/v1/entries/", {}).status_code == 405


def test_errors_speak_the_language_the_client_asks_for(people, manual_table):
    body = {"table": manual_table.pk, "source": "manual", "scores": [1, 2, 3]}
    italian = post(people.client("scorekeeper", language="it"), body)
    assert "questo tavolo ha 2 posti" in italian.json()["error"]["message"]
    english = post(people.client("scorekeeper", language="en"), body)
    assert "this table has 2 seats" in english.json()["error"]["message"]


def test_a_token_of_a_deactivated_login_is_refused(people, manual_table):
    client = people.client("scorekeeper")
    user = people.users["scorekeeper"]
    user.is_active = False
    user.save(update_fields=["is_active"])
    response = post(client, {"table": manual_table.pk, "source": "manual", "scores": [1, 0]})
    # 403, not 401: the session scheme comes first and sends no WWW-Authenticate challenge.
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "authentication_failed"
    assert not Result.objects.exists()


def test_an_unknown_token_is_refused_and_a_known_one_acts_as_its_user(people, manual_table):
    from rest_framework.test import APIClient

    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    body = {"table": manual_table.pk, "source": "manual", "scores": [1, 0]}
    refused = post(stranger, body)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "authentication_failed"
    response = post(people.client("scorekeeper"), body)
    assert response.status_code == 201
    assert response.json()["entered_by"] == people.users["scorekeeper"].pk


def test_an_unknown_table_is_a_clear_error(people, manual_table):
    response = post(
        people.client("scorekeeper"), {"table": 987654, "source": "manual", "scores": [1, 0]}
    )
    assert response.status_code == 400
    assert "987654" in response.json()["error"]["message"]


@pytest.fixture
def tarocco_table(people):
    from ledger.clubs.models import Competition
    from ledger.clubs.results.services import create_table

    competition = Competition.objects.create(
        club=people.club, name="Tarocco", slug="tarocco", game="tarocco"
    )
    return create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=[people.players[name] for name in ("member", "scorekeeper", "referee")]
        + [people.extra[0]],
    )


HAND = {"outcome": "solo", "dealer": 3, "declarer": 1, "card_points": 52}


def test_the_common_post_skips_the_serializers_and_answers_what_they_would(
    people, tarocco_table, monkeypatch
):
    from ledger.api import serializers
    from ledger.api.serializers import ResultSerializer

    class Refuse:
        def __init__(self, *args, **kwargs):
            raise AssertionError("the full path was taken")

    monkeypatch.setattr(serializers, "ResultCreateSerializer", Refuse)
    response = post(
        people.client("scorekeeper"),
        {"table": tarocco_table.pk, "source": "summary", "record": HAND},
        key="fast-1",
    )
    assert response.status_code == 201, response.content
    stored = Result.objects.prefetch_related("entries").get()
    assert response.json() == json.loads(json.dumps(ResultSerializer(stored).data))
    assert stored.verdict is not None


def test_the_fast_and_the_full_path_refuse_alike(people, tarocco_table):
    member = people.client("member")
    fast = post(member, {"table": tarocco_table.pk, "source": "summary", "record": HAND})
    # "players": null is a shape only the full path takes.
    full = post(
        member, {"table": tarocco_table.pk, "source": "summary", "record": HAND, "players": None}
    )
    assert fast.status_code == full.status_code == 403
    assert fast.json() == full.json()
    missing = {"table": 10**12, "source": "summary", "record": HAND}
    fast = post(people.client("scorekeeper"), missing)
    full = post(people.client("scorekeeper"), {**missing, "players": None})
    assert fast.status_code == full.status_code == 400
    assert fast.json() == full.json()
    broken = {"table": tarocco_table.pk, "source": "summary", "record": {"outcome": "??"}}
    fast = post(people.client("scorekeeper"), broken)
    full = post(people.client("scorekeeper"), {**broken, "players": None})
    assert fast.status_code == full.status_code == 400
    assert fast.json() == full.json()
    assert not Result.objects.exists()


@pytest.mark.parametrize("body", ["scores", "record"])
def test_a_table_that_does_not_exist_is_named_in_the_callers_language(people, manual_table, body):
    # "record" takes the API's fast path for token calls, "scores" the full one.
    data: dict[str, object] = {"table": manual_table.pk + 999, "source": "manual"}
    data[body] = [1, 2] if body == "scores" else {}
    italian = post(people.client("scorekeeper", language="it"), data).json()["error"]
    assert italian["message"] == f"Non c'è nessun tavolo {manual_table.pk + 999}."
    assert italian["fields"]["table"] == ["Nessun tavolo con questo id."]
    english = post(people.client("scorekeeper", language="en"), data).json()["error"]
    assert english["message"] == f"There is no table {manual_table.pk + 999}."


@pytest.mark.parametrize("extra", [{}, {"players": None}])
def test_a_record_keeps_every_number_exactly_as_sent(people, club, extra):
    # An integer of 30 digits in a note is kept to the digit, through the fast path (a
    # token and a record only) and through the full one alike.
    from ledger.clubs.models import Competition
    from ledger.clubs.results import services

    competition = Competition.objects.create(club=club, name="T", slug="t", game="tarocco")
    table = services.create_table(
        user=people.users["organiser"],
        competition=competition,
        label="A",
        players=people.extra[:4],
    )
    big = 123456789012345678901234567890
    record = {"outcome": "solo", "dealer": 3, "declarer": 0, "card_points": 70, "note": big}
    body = {"table": table.pk, "source": "summary", "record": record, **extra}
    response = people.client("scorekeeper").post(
        "/api/v1/results/", json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 201, response.content
    assert json.loads(response.content)["record"]["note"] == big
    assert Result.objects.get(pk=response.json()["id"]).record["note"] == big


def test_a_retry_of_the_common_post_returns_the_first_answer(people, tarocco_table, monkeypatch):
    # The common post (a token, a record) reads the Idempotency-Key on its own path.
    from ledger.api import serializers

    class Refuse:
        def __init__(self, *args, **kwargs):
            raise AssertionError("the full path was taken")

    monkeypatch.setattr(serializers, "ResultCreateSerializer", Refuse)
    client = people.client("scorekeeper")
    body = {"table": tarocco_table.pk, "source": "summary", "record": HAND}
    first = post(client, body, key="phone-7")
    second = post(client, body, key="phone-7")
    assert first.status_code == second.status_code == 201, first.content
    assert second.json() == first.json()
    assert second["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first
    assert (
        post(client, {**body, "record": {**HAND, "card_points": 53}}, key="phone-7").status_code
        == 409
    )
    assert Result.objects.count() == 1


def test_an_unknown_source_is_refused_alike_on_both_paths(people, tarocco_table):
    client = people.client("scorekeeper")
    body = {"table": tarocco_table.pk, "source": "telepathy", "record": HAND}
    fast = post(client, body)
    full = post(client, {**body, "players": None})
    assert fast.status_code == full.status_code == 400
    assert fast.json() == full.json()
    assert not Result.objects.exists()


def test_a_results_post_is_matched_by_the_first_pattern_of_the_api():
    from django.urls import get_resolver

    api = get_resolver().url_patterns[0]
    assert str(api.pattern) == "api/v1/"
    first = api.url_patterns[0]
    assert first.resolve("results/") is not None
    assert first.resolve("results/").func.cls.__name__ == "ResultViewSet"
