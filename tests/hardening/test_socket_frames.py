"""A table's socket answers a frame it cannot read with an error frame and one line in the
log, and stays open; it never raises. The probe's finding: a non-JSON frame dropped the
connection with a traceback in the log (Channels' JSON consumer raised on it)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from asgiref.sync import async_to_sync

from ledger.play.live import BAD_FRAMES_BEFORE_CLOSING
from tests.play.test_live import (  # noqa: F401 (fresh_layer: each test its own channel layer)
    APP,
    WebsocketCommunicator,
    _two_people,
    fresh_layer,
)


@pytest.fixture
def commit(django_capture_on_commit_callbacks: Any) -> Any:
    """Run a write as a request would, its on-commit work after it (tests/play/conftest.py)."""

    def run(fn: Any, *args: Any, **kwargs: Any) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


BAD_FRAMES = [
    {"type": "websocket.receive", "text": "this is not JSON"},
    {"type": "websocket.receive", "text": ""},
    {"type": "websocket.receive", "text": "[1, 2, 3]"},
    {"type": "websocket.receive", "text": '"a string"'},
    {"type": "websocket.receive", "text": "[" * 5000},
    {"type": "websocket.receive", "text": '{"pad": "' + "x" * 100_000 + '"}'},
    {"type": "websocket.receive", "bytes": b"\x00\xff binary"},
]


def _watch(table: Any, user: Any, frames: list[dict[str, Any]]) -> tuple[list[Any], Any]:
    """Send ``frames`` on a watcher's socket, each followed by a request to catch up; what
    came back to each, and the socket's last message (a close, or nothing)."""

    async def scenario() -> tuple[list[Any], Any]:
        ws = WebsocketCommunicator(APP, f"/ws/play/{table.pk}/", user)
        connected, _code = await ws.connect()
        assert connected
        await ws.receive_notice()  # the hello (past the seats' presence)
        answers = []
        for frame in frames:
            await ws.send_input(frame)
            answer = await ws.receive_notice()
            closed = None
            if "error" in answer and len(answers) + 1 >= BAD_FRAMES_BEFORE_CLOSING:
                closed = await ws.receive_output(2)
                answers.append((answer, None))
                return answers, closed
            await ws.send_json_to({})
            answers.append((answer, await ws.receive_notice()))
        await ws.disconnect()
        return answers, None

    return async_to_sync(scenario)()


def test_a_frame_that_is_not_json_is_answered_and_logged_in_one_line(commit, people, caplog):
    table = _two_people(commit, people)
    caplog.set_level(logging.WARNING, logger="ledger.play.live")
    for frame in BAD_FRAMES:
        caplog.clear()
        answers, closed = _watch(table, people.users["member"], [frame])
        (error, caught_up) = answers[0]
        assert closed is None
        assert error["error"] == "bad_frame" and error["detail"], frame
        # The socket is still open and still serves: the next request catches up.
        assert caught_up == {"table": table.pk, "moves": 0, "status": "playing", "kind": "hello"}
        records = [r for r in caplog.records if r.name == "ledger.play.live"]
        assert len(records) == 1, [r.getMessage() for r in records]
        assert records[0].exc_info is None and "\n" not in records[0].getMessage()
        assert "x" * 100 not in records[0].getMessage()  # the frame itself is not logged


def test_a_socket_that_keeps_sending_junk_is_closed_politely(commit, people):
    table = _two_people(commit, people)
    junk = [{"type": "websocket.receive", "text": "junk"}] * BAD_FRAMES_BEFORE_CLOSING
    answers, closed = _watch(table, people.users["member"], junk)
    assert len(answers) == BAD_FRAMES_BEFORE_CLOSING
    assert closed == {"type": "websocket.close", "code": 4400}
