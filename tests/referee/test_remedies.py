"""Remedies as a referee would give them: the side at fault never ends better off than
without the fault, what the innocent side did after it is a consequence and not a fault of
theirs, a hand the fault left unfinished still gets a proposed score, and a ruling can give
the remedy."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.core import registry
from ledger.clubs.models import Competition
from ledger.clubs.results import services as clubs_services
from ledger.referee import checking, remedies
from ledger.referee.models import Case
from tests.referee import planted

pytestmark = pytest.mark.django_db


def _revokes() -> list[tuple[dict[str, Any], int]]:
    found = []
    for seed in range(7, 19):
        try:
            found.append(planted.tarocco_revoke(seed))
        except AssertionError:
            continue
    return found


def test_a_revoking_side_never_ends_better_off_than_without_the_revoke() -> None:
    lower_than_played = 0
    for record, step in _revokes():
        verdict = checking.check("tarocco", record)
        remedy = verdict["remedy"]
        assert remedy["step"] == step and remedy["offenders"]
        assert record["actions"][step]["seat"] in remedy["offenders"]
        for seat, score in enumerate(remedy["scores"]):
            if seat in remedy["offenders"]:
                assert score <= remedy["clean"][seat]
                if remedy["played"] is not None:
                    assert score <= remedy["played"][seat]
                    lower_than_played += score < remedy["played"][seat]
            else:
                assert score >= remedy["clean"][seat]
                if remedy["played"] is not None:
                    assert score >= remedy["played"][seat]
    # where the revoke paid, the remedy takes the gain away (not scored as played)
    assert lower_than_played > 0


def test_the_score_without_the_fault_is_the_hand_played_on_by_the_rules_from_before_it() -> None:
    record, step = planted.tarocco_revoke()
    engine = registry.get("tarocco")
    clean = remedies.without_fault(engine, record, step)
    assert clean is not None
    again = remedies.without_fault(engine, record, step)
    assert again == clean  # the same record always gives the same proposal
    cut = copy.deepcopy(record)
    cut["actions"] = cut["actions"][:step]
    assert engine.validate(cut).valid  # the position it plays on from breaks no rule


def _ponte_missing_step(k: int = 20) -> dict[str, Any]:
    record = planted.played("ponte", 7)
    del record["actions"][k]  # one fight card not recorded: the other side acts out of turn
    record.pop("claimed_scores", None)
    return record


def test_what_the_innocent_side_does_after_the_first_fault_is_a_consequence() -> None:
    record = _ponte_missing_step()
    with translation.override("en"):
        verdict = checking.check("ponte", record)
    first = verdict["first_violation"]
    offender = first["seat"]
    assert verdict["consequences"], "the innocent side's next steps follow from the fault"
    for v in verdict["consequences"]:
        assert v["seat"] != offender and v["step"] > first["step"]
        assert "consequence of the fault at step" in v["detail"]
        assert "is to act, not" not in v["detail"]
    assert all(v["seat"] == offender for v in verdict["faults"])
    # the hand as played never reaches its end; the desk still proposes a score
    assert not verdict["complete"]
    assert verdict["remedy"]["scores"] and verdict["remedy"]["played"] is None


@pytest.fixture
def ponte_result(club: Any, people: Any) -> Any:
    comp = Competition.objects.create(club=club, name="Ponte", slug="ponte", game="ponte")
    table = clubs_services.create_table(
        user=people.users["organiser"], competition=comp, label="P1", players=people.extra[:2]
    )
    result, _ = clubs_services.record_result(
        user=people.users["scorekeeper"],
        table=table,
        source="full_record",
        record=planted.played("ponte", 7),
    )
    return result


def test_the_case_page_proposes_the_remedy_and_a_ruling_writes_it(
    people: Any, ponte_result: Any
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["referee"])
    record = _ponte_missing_step()
    client.post(
        "/referee/open/",
        {
            "competition": ponte_result.competition_id,
            "result": ponte_result.pk,
            "record": json.dumps(record),
        },
    )
    case = Case.objects.get()
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="remedy-score"' in page and "Without the fault" in page
    assert 'id="consequences-summary"' in page
    assert '<option value="remedy" selected>' in page
    proposed = case.verdict["remedy"]["scores"]
    ruling = {"kind": "assigned", "assigned": "remedy", "note": "Fight card skipped"}
    client.post(f"/referee/case/{case.pk}/rule/", {**ruling, "confirm": "1"})
    case.refresh_from_db()
    assert case.status == Case.Status.RULED
    assert case.correction is not None
    assert [Decimal(s) for s in case.correction.scores] == [Decimal(str(s)) for s in proposed]


def test_the_italian_page_says_the_remedy_in_italian(people: Any, ponte_result: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(people.users["referee"])
    client.post(
        "/referee/open/",
        {
            "competition": ponte_result.competition_id,
            "result": ponte_result.pk,
            "record": json.dumps(_ponte_missing_step()),
        },
    )
    case = Case.objects.get()
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert "Senza il fallo" in page and "conseguenza del fallo" in page


def test_a_cardchess_case_entered_deal_by_deal_gets_scores_proposed_at_its_first_fault() -> None:
    """The deals the table has not said yet are drawn from the desk's seed to play on."""
    from games.cardchess import tabledeal

    record = planted.played("cardchess", 7)
    asked = tabledeal.pending({}, None, "en")
    assert asked is not None
    placed: dict[str, list[str]] = {}
    deck = record["deal"]["sfide"][0]["deck"]
    for dest, code in zip(asked["order"], deck[: asked["count"]], strict=True):
        placed.setdefault("table" if dest == -1 else f"seat{dest}", []).append(code)
    entered = tabledeal.apply({}, placed)
    step = next(i for i, a in enumerate(record["actions"]) if "resolve" in a)
    wrong = dict(record["actions"][step])
    wrong["taker"] = 1 if wrong["taker"] != 1 else 0
    entered["actions"] = [*record["actions"][:step], wrong]
    verdict = checking.check("cardchess", entered)
    assert verdict["violations"][0]["step"] == step
    remedy = verdict["remedy"]
    assert remedy["played"] is None and len(remedy["scores"]) == 2
    assert remedy["offenders"] == [wrong["seat"]]
