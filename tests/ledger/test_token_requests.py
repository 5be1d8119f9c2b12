"""Programs posting to the API with a token take a shorter middleware chain than browsers
(ledger/wsgi.py): the same answers, with the security headers, the language and the size
limits kept, and nothing of a browser's session."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core import signals
from django.db import close_old_connections
from django.test import RequestFactory

from ledger import wsgi
from ledger.clubs.models import Result
from tests.conftest import api_key

URL = "/api/v1/results/"


@pytest.fixture
def keep_connection() -> Iterator[None]:
    """Served in the test's transaction, as Django's test client does: the handler must not
    close the connection at the end of each request."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def serve(environ: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
    got: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], *exc: Any) -> None:
        got["status"] = int(status.split()[0])
        got["headers"] = {name.lower(): value for name, value in headers}

    body = b"".join(wsgi.application(environ, start_response))
    return got["status"], got["headers"], body


def token_post(people: Any, body: Any, language: str = "en", **extra: str) -> dict[str, Any]:
    raw = body if isinstance(body, str) else json.dumps(body)
    request = RequestFactory().post(
        URL,
        data=raw,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {api_key(people.users['scorekeeper'])}",
        HTTP_ACCEPT_LANGUAGE=language,
        **extra,
    )
    return request.environ


def test_a_token_request_records_the_result_through_the_short_chain(
    people, manual_table, keep_connection
):
    environ = token_post(people, {"table": manual_table.pk, "source": "manual", "scores": [12, -3]})
    assert wsgi.is_token_request(environ)
    status, headers, body = serve(environ)
    assert status == 201, body
    assert json.loads(body)["scores"] == ["12.00", "-3.00"]
    assert Result.objects.filter(table=manual_table).count() == 1
    assert "content-security-policy" in headers, "the content policy stays"
    assert "set-cookie" not in headers and "x-frame-options" not in headers


def test_a_token_request_is_answered_in_its_language_and_within_the_size_limit(
    people, manual_table, keep_connection, settings
):
    status, headers, body = serve(token_post(people, {"table": 999_999}, language="it"))
    assert status == 400
    assert headers["content-language"] == "it"
    assert "Non c'è nessun tavolo 999999." in json.loads(body)["error"]["message"]
    settings.LEDGER_MAX_BODY_BYTES = 100
    status, _, _ = serve(token_post(people, {"table": manual_table.pk, "pad": "x" * 500}))
    assert status == 413
    assert not Result.objects.exists()


def test_a_browser_request_with_its_session_takes_the_whole_chain(
    people, manual_table, keep_connection
):
    environ = token_post(
        people,
        {"table": manual_table.pk, "source": "manual", "scores": [1, 0]},
        HTTP_COOKIE="sessionid=abc",
    )
    assert not wsgi.is_token_request(environ)
    status, headers, _ = serve(environ)
    assert status == 201
    assert headers["x-frame-options"] == "DENY"


def test_an_api_path_is_matched_against_the_apis_patterns_before_the_pages():
    from django.urls import resolve

    from ledger import urls

    match = resolve(URL)
    assert match.url_name == "result-list"
    pages = [p for p in urls.urlpatterns if not str(p.pattern).startswith("api/")]
    # Only the API's own patterns (the router's, before the results') were tried first.
    assert all(str(tried[0].pattern) == "api/v1/" for tried in match.tried)
    assert len(match.tried) < len(pages)
