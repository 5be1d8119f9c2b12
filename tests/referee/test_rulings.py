from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from ledger.clubs.errors import Conflict, Invalid, NotAllowed
from ledger.clubs.journal import journal
from ledger.clubs.models import Competition, Dispute, Entry, Result, Standing
from ledger.clubs.results import services as ledger
from ledger.referee import services
from ledger.referee.models import ArtificialScores, Case
from tests.referee import planted

pytestmark = pytest.mark.django_db


def _points(result: Result) -> list[Decimal]:
    return [Decimal(s) for s in result.scores]


def test_artificial_ruling_on_a_revoke_is_a_correction_with_the_verdict(
    people: Any, tarocco_result: Result
) -> None:
    referee = people.users["referee"]
    record, step = planted.tarocco_revoke()
    case = services.open_case(
        user=referee, competition=tarocco_result.competition, result=tarocco_result
    )
    case = services.set_record(user=referee, case=case, record=record)
    assert case.verdict["violations"][0]["step"] == step
    new = services.rule(
        user=referee,
        case=case,
        kind="artificial",
        params={"seats": ["plus", "minus", "plus", "plus"]},
        note="Revoke at trick 1",
    )
    tarocco_result.refresh_from_db()
    assert tarocco_result.status == Result.Status.SUPERSEDED
    assert new.supersedes == tarocco_result and new.status == Result.Status.ACCEPTED
    assert _points(new) == [Decimal(6), Decimal(-6), Decimal(6), Decimal(6)]
    assert new.verdict["ruling"]["kind"] == "artificial"
    assert new.verdict["violations"][0]["rule"] == "tarocco.play.follow_suit"
    assert "Revoke at trick 1" in new.reason
    reversals = tarocco_result.entries.filter(kind=Entry.Kind.REVERSAL)
    assert reversals.count() == 4
    standings = {
        s.player_id: s.points for s in Standing.objects.filter(competition=new.competition)
    }
    seats = dict(new.table.seats.values_list("index", "player_id"))
    assert [standings[seats[i]] for i in range(4)] == _points(new)
    assert journal.verify_chain(new.club) == []
    case.refresh_from_db()
    assert case.status == Case.Status.RULED and case.correction == new


def test_assigned_score_is_what_the_rules_give_the_record(
    people: Any, ergio_result: Result
) -> None:
    referee = people.users["referee"]
    record, _step = planted.ergio_bad_reinforcement()
    case = services.open_case(
        user=referee, competition=ergio_result.competition, result=ergio_result, record=record
    )
    assert case.verdict["violations"][0]["rule"] == "ergio.battle.reinforce.slots"
    new = services.rule(user=referee, case=case, kind="assigned", params={"scores": "rules"})
    assert _points(new) == [Decimal(s) for s in case.verdict["outcome"]["scores"]]
    assert new.record == record


def test_assigned_score_rebuilt_by_the_referee(people: Any, ergio_result: Result) -> None:
    referee = people.users["referee"]
    case = services.open_case(
        user=referee, competition=ergio_result.competition, result=ergio_result
    )
    new = services.rule(user=referee, case=case, kind="assigned", params={"scores": ["4", "2"]})
    assert _points(new) == [Decimal(4), Decimal(2)]


def test_weighted_score_averages_the_outcomes_by_weight(
    people: Any, tarocco_result: Result
) -> None:
    referee = people.users["referee"]
    case = services.open_case(
        user=referee, competition=tarocco_result.competition, result=tarocco_result
    )
    table = _points(tarocco_result)
    new = services.rule(
        user=referee,
        case=case,
        kind="weighted",
        params={
            "outcomes": [
                {"weight": "0.6", "scores": "table"},
                {"weight": "0.4", "scores": [10, -10, 10, -10]},
            ]
        },
    )
    expected = [
        (Decimal("0.6") * t + Decimal("0.4") * o).quantize(Decimal("0.01"))
        for t, o in zip(table, [10, -10, 10, -10], strict=True)
    ]
    assert _points(new) == expected


