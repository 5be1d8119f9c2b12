"""The web process: one ASGI application for the pages, the API and the live tables.

HTTP goes to the WSGI application (ledger/wsgi.py) run in a pool
of threads, as a threaded WSGI server would; WebSockets go to Channels (ledger/play/live.py).
Serve it with ``python -m ledger.serve`` (docs/operations.md).
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")

from a2wsgi import WSGIMiddleware
from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

from ledger.play import live
from ledger.wsgi import application as wsgi_application

THREADS = int(os.environ.get("WEB_THREADS", "16"))

router = ProtocolTypeRouter(
    {
        "http": WSGIMiddleware(wsgi_application, workers=THREADS),  # type: ignore[arg-type]
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(live.websocket_urlpatterns))
        ),
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    live.remember_loop(asyncio.get_running_loop())
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await router(scope, receive, send)
