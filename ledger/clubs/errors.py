"""Errors the ledger's services raise, and the one JSON shape every API answers them in
(``error_body``); the API and the pages turn them into clear answers. Also how an answer
for a lost database is logged (``logged_unavailable``), for the API and the pages alike."""

from __future__ import annotations

import logging
from typing import Any, TypeVar

log = logging.getLogger(__name__)


class LedgerError(Exception):
    status = 400
    code = "invalid"

    def __init__(
        self,
        message: str,
        *,
        fields: dict[str, Any] | None = None,
        violations: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.fields = fields or {}
        self.violations = violations or []


class Invalid(LedgerError):
    status = 400
    code = "invalid"


class RuleViolation(Invalid):
    """Readable input that the game's rules say cannot be: the engine's violations attached."""

    code = "rule_violation"


class NotAllowed(LedgerError):
    status = 403
    code = "permission_denied"


class Conflict(LedgerError):
    status = 409
    code = "conflict"


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


Answer = TypeVar("Answer")


def logged_unavailable(request: Any, response: Answer, exc: BaseException | None) -> Answer:
    """Log our 503 for a lost database (or rate-limit store) as one warning line, and mark
    the answer logged: Django would log it again at ERROR ("Service Unavailable: ..."), with
    the traceback when the exception went past the views. The database going away is an
    operating condition the client is told to retry, not a bug of ours."""
    response._has_been_logged = True  # type: ignore[attr-defined]  # read by Django's log_response
    request = getattr(request, "_request", request)  # the framework's wraps Django's
    if getattr(request, "_unavailable_logged", False):
        return response  # a second failure of the same request (its session, after a view)
    request._unavailable_logged = True
    said = " ".join(str(exc).split())[:300] if exc is not None else ""
    kind = type(exc).__name__ if exc is not None else "unavailable"
    log.warning(
        "database unavailable: %s %s: 503 (%s: %s)", request.method, request.path, kind, said
    )
    return response
