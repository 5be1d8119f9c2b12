"""A result's body may name its game, as a client generated from the schema does (one body
per game): the table's game is taken, another is refused at ``game``, on the fast path
(token, JSON of table, source and record) and the full one (per-seat scores) alike."""

from __future__ import annotations

from typing import Any

import pytest


def _post(people: Any, body: dict[str, Any]) -> Any:
    return people.client("scorekeeper").post("/api/v1/results/", body, format="json")


@pytest.mark.parametrize("extra", [{}, {"players": None}], ids=["fast path", "full path"])
def test_a_result_naming_its_tables_game_is_recorded_and_another_game_is_refused(
    people, manual_table, extra
):
    game = manual_table.competition.game
    body = {"table": manual_table.pk, "source": "summary", "record": {"scores": [3, -3]}}
    wrong = _post(people, {**body, **extra, "game": game + "x"})
    assert wrong.status_code == 400, wrong.content
    assert set(wrong.json()["error"]["fields"]) == {"game"}
    right = _post(people, {**body, **extra, "game": game})
    assert right.status_code == 201, right.content
    assert right.json()["table"] == manual_table.pk


def test_a_game_that_is_not_text_is_refused(people, manual_table):
    body = {"table": manual_table.pk, "source": "summary", "record": {"scores": [3, -3]}}
    answer = _post(people, {**body, "game": ["tarocco"]})
    assert answer.status_code == 400
    assert "game" in answer.json()["error"]["fields"]
