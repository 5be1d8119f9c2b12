"""Recording a result without the site's middleware stack.

POST /api/v1/results/ is the service's busiest request: score-keeping apps and other club
software post every hand. Through Django's handler, the eleven middleware layers and the URL
resolver cost about a fifth of the request's processor time, though for a token-authenticated
JSON call most of them have nothing to do; this layer saves about half of that (measured
side by side by `make bench`, docs/benchmarks.md). This WSGI layer answers
that one request with the view's own fast path (``ledger.api.views.fast_create``) and runs
the middleware that does have work to do on it, Django's own classes: the security checks
and headers, the allowed hosts and user agents, the language of the messages, the frame
option. Anything else (another address, a session cookie, another shape of body, a token
that does not authenticate, a host that is not allowed) goes to Django untouched, which
gives it every answer and error message the site has.

The layer switches itself off when ``settings.MIDDLEWARE`` is not the list it was written
for, so that a middleware added later is never skipped without someone deciding it may be;
LEDGER_API_FAST_PATH=0 switches it off too.
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core import signals
from django.core.handlers.exception import response_for_exception
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest, get_script_name
from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.common import CommonMiddleware
from django.middleware.locale import LocaleMiddleware
from django.middleware.security import SecurityMiddleware
from django.urls import reverse, set_script_prefix, set_urlconf
from django.utils.log import log_response

from ledger.web import limits

# What the layer was written for: each of these either has nothing to do for a token
# POST of JSON to the results (static files, sessions, CSRF for an exempt view, the
# session's user, messages, htmx, the pages' 503) or is run here (security, common,
# locale, the request limits, frame options).
WRITTEN_FOR = (
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "ledger.web.limits.RequestLimitsMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "ledger.web.middleware.DatabaseUnavailableMiddleware",
)


def _unused(request: HttpRequest) -> HttpResponse:  # pragma: no cover - never called
    raise AssertionError("only the middleware's hooks are called")


class ResultsFastPath:
    """WSGI application: the fast path for POST /api/v1/results/, Django for the rest."""

    def __init__(self, app: WSGIHandler) -> None:
        self.app = app
        self.enabled = (
            tuple(settings.MIDDLEWARE) == WRITTEN_FOR
            and os.environ.get("LEDGER_API_FAST_PATH", "1") != "0"
        )
        self.path: str | None = None
        # Outermost first, as Django runs their request hooks.
        self.security = SecurityMiddleware(_unused)
        self.locale = LocaleMiddleware(_unused)
        self.common = CommonMiddleware(_unused)
        self.frames = XFrameOptionsMiddleware(_unused)

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        if (
            not self.enabled
            or environ.get("REQUEST_METHOD") != "POST"
            or not environ.get("HTTP_AUTHORIZATION", "").startswith("Token ")
        ):
            return self.app(environ, start_response)
        script = get_script_name(environ)
        set_script_prefix(script)
        if self.path is None:
            self.path = reverse("result-list")[len(script) :] if script else reverse("result-list")
        if environ.get("PATH_INFO") != self.path:
            return self.app(environ, start_response)
        signals.request_started.send(sender=WSGIHandler, environ=environ)
        set_urlconf(settings.ROOT_URLCONF)
        request = WSGIRequest(environ)
        response = self._answer(request)
        if response is None:
            # Not for the fast path: Django reads the body again from what was read.
            environ["wsgi.input"] = io.BytesIO(request.body)
            return self.app(environ, start_response)
        response._resource_closers.append(request.close)
        if response.status_code >= 400:
            log_response(
                "%s: %s", response.reason_phrase, request.path, response=response, request=request
            )
        # As Django's handler does: closing the response sends request_finished.
        response._handler_class = WSGIHandler
        headers = [
            *response.items(),
            *(("Set-Cookie", c.output(header="")) for c in response.cookies.values()),
        ]
        start_response(f"{response.status_code} {response.reason_phrase}", headers)
        return response

    def _answer(self, request: WSGIRequest) -> HttpResponse | None:
        from ledger.api.views import fast_create

        try:
            # Each may refuse the request (a host or agent not allowed, a redirect to
            # HTTPS): Django then gives that answer.
            request.get_host()
            if self.security.process_request(request) is not None:
                return None
            if self.common.process_request(request) is not None:
                return None
            self.locale.process_request(request)
        except Exception:
            return None
        # The request limits run here as in Django's stack (ledger/web/limits.py).
        refused = limits.check(request)
        if refused is not None:
            return self.security.process_response(request, refused)
        try:
            response = fast_create(request)
        except Exception as exc:
            response = response_for_exception(request, exc)
        if response is None:
            return None
        response = self.frames.process_response(request, response)
        response = self.common.process_response(request, response)
        response = self.locale.process_response(request, response)
        return self.security.process_response(request, response)