def test_split_scores_give_each_side_its_own_adjustment(
    people: Any, tarocco_result: Result
) -> None:
    referee = people.users["referee"]
    case = services.open_case(
        user=referee, competition=tarocco_result.competition, result=tarocco_result
    )
    new = services.rule(
        user=referee,
        case=case,
        kind="split",
        params={"seats": ["table", "minus", "2.5", "plus"]},
    )
    assert _points(new) == [_points(tarocco_result)[0], Decimal(-6), Decimal("2.5"), Decimal(6)]


def test_void_hand_reverses_the_points_and_credits_none(
    people: Any, tarocco_result: Result
) -> None:
    referee = people.users["referee"]
    case = services.open_case(
        user=referee, competition=tarocco_result.competition, result=tarocco_result
    )
    voided = services.rule(user=referee, case=case, kind="void", note="Mazzo incompleto")
    # The result itself is voided: no new version is written for anything to count.
    assert voided.pk == tarocco_result.pk and voided.status == Result.Status.VOIDED
    assert "Mazzo incompleto" in voided.void_reason
    assert not Result.objects.filter(supersedes=tarocco_result).exists()
    assert voided.entries.filter(kind=Entry.Kind.REVERSAL).count() == 4
    assert all(s.points == 0 and s.played == 0 for s in Standing.objects.all())
    case.refresh_from_db()
    assert case.status == Case.Status.RULED and case.kind == Case.Kind.VOID
    assert case.correction is None


def test_upheld_keeps_the_scores_and_closes_the_dispute(
    people: Any, tarocco: Competition, tarocco_result: Result
) -> None:
    tarocco.confirmation = Competition.Confirmation.SECOND_PERSON
    tarocco.save()
    pending, _ = ledger.record_result(
        user=people.users["scorekeeper"],
        table=tarocco_result.table,
        source="full_record",
        record=planted.played("tarocco", 11),
    )
    dispute = ledger.dispute_result(
        user=people.users["scorekeeper2"], result=pending, reason="A revoke, I think"
    )
    referee = people.users["referee"]
    case = services.open_case(user=referee, competition=tarocco, result=pending)
    assert case.dispute == dispute
    new = services.rule(user=referee, case=case, kind="upheld", note="No revoke")
    dispute.refresh_from_db()
    assert dispute.ruling == Dispute.Ruling.FIRST and dispute.note == "No revoke"
    assert _points(new) == _points(pending)
    assert new.entries.filter(kind=Entry.Kind.CREDIT).count() == 4


def test_only_referees_open_cases_and_rule(people: Any, tarocco_result: Result) -> None:
    with pytest.raises(NotAllowed):
        services.open_case(
            user=people.users["scorekeeper"],
            competition=tarocco_result.competition,
            result=tarocco_result,
        )
    case = services.open_case(
        user=people.users["organiser"],
        competition=tarocco_result.competition,
        result=tarocco_result,
    )
    with pytest.raises(NotAllowed):
        services.rule(user=people.users["member"], case=case, kind="void")


def test_a_case_is_ruled_once(people: Any, tarocco_result: Result) -> None:
    referee = people.users["referee"]
    case = services.open_case(
        user=referee, competition=tarocco_result.competition, result=tarocco_result
    )
    services.rule(user=referee, case=case, kind="void")
    with pytest.raises(Conflict):
        services.rule(user=referee, case=case, kind="upheld")


def test_a_bad_ruling_writes_nothing(people: Any, tarocco_result: Result) -> None:
    referee = people.users["referee"]
    case = services.open_case(
        user=referee, competition=tarocco_result.competition, result=tarocco_result
    )
    entries = Entry.objects.count()
    with pytest.raises(Invalid):
        services.rule(user=referee, case=case, kind="artificial", params={"seats": ["plus"]})
    with pytest.raises(Invalid):
        services.rule(
            user=referee, case=case, kind="weighted", params={"outcomes": [{"weight": 1}]}
        )
    tarocco_result.refresh_from_db()
    assert tarocco_result.status == Result.Status.ACCEPTED
    assert Entry.objects.count() == entries


