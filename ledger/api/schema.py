"""OpenAPI post-processing: document the error answers every operation can give.

drf-spectacular documents the success answer of each operation. The API also answers with
errors of one JSON shape (ledger/api/errors.py); clients, and the schemathesis run in
tests/hardening, need those in the schema too, so each operation lists the ones it can give.
"""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Every error has this shape; the message says what to fix.",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "example": "invalid"},
                "message": {"type": "string"},
                "fields": {
                    "type": "object",
                    "additionalProperties": True,
                    "description": "Per field (or per seat), what is wrong with it.",
                },
                "violations": {
                    "type": "array",
                    "items": {"type": "object", "additionalProperties": True},
                    "description": "The rules an engine found broken, with their rule ids.",
                },
            },
            "required": ["code", "message"],
        }
    },
    "required": ["error"],
}

_WHY = {
    "400": "The request cannot be used as sent; `fields` names what to fix.",
    "403": "Not logged in, or your role in this club does not allow it.",
    "404": "No such object.",
    "409": "In conflict with what is recorded (an Idempotency-Key reused with another body, "
    "a result that is no longer pending, a game that is not over yet...).",
    "413": "The body is larger than the service takes (a setting, 1 MB by default; imports 5 MB).",
    "415": "Send the body as one of the documented media types.",
    "503": "The database did not answer; retry (with the same Idempotency-Key for a write).",
}
_WRITES = {"post", "put", "patch", "delete"}


def document_errors(result: dict[str, Any], **_kwargs: Any) -> dict[str, Any]:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("ApiError", ERROR_SCHEMA)
    ref = {"$ref": "#/components/schemas/ApiError"}
    for operations in result.get("paths", {}).values():
        for method, operation in operations.items():
            if method not in _WRITES and method != "get":
                continue
            # 400 everywhere (a path id out of range, a bad query parameter, a bad body); 404
            # everywhere (an id in the path or in the body that names nothing); 409 too (a
            # game record asked for before the game is over).
            codes = {"400", "403", "404", "409", "503"}
            if method in _WRITES and "requestBody" in operation:
                codes |= {"413", "415"}
            responses = operation.setdefault("responses", {})
            for code in sorted(codes):
                responses.setdefault(
                    code,
                    {"description": _WHY[code], "content": {"application/json": {"schema": ref}}},
                )
    return result
