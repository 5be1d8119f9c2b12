from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest

from games.core import registry
from ledger.play import services
from ledger.play.models import GameTable

GAMES = registry.available()


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any) -> Iterator[Callable[..., Any]]:
    """Run a write as a request would: its on-commit work (the bots' moves) runs after it."""

    def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    yield run


@contextmanager
def dealt(seed: int) -> Iterator[None]:
    """Tables made inside are dealt from this seed, as if the server had drawn it (a test
    needs a known deal; a player can name one only at a practice table)."""
    with mock.patch.object(services, "new_seed", return_value=seed):
        yield


def seats_for(game: str, first: str = "me", rest: str = "heuristic") -> list[str]:
    n = registry.get(game).ruleset().seats
    return [first] + [rest] * (n - 1)


def play_out(commit: Callable[..., Any], user: Any, table: GameTable, limit: int = 5000) -> int:
    """The human plays the first legal action on each of its turns until the game ends."""
    game = registry.get(table.game)
    for moves in range(limit):
        table.refresh_from_db()
        if table.over:
            return moves
        state = services.state_of(table)
        seat = services.seat_of(table, user)
        assert seat is not None
        assert state.to_act() == seat.index, "the bots left the human waiting on another seat"
        action = game.encode_action(state.legal_actions(seat.index)[0])
        commit(services.act, user=user, table=table, action=action, move_id=f"m{moves}")
    raise AssertionError("the game did not end")
