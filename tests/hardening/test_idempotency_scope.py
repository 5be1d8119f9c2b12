"""Idempotency keys belong to their sender: the same key from two logins records two
results, and nobody can take the key of a result the service records for itself. The
probe's finding: ``Idempotency-Key: play-table-N`` sent ahead of time made the final move
of table N answer 409 and left the table playing for ever."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.clubs.models import Result
from ledger.play import services as play
from tests.play.conftest import commit, dealt  # noqa: F401 - the fixture, here too
from tests.play.test_services import _people_table


def _post(client: Any, table: Any, key: str, scores: list[int]) -> Any:
    return client.post(
        "/api/v1/results/",
        {"table": table.pk, "source": "manual", "scores": scores},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )


def test_the_same_key_from_two_senders_records_two_results(people, manual_table):
    first = _post(people.client("scorekeeper"), manual_table, "hand-1", [3, 1])
    other = _post(people.client("scorekeeper2"), manual_table, "hand-1", [1, 3])
    assert first.status_code == other.status_code == 201
    assert first.json()["id"] != other.json()["id"]
    # Each sender's retry still answers its own first result, never the other's.
    again = _post(people.client("scorekeeper2"), manual_table, "hand-1", [1, 3])
    assert again.status_code == 201 and again.json()["id"] == other.json()["id"]
    assert again["Idempotent-Replayed"] == "true"
    # And a sender cannot learn of another's result by reusing its key with another body.
    clash = _post(people.client("scorekeeper2"), manual_table, "hand-1", [2, 2])
    assert clash.status_code == 409
    assert str(first.json()["id"]) not in clash.content.decode()
    assert Result.objects.count() == 2


def test_a_key_sent_ahead_for_a_future_digital_table_takes_nothing(
    commit,  # noqa: F811
    people,
    manual_table,
):
    # Before the game ends, a scorekeeper sends the keys the table's result would use
    # (guessed, and even the real one).
    table = _people_table(commit, people)
    client = people.client("scorekeeper")
    for key in (f"play-table-{table.pk}", play.result_key(table)):
        assert _post(client, manual_table, key, [1, 0]).status_code == 201
    from games.core import registry

    for _ in range(500):
        table.refresh_from_db()
        if table.over:
            break
        state = play.state_of(table)
        seat = state.to_act()
        user = next(s.user for s in table.seats.all() if s.index == seat)
        action = registry.get("cardchess").encode_action(state.legal_actions(seat)[0])
        commit(play.act, user=user, table=table, action=action)  # never a 409
    table.refresh_from_db()
    assert table.over and table.result is not None
    assert table.result.status == Result.Status.ACCEPTED


@pytest.mark.parametrize("key", ["", "x" * 129])
def test_an_empty_or_overlong_key_is_no_key_or_a_400(people, manual_table, key):
    answer = _post(people.client("scorekeeper"), manual_table, key, [1, 0])
    assert answer.status_code == (201 if not key else 400)
