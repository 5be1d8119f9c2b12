"""A lost database answers pages with a short 503 that says to try again, not a 500."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

log = logging.getLogger(__name__)


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
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        log.warning("database unavailable for %s: %s", request.path, exception)
        body = render_to_string("503.html", {"path": request.get_full_path()})
        return HttpResponse(body, status=503, headers={"Retry-After": "5"})
