"""The Content-Security-Policy every page carries (django-csp; the policy is in settings).

Pages run only scripts served by the site itself: no inline <script>, no onclick= or other
handler attributes, no eval. What the pages used to do inline lives in static/js/site.js.

One exception: the digital tables' board asks htmx to test a condition before it polls or
plays a forced move (``hx-trigger="… [condition]"``), and htmx evaluates such conditions with
``Function``; pages under /play/ therefore also allow 'unsafe-eval' (never inline scripts).

An answer that used no nonce and sets no policy of its own (every API answer, most pages)
gets the headers built once per process for its kind of path: django-csp builds them again
for every answer, which cost an API call more than its URL's look-up."""

from __future__ import annotations

import functools
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY, UNSAFE_EVAL
from csp.middleware import CheckableLazyObject, CSPMiddleware, PolicyParts
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

EVAL_PREFIXES = ("/play/",)
# What a view may set on its answer to change its policy (django-csp's decorators).
PER_ANSWER = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)


@functools.cache
def _headers(with_eval: bool) -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    """(header, the answer's attribute that exempts it, policy, excluded path prefixes) of
    the policy and the report-only policy, as django-csp builds them for an answer with no
    nonce and nothing of its own; ``with_eval``: a path under EVAL_PREFIXES."""
    update = {"script-src": [UNSAFE_EVAL]} if with_eval else None
    out = []
    for header, exempt, name, report_only in (
        (HEADER, "_csp_exempt", "CONTENT_SECURITY_POLICY", False),
        (HEADER_REPORT_ONLY, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
    ):
        policy = build_policy(update=update, report_only=report_only)
        excluded = (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
        out.append((header, exempt, policy, tuple(excluded)))
    return tuple(out)


@receiver(setting_changed)
def _forget_headers(setting: str, **kwargs: Any) -> None:
    if setting in ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY"):
        _headers.cache_clear()


class SitePolicyMiddleware(CSPMiddleware):
    def get_policy_parts(
        self, request: Any, response: Any, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if request.path_info.startswith(EVAL_PREFIXES) and parts.update is None:
            parts.update = {"script-src": [UNSAFE_EVAL]}
        return parts

    def process_response(self, request: Any, response: Any) -> Any:
        if (
            getattr(request, "_csp_nonce", None) is not None
            or any(getattr(response, name, None) is not None for name in PER_ANSWER)
            or settings.DEBUG
        ):
            return super().process_response(request, response)
        path = request.path_info
        for header, exempt, policy, excluded in _headers(path.startswith(EVAL_PREFIXES)):
            if (
                policy
                and header not in response
                and getattr(response, exempt, False) is False
                and not path.startswith(excluded)
            ):
                response[header] = policy
        # As django-csp does: a nonce asked for after this point is an error, not a nonce
        # missing from the header.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
