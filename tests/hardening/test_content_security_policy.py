"""Every page carries a Content-Security-Policy that lets only the site's own scripts run: an
injected <script> or onclick= does nothing. The templates hold no inline script or handler
attribute (what they did lives in static/js/site.js); the browser tests fail on any CSP
violation (tests/browser/conftest.py), so the pages keep working under the policy."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]


def directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/c/prova/",
        "/login/",
        "/admin/login/",
        "/api/docs/",
        "/api/v1/clubs/",
        "/no-such-page/",
        "/referee/",
    ],
)
def test_every_answer_carries_a_policy_that_runs_only_the_sites_own_scripts(people, path):
    answer = Client(HTTP_ACCEPT_LANGUAGE="en").get(path)
    assert answer.status_code < 500
    policy = directives(answer["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"], path
    assert policy["default-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["form-action"] == ["'self'"]
    assert policy["base-uri"] == ["'self'"]


def test_only_the_digital_tables_allow_htmx_to_evaluate_its_conditions(people):
    answer = Client().get("/play/")
    script = directives(answer["Content-Security-Policy"])["script-src"]
    assert "'unsafe-eval'" in script
    assert "'unsafe-inline'" not in script


def test_the_api_documentation_page_runs_no_inline_script(people):
    page = Client().get("/api/docs/").content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page)


INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
HANDLER = re.compile(r"\son[a-z]+\s*=\s*[\"']", re.IGNORECASE)
JS_URL = re.compile(r"""href\s*=\s*["']\s*javascript:""", re.IGNORECASE)


def templates() -> list[Path]:
    folders = [Path(d) for d in settings.TEMPLATES[0]["DIRS"]]
    folders += [p for p in (ROOT / "ledger").glob("*/templates")]
    return sorted(f for d in folders for f in d.rglob("*.html"))


def test_no_template_holds_an_inline_script_or_a_handler_attribute():
    found = []
    for path in templates():
        text = path.read_text(encoding="utf-8")
        for pattern in (INLINE_SCRIPT, HANDLER, JS_URL):
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {match.group(0)!r}")
    assert len(templates()) > 50
    assert not found, (
        "The Content-Security-Policy refuses these; use a static script or the data- "
        "attributes of static/js/site.js:\n" + "\n".join(found)
    )


def test_the_scan_would_catch_an_inline_script_and_a_handler():
    assert INLINE_SCRIPT.search("<script>alert(1)</script>")
    assert INLINE_SCRIPT.search('<script type="module">x()</script>')
    assert not INLINE_SCRIPT.search('<script src="/static/js/site.js" defer></script>')
    assert HANDLER.search('<a href="#" onclick="print()">')
    assert HANDLER.search("<select onchange='this.form.submit()'>")
    assert not HANDLER.search('<button data-confirm="Sure?">')


@pytest.mark.parametrize("path", ["/", "/play/", "/play/t/1/", "/api/v1/results/", "/static/x"])
@pytest.mark.parametrize("report_only", [False, True])
@pytest.mark.parametrize("own", [None, "exempt", "update", "nonce"])
def test_the_policy_kept_per_process_is_the_one_django_csp_builds(
    settings, rf, path, report_only, own
):
    from csp.middleware import CSPMiddleware
    from django.http import HttpResponse

    from ledger.web.csp import SitePolicyMiddleware

    if report_only:
        settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {
            "EXCLUDE_URL_PREFIXES": ["/static/"],
            "DIRECTIVES": {"default-src": ["'none'"], "report-uri": "/csp-report/"},
        }

    def answer(built_by: object) -> dict[str, str]:
        request = rf.get(path)
        middleware = SitePolicyMiddleware(lambda r: HttpResponse())
        middleware.process_request(request)
        response = HttpResponse("x")
        if own == "exempt":
            response._csp_exempt = True
        elif own == "update":
            response._csp_update = {"img-src": ["https://example.org"]}
        elif own == "nonce":
            str(request.csp_nonce)
        built_by(middleware, request, response)
        return {k: v for k, v in response.items() if k.startswith("Content-Security-Policy")}

    kept = answer(SitePolicyMiddleware.process_response)
    built = answer(CSPMiddleware.process_response)
    assert kept == built
    assert bool(kept.get("Content-Security-Policy")) is (own != "exempt")
    assert ("Content-Security-Policy-Report-Only" in kept) is (
        report_only and not path.startswith("/static/")
    )
