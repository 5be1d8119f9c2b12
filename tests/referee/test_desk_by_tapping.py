"""The desk takes any game's case by tapping: San Marco's points in a number field (no
button per value), a wrong cardChess capture offered marked with the rule it breaks, and the
timeline that goes back to any step and puts the steps set aside back."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.test import Client

from games.core import registry
from ledger.clubs.models import Competition
from ledger.referee import checking, services
from ledger.referee.models import Case
from tests.referee import planted

pytestmark = pytest.mark.django_db


def _client(people: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(people.users["referee"])
    return client


def _case(people: Any, club: Any, game: str, record: dict[str, Any] | None = None) -> Case:
    comp = Competition.objects.create(club=club, name=game, slug=game, game=game)
    return services.open_case(user=people.users["referee"], competition=comp, record=record)


def test_san_marco_colours_are_tapped_and_points_typed_in_one_number_field(
    people: Any, club: Any
) -> None:
    case = _case(people, club, "sanmarco", {})
    client = _client(people)
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="enter-deal"' in page
    deal = client.get(f"/referee/case/{case.pk}/cards/").content.decode()
    assert 'data-code="bianco"' in deal and "white" in deal
    saved = client.post(
        f"/referee/case/{case.pk}/cards/",
        {"dealer": "0", "place_seat0": "bianco,nero", "place_seat1": "giallo,blu"},
    )
    assert saved.status_code == 302
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="number-entry"' in page and 'type="number"' in page
    assert "enters 0 points" not in page and "enters 200 points" not in page
    assert page.count('name="action" value=') == 0  # no button per value
    ok = client.post(
        f"/referee/case/{case.pk}/step/",
        {"entry": "1", "entry_colour": "0:0", "entry_points": "57"},
    )
    assert ok.status_code == 302
    case.refresh_from_db()
    assert case.record["actions"] == [{"seat": 0, "colour": 0, "points": 57}]


def test_san_marco_points_beyond_the_cap_are_refused_in_words_then_recorded_as_written(
    people: Any, club: Any
) -> None:
    case = _case(people, club, "sanmarco", {})
    client = _client(people)
    client.post(
        f"/referee/case/{case.pk}/cards/",
        {"dealer": "0", "place_seat0": "bianco,nero", "place_seat1": "giallo,blu"},
    )
    refused = client.post(
        f"/referee/case/{case.pk}/step/",
        {"entry": "1", "entry_colour": "0:0", "entry_points": "250"},
    )
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "Prestige points are a whole number from zero to the table" in page
    assert 'value="250"' in page and 'id="record-entry-anyway"' in page
    assert "sanmarco.entry" not in page.split('id="number-entry"')[1].split("</form>")[0]
    unreadable = client.post(
        f"/referee/case/{case.pk}/step/",
        {"entry": "1", "entry_colour": "0:0", "entry_points": "dodici"},
    )
    assert unreadable.status_code == 400
    assert "whole number" in unreadable.content.decode()
    assert 'value="dodici"' in unreadable.content.decode()
    client.post(
        f"/referee/case/{case.pk}/step/",
        {"entry": "1", "entry_colour": "0:0", "entry_points": "250", "as_played": "1"},
    )
    case.refresh_from_db()
    assert case.record["actions"] == [{"seat": 0, "colour": 0, "points": 250}]
    assert case.verdict["violations"][0]["rule"] == "sanmarco.entry.range"
    # a colour written out of turn is one choice of the same field
    client.post(
        f"/referee/case/{case.pk}/step/",
        {"entry": "1", "entry_colour": "1:0", "entry_points": "40", "as_played": "1"},
    )
    case.refresh_from_db()
    rules = [v["rule"] for v in case.verdict["violations"]]
    assert "sanmarco.entry.turn" in rules


def _at_first_resolve(seed: int) -> tuple[dict[str, Any], int]:
    """A played cardChess record cut just before its first reveal, and the wrong taker."""
    record = planted.played("cardchess", seed)
    i = next(k for k, a in enumerate(record["actions"]) if "resolve" in a)
    cut = copy.deepcopy(record)
    cut["actions"] = cut["actions"][:i]
    cut.pop("claimed_scores", None)
    right = record["actions"][i]["taker"]
    wrong = 1 if right != 1 else 0
    return cut, wrong


def test_a_wrong_cardchess_capture_is_offered_marked_with_its_rule_and_recorded_by_tap(
    people: Any, club: Any
) -> None:
    record, wrong = _at_first_resolve(7)
    case = _case(people, club, "cardchess", record)
    client = _client(people)
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    held = page.split('class="choices-groups held-buttons"')[1].split("</form>")[0]
    assert "⚠" in held and "Breaks:" in held
    step = {"seat": 0, "resolve": 0, "taker": wrong}
    assert json.dumps(step).replace('"', "&quot;") in held
    response = client.post(
        f"/referee/case/{case.pk}/step/", {"action": json.dumps(step), "as_played": "1"}
    )
    assert response.status_code == 302
    case.refresh_from_db()
    first = case.verdict["violations"][0]
    assert first["step"] == len(record["actions"])
    assert first["rule"].startswith("cardchess.")
    rule = registry.get("cardchess").rules.get(first["rule"])
    assert rule is not None and rule.text.as_dict()["en"] in held


def test_the_timeline_goes_back_to_any_step_and_puts_the_steps_back(people: Any, club: Any) -> None:
    record, step = planted.tarocco_revoke()
    case = _case(people, club, "tarocco", record)
    client = _client(people)
    total = len(record["actions"])
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="goto-form"' in page and f'name="step" value="{step + 1}"' in page
    client.post(f"/referee/case/{case.pk}/goto/", {"step": [str(step + 1), ""]})
    case.refresh_from_db()
    assert len(case.record["actions"]) == step and len(case.later) == total - step
    assert case.verdict["violations"] == []  # the revoke is set aside
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="put-back-one"' in page
    client.post(f"/referee/case/{case.pk}/put-back/", {"one": "1"})
    case.refresh_from_db()
    assert len(case.record["actions"]) == step + 1
    assert case.verdict["violations"][0]["step"] == step
    client.post(f"/referee/case/{case.pk}/put-back/", {})
    case.refresh_from_db()
    assert case.record["actions"] == record["actions"] and case.later == []
    bad = client.post(f"/referee/case/{case.pk}/goto/", {"step": str(total + 5)}, follow=True)
    assert "Write a step number from 1 to" in bad.content.decode()


def test_a_step_entered_after_going_back_keeps_the_steps_set_aside_to_put_back_or_drop(
    people: Any, club: Any
) -> None:
    record, step = planted.tarocco_revoke()
    case = _case(people, club, "tarocco", record)
    client = _client(people)
    client.post(f"/referee/case/{case.pk}/goto/", {"step": str(step + 1)})
    case.refresh_from_db()
    build = checking.builder("tarocco", case.record)
    legal = build["choices"][0]["raw"]
    client.post(f"/referee/case/{case.pk}/step/", {"action": json.dumps(legal)})
    case.refresh_from_db()
    total = len(record["actions"])
    assert case.record["actions"][-1] == legal and len(case.later) == total - step
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="later-note"' in page and 'id="drop-next"' in page
    client.post(f"/referee/case/{case.pk}/put-back/", {"drop": "1", "one": "1"})
    case.refresh_from_db()
    assert len(case.later) == total - step - 1  # the revoke, replaced, is dropped
    client.post(f"/referee/case/{case.pk}/put-back/", {})
    case.refresh_from_db()
    assert len(case.record["actions"]) == total and case.later == []
    assert case.record["actions"][step] == legal
    client.post(f"/referee/case/{case.pk}/goto/", {"step": "1"})
    client.post(f"/referee/case/{case.pk}/put-back/", {"drop": "1"})
    case.refresh_from_db()
    assert case.record["actions"] == [] and case.later == []


def test_saving_the_deal_of_a_finished_hand_says_the_hand_is_over_not_enter_the_play(
    people: Any, club: Any
) -> None:
    from games.tarocco import tabledeal

    record = planted.played("tarocco", 7)
    case = _case(people, club, "tarocco", record)
    client = _client(people)
    dealer, placed = tabledeal.placed_from(record["deal"])
    post = {"dealer": str(dealer), **{f"place_{k}": ",".join(v) for k, v in placed.items()}}
    page = client.post(f"/referee/case/{case.pk}/cards/", post, follow=True).content.decode()
    assert "reach the end of the hand" in page
    assert "now enter the play" not in page


def test_a_san_marco_bridge_where_the_board_has_no_site_is_offered_marked(
    people: Any, club: Any
) -> None:
    engine = registry.get("sanmarco")
    record = json.loads(json.dumps(engine.new_game(engine.ruleset("base3"), 3).to_record()))
    record["actions"] = []
    comp = Competition.objects.create(
        club=club, name="San Marco", slug="sanmarco-board", game="sanmarco", ruleset="base3"
    )
    case = services.open_case(user=people.users["referee"], competition=comp, record=record)
    client = _client(people)
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="enter-deal"' not in page  # the board is entered step by step
    held = page.split('class="choices-groups held-buttons"')[1].split("</form>")[0]
    step = {"seat": 0, "do": "bridge", "between": ["cannaregio", "dorsoduro"]}
    assert json.dumps(step).replace('"', "&quot;") in held and "Breaks:" in held
    client.post(f"/referee/case/{case.pk}/step/", {"action": json.dumps(step), "as_played": "1"})
    case.refresh_from_db()
    assert case.verdict["violations"][0]["step"] == 0
