"""Every API error is JSON of one shape, with a sentence that says what to fix:

{"error": {"code": "invalid", "message": "...", "fields": {...}, "violations": [...]}}
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import DataError, InterfaceError, OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from ledger.clubs.errors import LedgerError

log = logging.getLogger(__name__)


def error_body(
    code: str,
    message: str,
    fields: Any = None,
    violations: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if fields:
        body["fields"] = fields
    if violations:
        body["violations"] = violations
    return {"error": body}


def _unavailable_body() -> dict[str, Any]:
    return error_body(
        "unavailable",
        _(
            "The database did not answer. Send the same request again in a few "
            "seconds, with the same Idempotency-Key: it is never recorded twice."
        ),
    )


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, LedgerError):
        return Response(
            error_body(exc.code, exc.message, exc.fields, exc.violations), status=exc.status
        )
    if isinstance(exc, (OperationalError, InterfaceError)):
        # The database went away mid-request (restart, failover, a dropped connection, or
        # SQLite's lock timeout). The transaction was rolled back, so a retry is safe, and
        # the Idempotency-Key makes sure a retried result is recorded once.
        log.warning("database unavailable during %s: %s", context.get("request"), exc)
        return Response(
            _unavailable_body(),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "2"},
        )
    if isinstance(exc, (DataError, OverflowError)):
        # A number beyond what the database stores (an id of 30 digits) or a text longer
        # than its column: the input is wrong, not the server.
        return Response(
            error_body(
                "invalid",
                _("A value is out of range (a number too large, or a text too long)."),
            ),
            status=status.HTTP_400_BAD_REQUEST,
        )
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        detail = exc.detail
        if isinstance(detail, dict):
            names = ", ".join(str(k) for k in detail)
            message = _("Some fields need fixing: %(names)s.") % {"names": names}
            fields = detail
        else:
            message = " ".join(str(d) for d in (detail if isinstance(detail, list) else [detail]))
            fields = None
        response.data = error_body("invalid", message, fields)
    elif isinstance(exc, exceptions.ParseError):
        response.data = error_body(
            "malformed",
            _("The request body is not valid JSON (%(detail)s). Send one JSON object.")
            % {"detail": exc.detail},
        )
    elif isinstance(exc, exceptions.APIException):
        code = exc.get_codes() if isinstance(exc.get_codes(), str) else "error"
        message = str(exc.detail)
        if response.status_code == status.HTTP_401_UNAUTHORIZED or (
            response.status_code == status.HTTP_403_FORBIDDEN and code == "not_authenticated"
        ):
            message = _("Log in, or send 'Authorization: Token <your token>'.")
        response.data = error_body(str(code), message)
    return response


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 for an address no route matches: JSON of the API's shape under /api/,
    the usual page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            error_body("not_found", _("No such address in the API; see /api/schema/.")),
            status=404,
        )
    return defaults.page_not_found(request, exception)


def _database_away(exc: BaseException | None) -> bool:
    """Whether ``exc``, or an exception it was raised from or while handling, is the
    database (or the rate limits' cache) being away."""
    from ledger.web.middleware import STORE_AWAY

    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, STORE_AWAY):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def _unavailable(request: HttpRequest) -> HttpResponse:
    from ledger.web.middleware import unavailable_page

    if request.path.startswith("/api/"):
        return JsonResponse(_unavailable_body(), status=503, headers={"Retry-After": "2"})
    return unavailable_page(request)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400, unless what Django took for the client's fault was the database going
    away: a session that could not be saved (``SessionInterrupted``, which Django raises
    for any database error while saving it) is then a 503."""
    if _database_away(exception):
        log.warning("database unavailable for %s: %s", request.path, exception.__context__)
        return _unavailable(request)
    return defaults.bad_request(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's answer to an exception that nothing else answered: one raised outside a
    view (a middleware's: the session saved after a login, the login's own user look-up)
    or one a view's handlers let through. The database being away is ours to say, as a 503
    with Retry-After (JSON of the API's shape under /api/, the short page elsewhere), never
    a 500; anything else is Django's 500."""
    if _database_away(sys.exc_info()[1]):
        return _unavailable(request)
    return defaults.server_error(request)
