"""Every API error is JSON of one shape, with a sentence that says what to fix:

{"error": {"code": "invalid", "message": "...", "fields": {...}, "violations": [...]}}
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import DataError, InterfaceError, OperationalError
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_handler

from ledger.clubs.errors import LedgerError, error_body, logged_unavailable

log = logging.getLogger(__name__)


def unavailable_body() -> dict[str, Any]:
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
        answer = Response(
            unavailable_body(),
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "2"},
        )
        request = context.get("request")
        if request is None:
            log.warning("database unavailable: 503 (%s: %s)", type(exc).__name__, exc)
            return answer
        return logged_unavailable(request, answer, exc)
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