def test_artificial_scores_are_defined_per_competition(people: Any, tarocco_result: Result) -> None:
    competition = tarocco_result.competition
    assert ArtificialScores.for_competition(competition).average_plus == Decimal(6)
    with pytest.raises(NotAllowed):
        services.set_artificial(
            user=people.users["referee"], competition=competition, values=["3", "0", "-3"]
        )
    with pytest.raises(Invalid):
        services.set_artificial(
            user=people.users["organiser"], competition=competition, values=["-3", "0", "3"]
        )
    services.set_artificial(
        user=people.users["organiser"], competition=competition, values=["4", "1", "-2"]
    )
    referee = people.users["referee"]
    case = services.open_case(user=referee, competition=competition, result=tarocco_result)
    new = services.rule(
        user=referee,
        case=case,
        kind="artificial",
        params={"seats": ["plus", "average", "minus", "average"]},
    )
    assert _points(new) == [Decimal(4), Decimal(1), Decimal(-2), Decimal(1)]


def test_step_by_step_offers_only_legal_choices_unless_recording_what_was_played(
    people: Any, tarocco: Competition
) -> None:
    referee = people.users["referee"]
    case = services.open_case(user=referee, competition=tarocco)
    case = services.start_deal(user=referee, case=case, seed=5)
    from ledger.referee import checking

    state = checking.builder("tarocco", case.record)
    assert state["seat"] is not None and state["choices"]
    import json

    legal = json.loads(state["choices"][0]["json"])
    case = services.add_step(user=referee, case=case, action=legal, as_played=False)
    assert case.record["actions"] == [legal]
    wrong = {"seat": legal["seat"], "play": case.record["deal"]["deck"][0]}
    with pytest.raises(Invalid):
        services.add_step(user=referee, case=case, action=wrong, as_played=False)
    case = services.add_step(user=referee, case=case, action=wrong, as_played=True)
    assert case.verdict["violations"][0]["step"] == 1
    case = services.undo_step(user=referee, case=case)
    assert case.record["actions"] == [legal]


def test_ruling_through_the_api_needs_the_referee_role(people: Any, tarocco_result: Result) -> None:
    record, _step = planted.tarocco_revoke()
    body = {
        "result": tarocco_result.pk,
        "kind": "artificial",
        "record": record,
        "seats": ["plus", "minus", "plus", "plus"],
        "note": "revoke",
    }
    assert people.client(None).post("/api/v1/referee/rulings", body, format="json").status_code in (
        401,
        403,
    )
    refused = people.client("scorekeeper").post("/api/v1/referee/rulings", body, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "permission_denied"
    response = people.client("referee").post("/api/v1/referee/rulings", body, format="json")
    assert response.status_code == 201, response.content
    out = response.json()
    assert out["supersedes"] == tarocco_result.pk
    assert out["verdict"]["violations"][0]["rule"] == "tarocco.play.follow_suit"
    again = people.client("referee").post("/api/v1/referee/rulings", body, format="json")
    assert again.status_code == 409


def test_ratings_follow_a_ruling_after_commit(
    people: Any, tarocco_result: Result, django_capture_on_commit_callbacks: Any
) -> None:
    from ledger.clubs.models import Rating, RatingChange

    referee = people.users["referee"]
    case = services.open_case(
        user=referee, competition=tarocco_result.competition, result=tarocco_result
    )
    with django_capture_on_commit_callbacks(execute=True):
        new = services.rule(user=referee, case=case, kind="void")
    assert not RatingChange.objects.filter(result=tarocco_result).exists()
    assert not RatingChange.objects.filter(result=new).exists()
    assert Rating.objects.filter(results__gt=0).count() == 0


def test_one_open_case_per_result_takes_the_newest_record(
    people: Any, tarocco_result: Result
) -> None:
    referee = people.users["referee"]
    first = services.open_case(
        user=referee, competition=tarocco_result.competition, result=tarocco_result
    )
    record, step = planted.tarocco_revoke()
    again = services.open_case(
        user=referee, competition=tarocco_result.competition, result=tarocco_result, record=record
    )
    assert again.pk == first.pk
    assert again.record == record and again.verdict["violations"][0]["step"] == step
