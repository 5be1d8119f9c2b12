"""The site's own answers to what no view answered (``handler404``, ``handler400`` and
``handler500`` in ledger/urls.py): JSON of the API's shape under /api/ (ledger/api/errors.py),
the pages' own elsewhere (ledger/web/middleware.py). It sits above both, beside the URLs."""

from __future__ import annotations

import logging
import sys

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

from ledger.api.errors import unavailable_body
from ledger.clubs.errors import error_body
from ledger.web.middleware import STORE_AWAY, unavailable_page

log = logging.getLogger(__name__)


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
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, STORE_AWAY):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def _unavailable(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(unavailable_body(), status=503, headers={"Retry-After": "2"})
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
