"""A real cardChess table entered deal by deal: the desk asks for each deal as it comes
(the first deal of a sfida, each turn's cards, the cards after a reshuffle), the referee
taps who got which card and the table's cards in order, and the plays are entered in
between; the verdict is the whole record's."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.core import registry
from ledger.clubs.models import Competition, Result
from ledger.clubs.results import services
from ledger.referee.models import Case
from tests.referee import planted

pytestmark = pytest.mark.django_db


@pytest.fixture
def cardchess_result(club: Any, people: Any) -> Result:
    comp = Competition.objects.create(
        club=club, name="cardChess", slug="cardchess", game="cardchess"
    )
    table = services.create_table(
        user=people.users["organiser"], competition=comp, label="C1", players=people.extra[:2]
    )
    result, _ = services.record_result(
        user=people.users["scorekeeper"],
        table=table,
        source="full_record",
        record=planted.played("cardchess", 7),
    )
    return result


def _post_dealt(client: Client, case: Case, record: dict[str, Any]) -> tuple[Any, str]:
    """The cards the page asks for, taken from the record as the table dealt them."""
    from games.cardchess import tabledeal

    case.refresh_from_db()
    asked = tabledeal.pending(case.record or {}, None, "en")
    assert asked is not None
    deal = record["deal"]["sfide"][asked["sfida"]]
    source = deal["deck"] if asked["source"] == "deck" else deal["reshuffle"]
    true = source[asked["start"] : asked["start"] + asked["count"]]
    data: dict[str, list[str]] = {}
    for dest, code in zip(asked["order"], true, strict=True):
        data.setdefault("table" if dest == -1 else f"seat{dest}", []).append(code)
    page = client.get(f"/referee/case/{case.pk}/cards/").content.decode()
    for key in data:
        assert f'data-place="{key}"' in page
    post = {"dealer": "0", **{f"place_{k}": ",".join(v) for k, v in data.items()}}
    return client.post(f"/referee/case/{case.pk}/cards/", post), page


def test_a_match_entered_deal_by_deal_gives_the_whole_records_verdict(
    people: Any, cardchess_result: Result
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["referee"])
    client.post(
        "/referee/open/",
        {
            "competition": cardchess_result.competition_id,
            "result": cardchess_result.pk,
            "start": "cards",
        },
    )
    case = Case.objects.get()
    assert case.record == {}
    record = planted.played("cardchess", 7)
    asked = 0
    reshuffles = 0
    for action in record["actions"]:
        while True:
            page = client.get(f"/referee/case/{case.pk}/").content.decode()
            if not case.record or 'id="enter-dealt"' in page:
                response, picker = _post_dealt(client, case, record)
                assert response.status_code == 302, response.content.decode()[:2000]
                asked += 1
                reshuffles += "after the reshuffle" in picker
                case.refresh_from_db()
                continue
            break
        value = json.dumps(action).replace('"', "&quot;")
        assert f'value="{value}"' in page, action
        client.post(f"/referee/case/{case.pk}/step/", {"action": json.dumps(action)})
        case.refresh_from_db()
    whole = registry.get("cardchess").validate(record)
    assert whole.outcome is not None
    assert case.verdict["outcome"]["scores"] == list(whole.outcome.scores)
    assert case.verdict["violations"] == []
    assert asked >= 10 and reshuffles >= 1


def test_a_card_that_cannot_be_among_the_cards_dealt_is_refused_at_its_place(
    people: Any, cardchess_result: Result
) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["referee"])
    client.post(
        "/referee/open/",
        {
            "competition": cardchess_result.competition_id,
            "result": cardchess_result.pk,
            "start": "cards",
        },
    )
    case = Case.objects.get()
    deck = planted.played("cardchess", 7)["deal"]["sfide"][0]["deck"]
    post = {
        "dealer": "0",
        "place_seat0": ",".join(deck[0:4]),
        "place_seat1": ",".join(deck[4:8]),
        "place_table": ",".join([deck[8], deck[9], deck[0]]),  # a card of seat 0 again
    }
    response = client.post(f"/referee/case/{case.pk}/cards/", post)
    page = response.content.decode()
    assert response.status_code == 400
    assert "Given twice" in page and f'value="{post["place_table"]}"' in page
    case.refresh_from_db()
    assert case.record == {}
