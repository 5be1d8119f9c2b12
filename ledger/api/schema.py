"""OpenAPI post-processing: document the error answers every operation can give.

drf-spectacular documents the success answer of each operation. The API also answers with
errors of one JSON shape (ledger/api/errors.py); clients, and the schemathesis run in
tests/hardening, need those in the schema too, so each operation lists the ones it can give.
"""

from __future__ import annotations

import copy
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request

from ledger.api.summaries import component_name, record_name, record_schemas, summary_schemas

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
    "400": gettext_lazy("The request cannot be used as sent; `fields` names what to fix."),
    "401": gettext_lazy(
        "The token is unknown, expired or revoked (code `not_authenticated` or "
        "`authentication_failed`)."
    ),
    "403": gettext_lazy("Not logged in, or your role in this club does not allow it."),
    "404": gettext_lazy("No such object."),
    "409": gettext_lazy(
        "In conflict with what is recorded (an Idempotency-Key reused with another body, "
        "a result that is no longer pending, a game that is not over yet...)."
    ),
    "413": gettext_lazy(
        "The body is larger than the service takes (a setting, 1 MB by default; imports 5 MB)."
    ),
    "415": gettext_lazy("Send the body as one of the documented media types."),
    "429": gettext_lazy(
        "Too many requests in a short time; wait as `Retry-After` says, then send again."
    ),
    "503": gettext_lazy(
        "The database did not answer; retry (with the same Idempotency-Key for a write)."
    ),
}


def _retry_after() -> dict[str, Any]:
    return {
        "Retry-After": {
            "description": _("Seconds to wait before sending again."),
            "schema": {"type": "integer"},
        }
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
            codes = {"400", "401", "403", "404", "409", "429", "503"}
            if method in _WRITES and "requestBody" in operation:
                codes |= {"413", "415"}
            responses = operation.setdefault("responses", {})
            # An error an operation declares itself (the referee's 429, say) has the same one
            # shape: error_body's.
            for code, declared in responses.items():
                if code[:1] in ("4", "5") and "content" in declared:
                    declared["content"] = {"application/json": {"schema": ref}}
                    codes.discard(code)
                    if code in ("429", "503"):
                        declared.setdefault("headers", _retry_after())
            for code in sorted(codes):
                answer: dict[str, Any] = {
                    "description": str(_WHY[code]),
                    "content": {"application/json": {"schema": ref}},
                }
                if code in ("429", "503"):
                    answer["headers"] = _retry_after()
                responses.setdefault(code, answer)
    if not _refers_to(result, "#/components/schemas/ErrorOut"):
        schemas.pop("ErrorOut", None)
    return result


def _refers_to(node: Any, ref: str) -> bool:
    if isinstance(node, dict):
        return node.get("$ref") == ref or any(_refers_to(v, ref) for v in node.values())
    if isinstance(node, list):
        return any(_refers_to(v, ref) for v in node)
    return False


def type_summaries(result: dict[str, Any], **_kwargs: Any) -> dict[str, Any]:
    """A result's body, one per game of the registry, told apart by ``game``: its ``record``
    is that game's summary or its full record (ledger/api/summaries.py), so a generated client
    has a model of each game's summary and record with their keys, ranges and words."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    base = schemas.get("ResultCreateRequest")
    operation = result.get("paths", {}).get("/api/v1/results/", {}).get("post")
    if base is None or operation is None:
        return result
    mapping: dict[str, str] = {}
    lang = translation.get_language() or "en"
    records = record_schemas(lang)
    for slug, summary in summary_schemas(lang).items():
        summary_name = component_name(slug)
        schemas[summary_name] = summary
        schemas[record_name(slug)] = records[slug]
        body = copy.deepcopy(base)
        others = {k: v for k, v in body["properties"].items() if k not in ("game", "record")}
        body["properties"] = {
            "game": {
                "type": "string",
                "enum": [slug],
                "description": _("The competition's game (checked against the table's)."),
            },
            **others,
            "record": {
                "anyOf": [
                    {"$ref": f"#/components/schemas/{summary_name}"},
                    {"$ref": f"#/components/schemas/{record_name(slug)}"},
                ],
                "description": _(
                    "The game's summary (source summary), or its full record (source "
                    "full_record); empty with source manual."
                ),
            },
        }
        body["required"] = ["game", *(k for k in body.get("required", []) if k != "game")]
        body_name = summary_name.removesuffix("Summary") + "ResultCreateRequest"
        schemas[body_name] = body
        mapping[slug] = f"#/components/schemas/{body_name}"
    operation["requestBody"]["content"] = {
        "application/json": {
            "schema": {
                "oneOf": [{"$ref": ref} for ref in mapping.values()],
                "discriminator": {"propertyName": "game", "mapping": mapping},
            }
        }
    }
    # Only the per-game bodies are used now.
    schemas.pop("ResultCreateRequest", None)
    return result


def _language(request: Any) -> str:
    """English unless ``Accept-Language`` asks for Italian first (the pages speak Italian
    by default; a program's reader more often reads English)."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for part in header.split(","):
        code = part.split(";")[0].strip().lower()
        if not code or code == "*":
            continue
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return "en"


class SchemaView(SpectacularAPIView):
    """/api/schema/: descriptions in English, or in Italian with ``Accept-Language: it``
    (``?lang=`` wins over both). The language is set for this request before the schema is
    made, as the locale middleware sets the pages' (and says it in ``Content-Language``)."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        if not request.query_params.get("lang"):
            translation.activate(_language(request))
