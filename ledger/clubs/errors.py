"""Errors the ledger's services raise, and the one JSON shape every API answers them in
(``error_body``); the API and the pages turn them into clear answers."""

from __future__ import annotations

from typing import Any


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
