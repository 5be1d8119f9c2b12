"""The web process's HTTP bridge (ledger/asgi.py): a request with a small body goes to the
WSGI application in one hand-over and comes back whole; uploads and streamed answers keep
streaming, each in its own direction."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from ledger import asgi

T = TypeVar("T")


def run_loop(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own, as the server runs its event loop: the
    test's own thread may already hold a running loop (the browser tests' Playwright keeps
    one for the whole session)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def scope(method: str = "POST", headers: list[tuple[bytes, bytes]] | None = None) -> dict:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": "/api/v1/results/",
        "raw_path": b"/api/v1/results/",
        "query_string": b"a=1",
        "root_path": "",
        "headers": headers or [],
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 5000),
    }


def call(app: Any, request: dict, parts: list[bytes]) -> list[dict]:
    """Run the ASGI ``app`` on one request whose body arrives in ``parts``; the messages
    it sent."""
    sent: list[dict] = []

    async def run() -> None:
        incoming = [
            {"type": "http.request", "body": part, "more_body": i < len(parts) - 1}
            for i, part in enumerate(parts or [b""])
        ]

        async def receive() -> dict:
            return incoming.pop(0) if incoming else {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        await app(request, receive, send)

    run_loop(run())
    return sent


def echo(environ: dict, start_response: Callable[..., Any]) -> list[bytes]:
    """Answers with what it was given, in two parts."""
    body = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0))
    seen = {
        "method": environ["REQUEST_METHOD"],
        "path": environ["PATH_INFO"],
        "query": environ["QUERY_STRING"],
        "type": environ.get("CONTENT_TYPE"),
        "key": environ.get("HTTP_IDEMPOTENCY_KEY"),
        "remote": environ["REMOTE_ADDR"],
        "body": body.decode(),
    }
    start_response("201 Created", [("Content-Type", "application/json"), ("X-Seen", "yes")])
    text = json.dumps(seen).encode()
    return [text[:5], text[5:]]


def test_a_small_request_reaches_the_application_whole_and_its_answer_comes_back_whole():
    body = json.dumps({"table": 1, "record": {"x": "è"}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"idempotency-key", b"k-1"),
    ]
    sent = call(asgi.Bridge(echo, workers=2), scope(headers=headers), [body[:7], body[7:]])
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[0]["status"] == 201
    assert (b"x-seen", b"yes") in sent[0]["headers"]
    assert not sent[1].get("more_body", False)
    assert json.loads(sent[1]["body"]) == {
        "method": "POST",
        "path": "/api/v1/results/",
        "query": "a=1",
        "type": "application/json",
        "key": "k-1",
        "remote": "127.0.0.1",
        "body": body.decode(),
    }


def test_a_request_without_a_body_is_answered():
    sent = call(asgi.Bridge(echo, workers=2), scope("GET"), [])
    assert sent[0]["status"] == 201
    assert json.loads(sent[1]["body"])["body"] == ""


def test_a_large_or_chunked_body_streams_to_the_application_and_arrives_whole():
    big = b"x" * (asgi.SMALL_BODY + 10)
    read: list[bytes] = []

    def reader(environ: dict, start_response: Callable[..., Any]) -> list[bytes]:
        read.append(environ["wsgi.input"].read())
        start_response("200 OK", [])
        return [b"ok"]

    bridge = asgi.Bridge(reader, workers=2)
    for headers in (
        [(b"content-length", str(len(big)).encode())],
        [(b"transfer-encoding", b"chunked")],
    ):
        read.clear()
        sent = call(bridge, scope(headers=headers), [big[:1000], big[1000:]])
        assert read == [big]
        assert sent[0]["status"] == 200
        assert b"".join(m.get("body", b"") for m in sent[1:]) == b"ok"


class Stream:
    """A streamed answer (as Django's StreamingHttpResponse): each part is made only once
    the previous one has been sent."""

    streaming = True

    def __init__(self, sent: list[dict]) -> None:
        self.sent = sent
        self.closed = threading.Event()

    def __iter__(self) -> Iterator[bytes]:
        for n in range(3):
            assert len(self.sent) == n + 1, "the earlier parts were sent before this one"
            yield f"part {n};".encode()

    def close(self) -> None:
        self.closed.set()


def test_a_streamed_answer_is_sent_part_by_part_and_closed():
    sent: list[dict] = []
    stream = Stream(sent)

    def app(environ: dict, start_response: Callable[..., Any]) -> Stream:
        start_response("200 OK", [("Content-Type", "text/csv")])
        return stream

    async def run() -> None:
        async def receive() -> dict:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict) -> None:
            sent.append(message)

        await asgi.Bridge(app, workers=2)(scope("GET"), receive, send)

    run_loop(run())
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200
    assert [m["body"] for m in sent[1:]] == [b"part 0;", b"part 1;", b"part 2;", b""]
    assert stream.closed.is_set()


def test_a_client_gone_before_its_body_arrived_reaches_no_application():
    called: list[bool] = []

    def app(environ: dict, start_response: Callable[..., Any]) -> list[bytes]:
        called.append(True)
        start_response("200 OK", [])
        return []

    async def run() -> list[dict]:
        sent: list[dict] = []

        async def receive() -> dict:
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        await asgi.Bridge(app, workers=2)(scope(headers=[(b"content-length", b"5")]), receive, send)
        return sent

    assert run_loop(run()) == []
    assert not called


STARTUP = """
import asyncio, gc, json, os, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "ledger.settings"
from ledger import asgi

async def lifespan():
    sent, messages = [], iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])

    async def receive():
        return next(messages)

    async def send(message):
        sent.append(message["type"])

    await asgi.application({"type": "lifespan"}, receive, send)
    return sent

before = gc.get_freeze_count()
sent = asyncio.run(lifespan())
views_loaded = "ledger.night.views" in sys.modules
print(json.dumps([before, gc.get_freeze_count(), gc.get_threshold()[0], views_loaded, sent]))
"""


def _start_a_web_process(**env: str) -> list[Any]:
    out = subprocess.run(
        [sys.executable, "-c", STARTUP],
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_starting_web_process_loads_its_views_then_freezes_what_lives_as_long_as_it():
    before, after, youngest, views_loaded, sent = _start_a_web_process()
    assert before == 0
    # Every module, class and setting loaded by then is out of the collector's walks.
    assert after > 50_000
    assert youngest == 5000
    assert views_loaded
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]


def test_the_freeze_can_be_turned_off():
    before, after, youngest, _views, sent = _start_a_web_process(LEDGER_GC_FREEZE="0")
    assert (before, after, youngest) == (0, 0, 700)
    assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
