"""A real table's deal entered card by card, the play entered by the cards each seat held,
and a verdict that says in words which card the player still held."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.tarocco import tabledeal
from ledger.clubs.models import Result
from ledger.referee.models import Case
from tests.referee import planted

pytestmark = pytest.mark.django_db


def _referee(people: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(people.users["referee"])
    return client


def _fresh_case(client: Client, result: Result) -> Case:
    client.post("/referee/open/", {"competition": result.competition_id, "result": result.pk})
    case = Case.objects.get()
    case.record = {}
    case.save()
    return case


def _post_deal(client: Client, case: Case, dealer: int, placed: dict[str, list[str]]) -> Any:
    data = {"dealer": str(dealer)}
    data.update({f"place_{k}": ",".join(v) for k, v in placed.items()})
    return client.post(f"/referee/case/{case.pk}/cards/", data)


def test_the_deal_tapped_card_by_card_is_the_deal_the_engine_replays(
    people: Any, tarocco_result: Result
) -> None:
    client = _referee(people)
    case = _fresh_case(client, tarocco_result)
    record, _step = planted.tarocco_revoke()
    dealer, placed = tabledeal.placed_from(record["deal"])
    page = client.get(f"/referee/case/{case.pk}/cards/").content.decode()
    assert 'data-code="CK"' in page and "Knight of Cups" in page
    assert _post_deal(client, case, dealer, placed).status_code == 302
    case.refresh_from_db()
    assert case.record["deal"] == record["deal"]
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="to-act"' in page and "vado" in page  # the bargaining, in words
    assert ">bid vado<" not in page  # not the engine's notation


def test_a_card_given_twice_or_a_short_hand_is_refused_with_everything_kept(
    people: Any, tarocco_result: Result
) -> None:
    client = _referee(people)
    case = _fresh_case(client, tarocco_result)
    record, _step = planted.tarocco_revoke()
    dealer, placed = tabledeal.placed_from(record["deal"])
    placed["monte"] = [placed["seat0"][0], *placed["monte"][1:]]
    placed["seat1"] = placed["seat1"][:13]
    response = _post_deal(client, case, dealer, placed)
    page = response.content.decode()
    assert response.status_code == 400
    assert "Given twice" in page and "13 cards of 15: 2 still to give." in page
    assert ",".join(placed["seat1"]) in page
    case.refresh_from_db()
    assert case.record == {}


def test_a_held_card_played_against_the_rules_is_named_in_the_verdict(
    people: Any, tarocco_result: Result
) -> None:
    client = _referee(people, "it")
    case = _fresh_case(client, tarocco_result)
    record, step = planted.tarocco_revoke()
    dealer, placed = tabledeal.placed_from(record["deal"])
    _post_deal(client, case, dealer, placed)
    for action in record["actions"][: step + 1]:
        if "discard" in action:
            client.post(
                f"/referee/case/{case.pk}/step/",
                {"card_set": "3", "cards": action["discard"]},
            )
            continue
        page = client.get(f"/referee/case/{case.pk}/").content.decode()
        value = json.dumps(action).replace('"', "&quot;")
        assert value in page, action  # offered: a legal choice or a card held
        data = {"action": json.dumps(action)}
        if 'value="' + value + '" class="secondary illegal"' in page:
            data["as_played"] = "1"
        client.post(f"/referee/case/{case.pk}/step/", data)
    case.refresh_from_db()
    assert len(case.record["actions"]) == step + 1
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    first = page.split('id="first-fault">')[1].split("</b>")[0]
    assert "avendo ancora" in first and "doveva rispondere" in first
    assert "di Coppe" in first


def test_a_refused_ruling_keeps_the_kind_the_note_and_shows_the_error_at_the_seat(
    people: Any, tarocco_result: Result
) -> None:
    client = _referee(people)
    client.post(
        "/referee/open/",
        {"competition": tarocco_result.competition_id, "result": tarocco_result.pk},
    )
    case = Case.objects.get()
    response = client.post(
        f"/referee/case/{case.pk}/rule/",
        {
            "kind": "split",
            "split_0": "number",
            "split_number_0": "tre",
            "split_1": "table",
            "split_2": "plus",
            "split_3": "table",
            "note": "Rifiuto alla terza presa",
        },
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="kind-split" required checked' in page
    assert "Rifiuto alla terza presa</textarea>" in page
    assert 'value="tre" aria-invalid="true"' in page
    case.refresh_from_db()
    assert case.status == "open"


def test_numbers_per_seat_are_read_as_typed() -> None:
    from ledger.referee.views import _numbers

    assert _numbers("2, 4") == ["2", "4"]
    assert _numbers("2; -4") == ["2", "-4"]
    assert _numbers("1,5 -1,5") == ["1,5", "-1,5"]
    assert _numbers("10,-10,10,-10") == ["10", "-10", "10", "-10"]


def test_a_paste_with_an_error_is_kept_on_the_desk_with_the_error(
    people: Any, tarocco_result: Result
) -> None:
    response = _referee(people).post(
        "/referee/open/",
        {"competition": tarocco_result.competition_id, "record": '{"deal": [1, 2'},
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="open-error"' in page and "{&quot;deal&quot;: [1, 2</textarea>" in page
    assert not Case.objects.exists()
