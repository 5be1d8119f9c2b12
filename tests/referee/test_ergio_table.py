"""A real Er Giò table entered card by card from the start of its battle: each side's laid
Corteo and hand tapped in, the cards drawn after each scontro asked for as they come, the
scontri entered with the cards each side held, and the same verdict as the whole record."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.core import RecordError, registry
from games.ergio import tabledeal
from ledger.clubs.models import Result
from ledger.referee.models import Case
from tests.referee import planted

pytestmark = pytest.mark.django_db


def _referee(people: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(people.users["referee"])
    return client


def _post(client: Client, case: Case, winner: int, placed: dict[str, list[str]]) -> Any:
    data = {"dealer": str(winner)}
    data.update({f"place_{k}": ",".join(v) for k, v in placed.items()})
    return client.post(f"/referee/case/{case.pk}/cards/", data)


def _battle(record: dict[str, Any]) -> tuple[int, dict[str, list[str]], list[dict[str, Any]]]:
    winner, placed = tabledeal.placed_from_record(record)
    return winner, placed, tabledeal.kept_actions(record)


def test_a_match_entered_from_its_battle_gives_the_whole_records_verdict() -> None:
    engine = registry.get("ergio")
    record, step, _summary, _n = planted.ergio_reinforcement_deciding()
    winner, placed, actions = _battle(record)
    position = {"game": "ergio", "deal": tabledeal.deal(winner, placed), "actions": actions}
    whole, from_battle = engine.validate(record), engine.validate(position)
    assert whole.outcome is not None and from_battle.outcome is not None
    assert from_battle.outcome.scores == whole.outcome.scores
    assert [v.rule for v in from_battle.violations] == [v.rule for v in whole.violations]
    offset = len(record["actions"]) - len(actions)
    assert from_battle.violations[0].step == step - offset
    # The position round-trips through the record the engine writes.
    again = engine.start(position).to_record()
    assert tabledeal.placed_from_record(again) == (winner, placed)


def test_a_card_counted_more_often_than_its_deck_holds_it_is_refused_at_its_place() -> None:
    record = planted.played("ergio", 7)
    winner, placed, _actions = _battle(record)
    # A Magistrato in hand that is also laid in the Corteo.
    laid = placed["tramontana_corteo"][0]
    placed["tramontana_hand"] = [*placed["tramontana_hand"], laid]
    with pytest.raises(RecordError) as caught:
        tabledeal.deal(winner, placed)
    assert caught.value.path == "tramontana_hand"
    # A card of the other side.
    _w, placed = tabledeal.placed_from_record(record)
    placed["mezzogiorno_hand"] = [*placed["mezzogiorno_hand"], "SMA-7"]
    with pytest.raises(RecordError) as caught:
        tabledeal.deal(winner, placed)
    assert caught.value.path == "mezzogiorno_hand"


def test_the_referee_taps_the_corteo_and_hands_then_is_asked_for_each_draw(
    people: Any, ergio_result: Result
) -> None:
    client = _referee(people)
    client.post(
        "/referee/open/",
        {"competition": ergio_result.competition_id, "result": ergio_result.pk, "start": "cards"},
    )
    case = Case.objects.get()
    record, step, _summary, number = planted.ergio_reinforcement_deciding()
    winner, placed, actions = _battle(record)
    drawn = {side: placed.pop(f"{side}_drawn") for side in ("tramontana", "mezzogiorno")}
    page = client.get(f"/referee/case/{case.pk}/cards/").content.decode()
    # A real table's deal: nothing placed yet; the cards drawn as on the digital tables.
    assert "tramontana_corteo" in page and 'name="place_tramontana_corteo" value=""' in page
    assert "Who won the Corteo" in page and 'class="card-face"' in page
    assert 'data-copies="6"' in page  # an armed group's card, six in the deck
    assert _post(client, case, winner, placed).status_code == 302
    case.refresh_from_db()
    assert "battle" in case.record["deal"] and case.record["actions"] == []

    taken = {side: 0 for side in drawn}
    for n, action in enumerate(actions):
        page = client.get(f"/referee/case/{case.pk}/").content.decode()
        while 'id="drawn-form"' in page:
            side = "tramontana" if 'value="tramontana"' in page else "mezzogiorno"
            k = taken[side]
            cards = drawn[side][k : k + 2]
            taken[side] += len(cards)
            client.post(
                f"/referee/case/{case.pk}/drawn/",
                {"side": side, "cards": cards, **({"dry": "1"} if len(cards) < 2 else {})},
            )
            page = client.get(f"/referee/case/{case.pk}/").content.decode()
        value = json.dumps(action).replace('"', "&quot;")
        assert f'value="{value}"' in page, (n, action)
        if n == step - (len(record["actions"]) - len(actions)):
            assert 'class="secondary illegal with-face"' in page
        client.post(
            f"/referee/case/{case.pk}/step/",
            {"action": json.dumps(action), "as_played": "1"},
        )
    case.refresh_from_db()
    assert case.verdict["outcome"]["scores"] == [3, 3]
    assert case.verdict["violations"][0]["rule"] == "ergio.battle.reinforce.slots"
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert f"Scontro {number}:" in page and "under the magistrato" in page


def test_cards_drawn_that_the_side_could_not_draw_are_refused(
    people: Any, ergio_result: Result
) -> None:
    client = _referee(people)
    client.post(
        "/referee/open/",
        {"competition": ergio_result.competition_id, "result": ergio_result.pk, "start": "cards"},
    )
    case = Case.objects.get()
    record = planted.played("ergio", 7)
    winner, placed, actions = _battle(record)
    placed.pop("tramontana_drawn")
    placed.pop("mezzogiorno_drawn")
    _post(client, case, winner, placed)
    readies = [i for i, a in enumerate(actions) if "ready" in a]
    first = actions[: readies[1] + 1]  # the first scontro: both sides ready
    for action in first:
        client.post(f"/referee/case/{case.pk}/step/", {"action": json.dumps(action)})
    page = client.get(f"/referee/case/{case.pk}/").content.decode()
    assert 'id="drawn-form"' in page
    side = "tramontana" if 'name="side" value="tramontana"' in page else "mezzogiorno"
    laid = placed[f"{side}_corteo"][0]  # on the table, not in the deck
    response = client.post(
        f"/referee/case/{case.pk}/drawn/", {"side": side, "cards": [laid]}, follow=True
    )
    assert "is not among the cards that side could draw" in response.content.decode()
    case.refresh_from_db()
    assert case.record["deal"]["battle"][side]["drawn"] == []


def test_a_result_recorded_move_by_move_opens_on_the_picker_at_the_start_of_its_battle(
    people: Any, ergio_result: Result
) -> None:
    client = _referee(people)
    client.post(
        "/referee/open/",
        {"competition": ergio_result.competition_id, "result": ergio_result.pk},
    )
    case = Case.objects.get()
    whole = dict(case.record)
    scores = case.verdict["outcome"]["scores"]
    winner, placed, actions = _battle(whole)
    page = client.get(f"/referee/case/{case.pk}/cards/").content.decode()
    for key, cards in placed.items():
        assert f'name="place_{key}" value="{",".join(cards)}"' in page, key
    assert f'<option value="{winner}" selected>' in page
    # Saved as it stands: the battle's steps stay, and the rules give the same score.
    assert _post(client, case, winner, placed).status_code == 302
    case.refresh_from_db()
    assert "battle" in case.record["deal"] and case.record["actions"] == actions
    assert case.verdict["outcome"]["scores"] == scores


def test_a_pasted_record_with_an_error_stays_on_the_page_with_the_error_at_its_place(
    people: Any, ergio_result: Result
) -> None:
    client = _referee(people)
    client.post(
        "/referee/open/",
        {"competition": ergio_result.competition_id, "result": ergio_result.pk},
    )
    case = Case.objects.get()
    paste = '{"game": "ergio",\n "deal": {"battle": {\n  "corteo_winner": "tramontana" "x"}}}'
    response = client.post(f"/referee/case/{case.pk}/record/", {"record": paste})
    page = response.content.decode()
    assert response.status_code == 400
    assert "not valid JSON: a comma is missing" in page and "Line 3, character 33:" in page
    assert "corteo_winner&quot;: &quot;tramontana&quot; &quot;x&quot;" in page  # the paste kept
    assert 'aria-invalid="true" aria-describedby="record-error"' in page
    case.refresh_from_db()
    assert "battle" not in case.record["deal"]  # nothing written
