"""The referee desk on San Marco's board game: a disputed divide-and-choose, a banishment of
the wrong aristocrats and a wrong Doge toll, each found at its step with its rule."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.core import RandomBot, play
from games.sanmarco import GAME
from games.sanmarco.game import HeuristicBot
from games.sanmarco.table import BoardState

pytestmark = pytest.mark.django_db


def _played(seed: int, name: str = "base3", bot: Any = HeuristicBot) -> BoardState:
    ruleset = GAME.ruleset(name)
    state = GAME.new_game(ruleset, seed)
    play(GAME, state, [bot(seed + i) for i in range(ruleset.seats)])
    assert isinstance(state, BoardState)
    return state


def _check(people: Any, record: dict[str, Any]) -> dict[str, Any]:
    response = people.client(None, "en").post(
        "/api/v1/referee/check", {"game": "sanmarco", "record": record}, format="json"
    )
    assert response.status_code == 200, response.content
    body: dict[str, Any] = response.json()
    return body


def test_a_hand_divided_with_an_empty_offer_is_found_at_its_step(people: Any) -> None:
    record = json.loads(json.dumps(_played(3).to_record()))
    actions = record["actions"]
    hand = [i for i, a in enumerate(actions) if a["do"] == "pile"][:10]  # 3p: 6 + 4 cards
    assert hand == list(range(hand[0], hand[0] + 10))
    planted = copy.deepcopy(record)
    for i in hand:
        if planted["actions"][i]["pile"] == 2:
            planted["actions"][i]["pile"] = 0  # the third offer would stay empty
    body = _check(people, planted)
    first = body["first_violation"]
    assert first["rule"] == "sanmarco.base.divide" and first["step"] in hand
    # until the last card the cards left could still fill the third offer
    assert first["step"] == hand[-1]
    assert first["rule_text"] and body["valid"] is False


def test_a_banisher_who_removes_his_own_before_the_others_is_found(people: Any) -> None:
    for seed in range(40):
        state = _played(seed)
        record = json.loads(json.dumps(state.to_record()))
        replay = GAME.start(record)
        for i, raw in enumerate(record["actions"]):
            seat, action = GAME.decode_step(raw, "actions")
            pending = replay.pending
            if action.do == "remove" and pending is not None:
                own = replay.acting_colour()
                if own is not None and replay.cubes[pending.district][own] > 0:
                    planted = copy.deepcopy(record)
                    planted["actions"][i]["colour"] = own
                    body = _check(people, planted)
                    first = body["first_violation"]
                    assert (first["rule"], first["step"]) == ("sanmarco.base.banish_order", i)
                    return
            replay.apply_unchecked(seat, action)
    raise AssertionError("no banishment to plant a wrong removal in")


def test_a_doge_toll_left_unpaid_on_the_score_sheet_is_found(people: Any) -> None:
    for seed in range(30):
        state = _played(seed, bot=RandomBot)
        tolls = [e for e in state.score_log if e["why"] == "toll" and e["points"][e["mover"]]]
        if not tolls:
            continue
        toll = tolls[0]
        claimed = list(state.outcome().scores)
        claimed[toll["mover"]] += 1  # the scorekeeper never took the point off
        claimed[toll["owner"]] -= 1
        record = json.loads(json.dumps(state.to_record()))
        record["claimed_scores"] = claimed
        body = _check(people, record)
        assert [v["rule"] for v in body["violations"]] == ["sanmarco.record.claimed_score"]
        assert body["scores"] == list(state.outcome().scores)
        return
    raise AssertionError("no game with a toll")
