"""A lost database answers pages with a short 503 that says to try again, not a 500."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from ledger.clubs.errors import logged_unavailable

log = logging.getLogger(__name__)

# Errors that mean the database is away (a restart, a failover, a dropped connection,
# SQLite's lock timeout), not that the request was wrong.
DATABASE_AWAY = (OperationalError, InterfaceError)
# ... or the cache the rate limits count in (Redis with CACHE_URL): a login or a referee
# check that cannot reach it is a 503 too.
STORE_AWAY = (*DATABASE_AWAY, RedisConnectionError, RedisTimeoutError)


def unavailable_page(request: HttpRequest) -> HttpResponse:
    """The short page that says to try again, in the person's language, with Retry-After.
    Rendered without the site's layout and context processors, which would reach for the
    database again (the session, who is logged in)."""
    language = getattr(request, "LANGUAGE_CODE", None) or translation.get_language_from_request(
        request
    )
    with translation.override(language):
        body = render_to_string(
            "503.html",
            {"path": request.get_full_path(), "LANGUAGE_CODE": translation.get_language()},
        )
    return HttpResponse(body, status=503, headers={"Retry-After": "5"})


class DatabaseUnavailableMiddleware:
    """Pages whose view loses the database get a plain 503 with Retry-After (the API has its
    own JSON answer). The page is rendered without the site's layout, which would reach for
    the database again to show who is logged in."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if request.path.startswith("/api/"):
            return None
        if not isinstance(exception, STORE_AWAY):
            return None
        return logged_unavailable(request, unavailable_page(request), exception)
