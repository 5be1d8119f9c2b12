"""Moves that race: only meaningful on PostgreSQL, where requests run side by side."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.core import registry
from ledger.play import services
from ledger.play.models import GameTable, Move
from tests.play.conftest import dealt

pytestmark = [
    pytest.mark.postgres_only,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="row locks need PostgreSQL to mean anything"
    ),
]


def _race(n, fn):
    barrier = threading.Barrier(n)
    outcomes = []

    def run():
        from django.db import connections

        barrier.wait()
        try:
            outcomes.append(fn())
        except Exception as exc:  # the test counts what each thread got
            outcomes.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outcomes


def test_one_move_sent_by_eight_clients_at_once_is_applied_once(transactional_db, people):
    user = people.users["member"]
    with dealt(2):
        table = services.create_table(
            user=user, club=people.club, game="cardchess", seats=["me", "open"]
        )
    services.join(user=people.users["referee"], table=table, invite=table.invite)
    table.refresh_from_db()
    state = services.state_of(table)
    seat0 = services.seat_of(table, user).index
    assert state.to_act() == seat0
    action = registry.get("cardchess").encode_action(state.legal_actions(seat0)[0])
    outcomes = _race(
        8,
        lambda: services.act(
            user=user, table=GameTable.objects.get(pk=table.pk), action=action, move_id="same"
        ),
    )
    assert all(not isinstance(o, Exception) for o in outcomes), outcomes
    assert sum(1 for _move, created in outcomes if created) == 1
    assert Move.objects.filter(table=table).count() == 1
    table.refresh_from_db()
    assert table.moves_count == 1


def test_two_different_moves_at_once_are_taken_in_turn(transactional_db, people):
    from ledger.clubs.errors import RuleViolation

    user = people.users["member"]
    with dealt(2):
        table = services.create_table(
            user=user, club=people.club, game="cardchess", seats=["me", "open"]
        )
    services.join(user=people.users["referee"], table=table, invite=table.invite)
    state = services.state_of(table)
    actions = [registry.get("cardchess").encode_action(a) for a in state.legal_actions(0)[:2]]
    ids = iter(["a", "b"])
    picks = iter(actions)
    lock = threading.Lock()

    def move():
        with lock:
            move_id, action = next(ids), next(picks)
        return services.act(
            user=user, table=GameTable.objects.get(pk=table.pk), action=action, move_id=move_id
        )

    outcomes = _race(2, move)
    assert sum(1 for o in outcomes if isinstance(o, tuple)) == 1
    assert sum(1 for o in outcomes if isinstance(o, RuleViolation)) == 1
    assert Move.objects.filter(table=table).count() == 1
