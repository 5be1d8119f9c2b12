"""The site's own answers to what no view answered (``handler404``, ``handler400`` and
``handler500`` in ledger/urls.py): JSON of the API's shape under /api/ (ledger/api/errors.py),
the pages' own elsewhere (ledger/web/middleware.py). It sits above both, beside the URLs."""

from __future__ import annotations

import re
import sys

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

from ledger.api.errors import unavailable_body
from ledger.clubs.errors import error_body, logged_unavailable
from ledger.web.middleware import STORE_AWAY, unavailable_page

# What get_object_or_404 says: it names a Python model, which no club member should read.
_MODEL_NOT_FOUND = re.compile(r"^No \w+ matches the given query\.$")


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 404 for an address no route matches: JSON of the API's shape under /api/,
    the usual page elsewhere. A view's own words about what is missing are shown; Django's
    "No <Model> matches the given query." is replaced by the page's plain sentence."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            error_body("not_found", _("No such address in the API; see /api/schema/.")),
            status=404,
        )
    if exception.args and _MODEL_NOT_FOUND.match(str(exception.args[0])):
        exception = Http404("")
    return defaults.page_not_found(request, exception)


def _database_away(exc: BaseException | None) -> BaseException | None:
    """``exc``, or the exception it was raised from or while handling, that is the database
    (or the rate limits' cache) being away; None when there is none."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, STORE_AWAY):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


def _unavailable(request: HttpRequest, exc: BaseException) -> HttpResponse:
    if request.path.startswith("/api/"):
        answer: HttpResponse = JsonResponse(
            unavailable_body(), status=503, headers={"Retry-After": "2"}
        )
    else:
        answer = unavailable_page(request)
    return logged_unavailable(request, answer, exc)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400, unless what Django took for the client's fault was the database going
    away: a session that could not be saved (``SessionInterrupted``, which Django raises
    for any database error while saving it) is then a 503."""
    away = _database_away(exception)
    if away is not None:
        return _unavailable(request, away)
    return defaults.bad_request(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's answer to an exception that nothing else answered: one raised outside a
    view (a middleware's: the session saved after a login, the login's own user look-up)
    or one a view's handlers let through. The database being away is ours to say, as a 503
    with Retry-After (JSON of the API's shape under /api/, the short page elsewhere), never
    a 500; anything else is Django's 500."""
    away = _database_away(sys.exc_info()[1])
    if away is not None:
        return _unavailable(request, away)
    return defaults.server_error(request)
