"""No seat's page or API answer ever holds another seat's hand.

Two proofs, on every game with an engine, at every step of a game played by humans only:
1. what the board page and the API view are built from: only the engine's ``view`` and
   ``legal_actions`` of the seat asking (a guard around the state refuses anything else,
   such as another seat's view or the record with every hand);
2. what they contain: no card of another seat's hand that the asking seat cannot see
   anywhere in its own view appears in the page's HTML or the API's JSON.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.test import Client

from games.core import registry
from ledger.play import selectors, services
from tests.play.conftest import GAMES, dealt

USERS = ["member", "scorekeeper", "referee", "organiser", "scorekeeper2"]
STEPS = 40  # every step of the first STEPS, then every 10th and the end of the game


class Guard:
    """The state as the page for one seat may use it."""

    def __init__(self, state: Any, seat: int) -> None:
        self._state, self._seat = state, seat

    def to_act(self) -> Any:
        return self._state.to_act()

    def is_over(self) -> bool:
        return bool(self._state.is_over())

    def outcome(self) -> Any:
        return self._state.outcome()

    def view(self, seat: Any) -> Any:
        assert seat == self._seat, f"seat {self._seat}'s page asked for seat {seat}'s view"
        return self._state.view(seat)

    def legal_actions(self, seat: int) -> Any:
        assert seat == self._seat, f"seat {self._seat}'s page asked for seat {seat}'s actions"
        return self._state.legal_actions(seat)

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"a seat's page read state.{name}")


def _leaves(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [str(value)] if value is not None else []


def _appears(token: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", text) is not None


@pytest.mark.parametrize("game", GAMES)
def test_no_seat_sees_another_seats_hand(game, people, monkeypatch, commit):
    engine = registry.get(game)
    n = engine.ruleset().seats
    users = [people.users[u] for u in USERS[:n]]
    with dealt(17):
        table = commit(
            services.create_table,
            user=users[0],
            club=people.club,
            game=game,
            seats=["me"] + ["open"] * (n - 1),
        )
    for user in users[1:]:
        commit(services.join, user=user, table=table, invite=table.invite)
    clients = []
    for user in users:
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(user)
        clients.append(client)
    rng = random.Random(5)
    seat_of_user = {services.seat_of(table, u).index: u for u in users}
    asking = {"seat": 0}
    real = services.state_of
    monkeypatch.setattr(selectors, "state_of", lambda t: Guard(real(t), asking["seat"]))
    checked = 0
    for step in range(engine.info.max_actions + 1):
        table.refresh_from_db()
        state = real(table)
        if step < STEPS or step % 10 == 0 or state.is_over():
            views = {s: state.view(s) for s in range(n)}
            for a in range(n):
                asking["seat"] = a
                page = clients[a].get(f"/play/{table.pk}/board/").content.decode()
                api = clients[a].get(f"/api/v1/play/tables/{table.pk}/view/").json()
                assert api["view"] == views[a]
                api_text = json.dumps(api)
                own = set(_leaves(views[a]))
                for b in range(n):
                    hand = views[b].get("hand") if b != a else None
                    for card in set(hand or []) - own:
                        assert not _appears(card, page), f"seat {a}'s page shows {card} of {b}"
                        assert not _appears(card, api_text), f"seat {a}'s API shows {card}"
                checked += 1
        if state.is_over():
            break
        seat = state.to_act()
        action = rng.choice(list(state.legal_actions(seat)))
        commit(
            services.act,
            user=seat_of_user[seat],
            table=table,
            action=engine.encode_action(action),
        )
    assert table.status == "finished"
    assert checked > n
