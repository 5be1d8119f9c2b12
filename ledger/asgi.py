"""The web process: one ASGI application for the pages, the API and the live tables.

HTTP goes to the WSGI application (ledger/wsgi.py) run in a pool
of threads, as a threaded WSGI server would; WebSockets go to Channels (ledger/play/live.py).
Serve it with ``python -m ledger.serve`` (docs/operations.md).

A request with a small body (an API call, a form) is read whole by the event loop, handed to
a thread once, and its answer handed back once (``Bridge``): a2wsgi's adapter, which the
others take (uploads, streamed answers), fetches the body and sends each part of the answer
through the event loop from the thread, a round trip between the threads each, with the
thread waiting for the loop and then for the interpreter lock every time.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import io
import itertools
import os
from collections.abc import Callable, Iterable
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from a2wsgi.wsgi_typing import Environ
from asgiref.typing import Scope
from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

from ledger.play import live
from ledger.wsgi import application as wsgi_application
from ledger.wsgi import settle

THREADS = int(os.environ.get("WEB_THREADS", "16"))

# Bodies up to this size are read before the thread starts; larger ones stream to it.
SMALL_BODY = 64 * 1024


class Bridge:
    """HTTP to a WSGI application in a pool of threads, with one hand-over to the thread
    and one back for a request whose body is small and whose answer is not streamed;
    anything else goes through a2wsgi's ``WSGIMiddleware`` (whose threads it shares)."""

    def __init__(self, app: Callable[..., Iterable[bytes]], workers: int) -> None:
        self.app = app
        self.streaming = WSGIMiddleware(app, workers=workers)
        self.executor = self.streaming.executor

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        length = _content_length(scope) if scope["type"] == "http" else None
        if length is None or length > SMALL_BODY:
            # a2wsgi types the scope as its own TypedDict; this one is the server's dict.
            await self.streaming(scope, receive, send)  # type: ignore[arg-type]  # a plain dict, not a2wsgi's TypedDict
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
        # An HTTP scope (a length was read), as a plain dict where a2wsgi wants its TypedDict.
        environ = build_environ(scope, io.BytesIO(bytes(body)))  # type: ignore[arg-type]  # a plain dict, not a2wsgi's TypedDict
        loop = asyncio.get_running_loop()
        answer = await loop.run_in_executor(
            self.executor,
            functools.partial(contextvars.copy_context().run, self._answer, environ, loop, send),
        )
        if answer is not None:
            status, headers, content = answer
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": content})

    def _answer(
        self, environ: Environ, loop: asyncio.AbstractEventLoop, send: Any
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes] | None:
        """In a thread: the answer's status, headers and body, for the loop to send; or, for
        an answer that streams, None once this thread has sent it part by part."""
        started: list[Any] = []
        written: list[bytes] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Callable[[bytes], None]:
            if exc_info is not None and started:
                raise exc_info[1].with_traceback(exc_info[2])
            started[:] = [
                int(status.split(" ", 1)[0]),
                [
                    (name.strip().encode("latin1").lower(), value.strip().encode("latin1"))
                    for name, value in headers
                ],
            ]
            return written.append

        iterable = self.app(environ, start_response)
        try:
            if not getattr(iterable, "streaming", False):
                written.extend(iterable)
                return started[0], started[1], b"".join(written)

            def out(message: dict[str, Any]) -> None:
                asyncio.run_coroutine_threadsafe(send(message), loop).result()

            out({"type": "http.response.start", "status": started[0], "headers": started[1]})
            for chunk in itertools.chain(written, iterable):
                if chunk:
                    out({"type": "http.response.body", "body": chunk, "more_body": True})
            out({"type": "http.response.body", "body": b""})
            return None
        finally:
            close = getattr(iterable, "close", None)
            if close is not None:
                close()


def _content_length(scope: dict[str, Any]) -> int | None:
    """The request's Content-Length (0 without a body), or None when it is unknown or bad."""
    length = None
    for name, value in scope.get("headers", ()):
        if name == b"transfer-encoding":
            return None
        if name == b"content-length":
            if length is not None or not value.isdigit():
                return None
            length = int(value)
    return 0 if length is None else length


router = ProtocolTypeRouter(
    {
        "http": Bridge(wsgi_application, workers=THREADS),
        "websocket": AllowedHostsOriginValidator(
            # Django's path() makes the live tables' routes, which channels' stubs do not take.
            AuthMiddlewareStack(URLRouter(live.websocket_urlpatterns))  # type: ignore[arg-type]  # routes made by Django's path()
        ),
    }
)


async def application(scope: Scope, receive: Any, send: Any) -> None:
    live.remember_loop(asyncio.get_running_loop())
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                settle()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await router(scope, receive, send)
