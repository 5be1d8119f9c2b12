"""Limits on what a request may carry, checked before any view reads it.

A body larger than ``LEDGER_MAX_BODY_BYTES`` (uploads: ``LEDGER_IMPORT_MAX_BYTES`` plus the
form's own room) is a 413; a JSON body nested deeper than ``LEDGER_MAX_JSON_DEPTH`` or
holding NaN or Infinity (which JSON does not have, though Python's reader accepts them) is
a 400. The API answers in its JSON error shape, pages with a short page that says what to
fix; neither ever reaches a view that would fail on it (a 5,000-deep body overflowed the
parser's stack: a 500).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import gettext as _

FORM_ROOM = 64 * 1024


def _json_problem(body: bytes, depth_limit: int) -> str | None:
    """What is wrong with a JSON body for this service (None: nothing), without parsing it:
    too deep, or NaN/Infinity outside a string. Cheap for ordinary bodies: the scan runs
    only when the brackets could reach the limit or an N or I appears at all."""
    openers = body.count(b"[") + body.count(b"{")
    suspicious = b"N" in body or b"I" in body
    if openers <= depth_limit and not suspicious:
        return None
    depth = 0
    in_string = escaped = False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
            continue
        if byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > depth_limit:
                return _("The JSON is nested more than %(n)d levels deep.") % {"n": depth_limit}
        elif byte in (0x5D, 0x7D):
            depth -= 1
        elif byte in (0x4E, 0x49):  # N, I: NaN, Infinity, -Infinity
            return _("NaN and Infinity are not numbers JSON allows: send a number.")
    return None


def check(request: HttpRequest) -> HttpResponse | None:
    """The refusal for a request over the limits, or None."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    kind = request.META.get("CONTENT_TYPE", "")
    upload = kind.startswith("multipart/")
    cap = settings.LEDGER_IMPORT_MAX_BYTES + FORM_ROOM if upload else settings.LEDGER_MAX_BODY_BYTES
    if request.path.startswith("/hub/sync/"):
        cap = settings.LEDGER_HUB_UPLOAD_MAX_BYTES  # a venue's upload of its journal
    if length > cap:
        message = _(
            "The request is too large: %(size)s bytes, where at most %(cap)s are accepted."
        ) % {"size": f"{length:,}", "cap": f"{cap:,}"}
        if upload:
            message += " " + _("Split the file into smaller ones.")
        return refuse(request, 413, "too_large", message)
    if length and "json" in kind:
        problem = _json_problem(request.body, settings.LEDGER_MAX_JSON_DEPTH)
        if problem:
            return refuse(request, 400, "malformed", problem)
    return None


def refuse(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse({"error": {"code": code, "message": message}}, status=status)
    title = _("The request cannot be read")
    page = (
        '<!doctype html><html><head><meta charset="utf-8"><title>'
        f"{escape(title)}</title></head><body><main><h1>{escape(title)}</h1>"
        f'<p role="alert">{escape(message)}</p>'
        f'<p><a href="/">{escape(_("Back to the clubs"))}</a></p></main></body></html>'
    )
    return HttpResponse(page, status=status, content_type="text/html; charset=utf-8")


class RequestLimitsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refused = check(request)
        if refused is not None:
            return refused
        return self.get_response(request)
