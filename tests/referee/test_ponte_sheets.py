"""The Bridge's Game entered from its paper: who challenges first, the strategy cards and
the power sheets as written, one labelled number per magistratura; a sheet that breaks a
rule is kept as written and the verdict names the rule; an unreadable number is refused at
its field with everything typed kept."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.core import registry
from games.ponte import tabledeal
from ledger.clubs.models import Competition, Result
from ledger.clubs.results import services
from ledger.referee.models import Case
from tests.referee import planted

pytestmark = pytest.mark.django_db


@pytest.fixture
def ponte_result(club: Any, people: Any) -> Result:
    comp = Competition.objects.create(club=club, name="Ponte", slug="ponte", game="ponte")
    table = services.create_table(
        user=people.users["organiser"],
        competition=comp,
        label="P1",
        players=people.extra[: registry.get("ponte").ruleset().seats],
    )
    result, _ = services.record_result(
        user=people.users["scorekeeper"],
        table=table,
        source="full_record",
        record=planted.played("ponte", 7),
    )
    return result


def _referee(people: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["referee"])
    return client


def _form(record: dict[str, Any]) -> dict[str, Any]:
    found = tabledeal.from_record(record)
    data: dict[str, Any] = {"dealer": str(found["first"]), "quarter": found["quarter"]}
    for name, power in found["powers"].items():
        data[f"power_{name}"] = f"{power:,}".replace(",", ".")  # as written: 85.000
    ruleset = registry.get("ponte").ruleset(record.get("ruleset"))
    for side in (0, 1):
        perm = found["perms"][side]
        if ruleset.mode == "base":
            from games.ponte.model import MAGISTRATURE

            for i, m in enumerate(MAGISTRATURE[6 * side : 6 * side + 6]):
                data[f"strategy{side}_{m}"] = str(perm[i])
    return data


def test_the_sheets_typed_as_written_give_the_whole_records_verdict(
    people: Any, ponte_result: Result
) -> None:
    client = _referee(people)
    client.post(
        "/referee/open/",
        {"competition": ponte_result.competition_id, "result": ponte_result.pk, "start": "cards"},
    )
    case = Case.objects.get()
    assert case.record == {}
    record = planted.played("ponte", 7)
    page = client.get(f"/referee/case/{case.pk}/cards/").content.decode()
    assert "The power sheets" in page and 'id="power_calci"' in page
    response = client.post(f"/referee/case/{case.pk}/cards/", _form(record))
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.record["deal"]["first"] == record["deal"]["first"]
    assigns = [a for a in record["actions"] if "assign" in a]

    def sheet(actions: list[dict[str, Any]]) -> set[tuple[int, str, int]]:
        return {(a["seat"], a["assign"], a["power"]) for a in actions}

    assert sheet(case.record["actions"]) == sheet(assigns)
    assert len(case.record["actions"]) == len(assigns)
    # The rest of the match, step by step, gives the rules' score of the whole record.
    for action in record["actions"][len(assigns) :]:
        client.post(f"/referee/case/{case.pk}/step/", {"action": json.dumps(action)})
    case.refresh_from_db()
    whole = registry.get("ponte").validate(record)
    assert whole.outcome is not None
    assert case.verdict["outcome"]["scores"] == list(whole.outcome.scores)


def test_a_sheet_that_breaks_a_rule_is_kept_and_the_verdict_names_the_rule(
    people: Any, ponte_result: Result
) -> None:
    client = _referee(people)
    client.post(
        "/referee/open/",
        {"competition": ponte_result.competition_id, "result": ponte_result.pk},
    )
    case = Case.objects.get()
    data = _form(case.record)
    page = client.get(f"/referee/case/{case.pk}/cards/").content.decode()
    assert 'name="power_calci" id="power_calci" inputmode="numeric" value="' in page
    data["power_calci"] = "12.345"  # not a multiple of the chip, not a base value
    assert client.post(f"/referee/case/{case.pk}/cards/", data).status_code == 302
    case.refresh_from_db()
    rules = [v["rule"] for v in case.verdict["violations"]]
    assert rules and rules[0].startswith("ponte.power."), rules


def test_an_unreadable_power_is_refused_at_its_field_with_everything_kept(
    people: Any, ponte_result: Result
) -> None:
    client = _referee(people)
    client.post(
        "/referee/open/",
        {"competition": ponte_result.competition_id, "result": ponte_result.pk, "start": "cards"},
    )
    case = Case.objects.get()
    data = _form(planted.played("ponte", 7))
    data["power_calci"] = "ottantamila"
    response = client.post(f"/referee/case/{case.pk}/cards/", data)
    page = response.content.decode()
    assert response.status_code == 400
    assert "is not a power" in page and 'aria-describedby="power_calci-error"' in page
    assert 'value="ottantamila"' in page and f'value="{data["power_leoni"]}"' in page
    case.refresh_from_db()
    assert case.record == {}


def test_powers_as_people_write_them() -> None:
    assert tabledeal.power("85000") == 85000
    assert tabledeal.power("85.000") == 85000
    assert tabledeal.power("85 000 kg") == 85000
    assert tabledeal.power("85k") == 85000
    assert tabledeal.power("85,5") is None
    assert tabledeal.power("") is None


@pytest.mark.parametrize("preset", ["4p-advanced", "2p-expert", "6p-base", "3p-incognito"])
def test_the_sheets_of_every_mode_give_the_whole_records_verdict(preset: str) -> None:
    """Split sides say the three strategy cards East holds; Expert and Incognito sheets are
    written strongest first; Base fixes the card of each magistratura."""
    from games.core.engine import play

    engine = registry.get("ponte")
    ruleset = engine.ruleset(preset)
    bots = [engine.bots["heuristic"](7 + i) for i in range(ruleset.seats)]
    record = play(engine, engine.new_game(ruleset, 7), bots).to_record()
    found = tabledeal.from_record(record)
    form = tabledeal.sheets("it", None, ruleset)
    strategy = {
        block["key"]: found["perms"][int(block["key"][-1])][: 6 if block["kind"] == "each" else 3]
        for block in form["strategy"]
    }
    made = tabledeal.record(
        found["first"], found["quarter"] or None, found["powers"], strategy, ruleset
    )
    again = tabledeal.with_sheets(record, made)
    whole, typed = engine.validate(record), engine.validate(again)
    assert whole.outcome is not None and typed.outcome is not None
    assert typed.outcome.scores == whole.outcome.scores
    assert typed.violations == whole.violations
