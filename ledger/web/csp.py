"""The Content-Security-Policy every page carries (django-csp; the policy is in settings).

Pages run only scripts served by the site itself: no inline <script>, no onclick= or other
handler attributes, no eval. What the pages used to do inline lives in static/js/site.js.

One exception: the digital tables' board asks htmx to test a condition before it polls or
plays a forced move (``hx-trigger="… [condition]"``), and htmx evaluates such conditions with
``Function``; pages under /play/ therefore also allow 'unsafe-eval' (never inline scripts)."""

from __future__ import annotations

from typing import Any

from csp.constants import UNSAFE_EVAL
from csp.middleware import CSPMiddleware, PolicyParts

EVAL_PREFIXES = ("/play/",)


class SitePolicyMiddleware(CSPMiddleware):
    def get_policy_parts(
        self, request: Any, response: Any, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if request.path_info.startswith(EVAL_PREFIXES) and parts.update is None:
            parts.update = {"script-src": [UNSAFE_EVAL]}
        return parts
