"""The WSGI application: the pages, the API, and (through ledger/asgi.py) the live tables.

Two Django handlers share the one URL configuration. Requests to the API that carry a
token and no session cookie (programs: scorers' apps, imports, the bench) go through a
shorter middleware chain, settings.TOKEN_API_MIDDLEWARE, without what only a browser needs
(sessions, CSRF, messages, framing, static files); every other request goes through
settings.MIDDLEWARE. The views and their answers are the same either way.
"""

import gc
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any

from django.core.handlers.wsgi import WSGIHandler
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ledger.settings")
# A thread that gets an answer from the database waits for the interpreter lock while the
# other threads of the worker run Python; when it holds a club's journal lock, every writer
# to that club waits too. A shorter switch interval than the default 5 ms hands the lock
# back sooner: measured with 2 workers x 4 threads, 15-25% more results per second and a
# lower p99 (docs/benchmarks.md).
sys.setswitchinterval(float(os.environ.get("LEDGER_SWITCH_INTERVAL", "0.0005")))

site = get_wsgi_application()


def settle() -> None:
    """Called once as a web process starts serving (ledger/asgi.py): load now what the
    first requests would load (every view through the URLs, every game's engine), then
    take everything alive at that point out of the garbage collector's sight.

    A full collection of a web process walked about 190,000 objects, nearly all of them
    modules, classes and settings that live as long as the process, and held the
    interpreter lock 150-200 ms each time (every few thousand requests), stopping every
    thread of the process. Frozen, they are never walked again: a full collection walks
    the few thousand objects requests made since. The youngest generation is collected
    every 5,000 new objects instead of 700: a request makes a few thousand, so fewer
    collections find the same garbage (docs/benchmarks.md). Off with LEDGER_GC_FREEZE=0."""
    if os.environ.get("LEDGER_GC_FREEZE", "1") == "0":
        return
    from django.urls import get_resolver

    from games.core import registry

    get_resolver().url_patterns  # noqa: B018 (imports every view module)
    registry.available()
    gc.collect()
    gc.freeze()
    gc.set_threshold(5000, *gc.get_threshold()[1:])


class TokenAPIHandler(WSGIHandler):
    """Django's handler with settings.TOKEN_API_MIDDLEWARE as its middleware chain."""

    def load_middleware(self, is_async: bool = False) -> None:
        from django.conf import settings

        everything = settings.MIDDLEWARE
        settings.MIDDLEWARE = settings.TOKEN_API_MIDDLEWARE
        try:
            super().load_middleware(is_async)
        finally:
            settings.MIDDLEWARE = everything


token_api = TokenAPIHandler()


def is_token_request(environ: dict[str, Any]) -> bool:
    from django.conf import settings

    return (
        environ.get("PATH_INFO", "").startswith("/api/")
        and environ.get("HTTP_AUTHORIZATION", "").startswith("Token ")
        and settings.SESSION_COOKIE_NAME + "=" not in environ.get("HTTP_COOKIE", "")
    )


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if is_token_request(environ):
        return token_api(environ, start_response)
    return site(environ, start_response)
