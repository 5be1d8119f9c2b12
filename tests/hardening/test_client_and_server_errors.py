"""Every failure a client can cause is a 4xx, every failure of ours a 503, never a 500.

The probe's findings: ``"source": []`` (or an object) with any made-up token was a 500 on
``POST /api/v1/results/``, raised before authentication by the fast path's check of the
source; a database connection lost while the token was being read was a 500 HTML page
(427 of 1,074 answers while connections were being killed), raised in ledger/api/auth.py
before the error mapping; and a page whose database went away outside its view (the
session, the login) was Django's 500 too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import InterfaceError, OperationalError, connection, transaction
from django.test import Client

from ledger.api import views as api_views
from ledger.clubs.models import Result
from tests.hardening.reliability import URL, body, competition_with_tables

# What a hostile or careless client puts in the fields of a result: every JSON type, and
# numbers and strings the fields do not take.
HOSTILE = [
    [],
    {},
    [[]],
    {"a": []},
    "",
    "x",
    "1",
    1.5,
    True,
    None,
    0,
    -1,
    2**64,
    [1, "x", None],
]
FIELDS = ["table", "source", "record", "scores", "players"]
NOT_OBJECTS = ["[]", '"x"', "1", "null", "true", "[{}]"]


def _post(client: Client, text: str, token: str, *, fast: bool, monkeypatch: Any) -> Any:
    """The answer to ``text`` through the fast path, or through the framework's full path
    alone (the fast path switched off)."""
    with monkeypatch.context() as patch:
        if not fast:
            patch.setattr(api_views, "fast_create", lambda request: None)
        return client.post(
            URL,
            text,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token}",
            HTTP_ACCEPT_LANGUAGE="en",
        )


def _answer(client: Client, text: str, token: str, *, fast: bool, monkeypatch: Any) -> Any:
    """``_post``, keeping nothing it writes."""
    with transaction.atomic():
        answer = _post(client, text, token, fast=fast, monkeypatch=monkeypatch)
        transaction.set_rollback(True)
    return answer


def _same_answer_on_both_paths(client: Client, text: str, token: str, monkeypatch: Any) -> int:
    fast = _answer(client, text, token, fast=True, monkeypatch=monkeypatch)
    full = _answer(client, text, token, fast=False, monkeypatch=monkeypatch)
    assert fast.status_code < 500, (text, fast.status_code, fast.content[:300])
    assert fast.status_code == full.status_code, (text, fast.content, full.content)
    assert fast["Content-Type"] == full["Content-Type"] == "application/json", text
    if fast.status_code >= 400:
        assert set(fast.json()) == {"error"}, text
        assert fast.json() == full.json(), text
    return int(fast.status_code)


@pytest.mark.parametrize("field", FIELDS)
def test_hostile_json_types_in_every_field_are_a_4xx_on_both_paths_with_a_made_up_token(
    people, field, monkeypatch
):
    _, tables = competition_with_tables(people, n_tables=1)
    client = Client(raise_request_exception=False)
    for value in HOSTILE:
        sent = {**body(tables, 1), field: value}
        status = _same_answer_on_both_paths(
            client, json.dumps(sent), "made-up-" + "k" * 32, monkeypatch
        )
        assert status in (401, 403), (sent, status)  # the token is refused first
    assert not Result.objects.exists()


@pytest.mark.parametrize("field", FIELDS)
def test_hostile_json_types_in_every_field_are_a_4xx_on_both_paths_with_a_real_token(
    people, field, monkeypatch
):
    from tests.conftest import api_key

    _, tables = competition_with_tables(people, n_tables=1)
    token = api_key(people.users["scorekeeper"])
    client = Client(raise_request_exception=False)
    for value in HOSTILE:
        sent = {**body(tables, 1), field: value}
        _same_answer_on_both_paths(client, json.dumps(sent), token, monkeypatch)
    assert not Result.objects.exists()


def test_a_body_that_is_not_an_object_is_a_4xx_on_both_paths(people, monkeypatch):
    from tests.conftest import api_key

    client = Client(raise_request_exception=False)
    for token in ("made-up-token", api_key(people.users["scorekeeper"])):
        for text in NOT_OBJECTS:
            _same_answer_on_both_paths(client, text, token, monkeypatch)


# --- a lost database is a 503 wherever the request meets it -----------------------------


def _database_gone(error: type[Exception]) -> Any:
    def refuse(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        raise error("server closed the connection unexpectedly")

    return refuse


def _assert_api_unavailable(answer: Any) -> None:
    assert answer.status_code == 503, (answer.status_code, answer.content[:300])
    assert answer["Content-Type"] == "application/json"
    assert answer.json()["error"]["code"] == "unavailable"
    assert int(answer["Retry-After"]) > 0


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_database_lost_while_a_token_is_read_is_a_503_on_both_paths(people, error, monkeypatch):
    from tests.conftest import api_key

    _, tables = competition_with_tables(people, n_tables=1)
    token = api_key(people.users["scorekeeper"])
    client = Client(raise_request_exception=False)
    for fast in (True, False):
        with connection.execute_wrapper(_database_gone(error)):
            answer = _post(
                client, json.dumps(body(tables, 1)), token, fast=fast, monkeypatch=monkeypatch
            )
        _assert_api_unavailable(answer)
    with connection.execute_wrapper(_database_gone(error)):
        listed = client.get("/api/v1/results/", HTTP_AUTHORIZATION=f"Token {token}")
    _assert_api_unavailable(listed)
    assert not Result.objects.exists()


def _session_writes(sql: object) -> bool:
    return "django_session" in str(sql) and str(sql).lstrip().upper().startswith(
        ("INSERT", "UPDATE")
    )


@pytest.mark.parametrize(
    ("language", "words"), [("it", "Riprova tra un momento"), ("en", "Try again in a moment")]
)
def test_a_database_lost_as_a_login_saves_its_session_is_a_503_page_in_the_persons_language(
    people, language, words
):
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
    with connection.execute_wrapper(_drop_session_writes(OperationalError)):
        page = client.post("/login/", {"username": "member", "password": "pw-member"})
    assert page.status_code == 503, page.status_code
    assert page["Content-Type"].startswith("text/html")
    assert int(page["Retry-After"]) > 0
    text = page.content.decode()
    assert words in text
    assert f'<html lang="{language}">' in text


@pytest.fixture
def session_saved_after_every_view(monkeypatch):
    """Every answer saves the session after its view, as a login, a language switch or a
    message does: a write made by a middleware, outside any view's error handling."""
    from django.contrib.sessions.middleware import SessionMiddleware

    original = SessionMiddleware.process_response

    def modified(self, request, response):  # type: ignore[no-untyped-def]
        request.session.modified = True
        return original(self, request, response)

    monkeypatch.setattr(SessionMiddleware, "process_response", modified)


def _drop_session_writes(error: type[Exception]) -> Any:
    def drop(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        if _session_writes(sql):
            raise error("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    return drop


@pytest.mark.parametrize(
    ("language", "words"), [("it", "Riprova tra un momento"), ("en", "Try again in a moment")]
)
def test_a_database_lost_outside_a_pages_view_is_a_503_page_in_the_persons_language(
    people, language, words, session_saved_after_every_view
):
    browser = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE=language)
    browser.force_login(people.users["scorekeeper"])
    with connection.execute_wrapper(_drop_session_writes(OperationalError)):
        page = browser.get("/")
    assert page.status_code == 503, page.status_code
    assert int(page["Retry-After"]) > 0
    assert words in page.content.decode()


def test_a_database_lost_under_an_api_call_outside_its_view_is_a_503_in_the_error_shape(
    people, session_saved_after_every_view
):
    """A browser's API call (session cookie) whose session is saved after the view."""
    browser = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(people.users["scorekeeper"])
    with connection.execute_wrapper(_drop_session_writes(InterfaceError)):
        answer = browser.get("/api/v1/clubs/")
    _assert_api_unavailable(answer)


def test_a_session_deleted_meanwhile_is_still_django_s_400_not_a_503(people):
    """A session another tab logged out of is the client's state, not the database away."""
    from django.contrib.sessions.models import Session

    browser = Client(raise_request_exception=False)
    browser.force_login(people.users["scorekeeper"])
    from django.contrib.sessions.middleware import SessionMiddleware

    original = SessionMiddleware.process_response

    def deleted_first(self, request, response):  # type: ignore[no-untyped-def]
        Session.objects.all().delete()
        request.session.modified = True
        return original(self, request, response)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SessionMiddleware, "process_response", deleted_first)
        page = browser.get("/")
    assert page.status_code == 400


def test_the_rate_limits_cache_away_is_a_503_for_a_login_and_a_referee_check(people, monkeypatch):
    """The failed-login and referee-check counts live in Redis with CACHE_URL: Redis away is
    ours to say, as a 503, not Django's 500."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    def away(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr("ledger.web.login.get_usage", away)
    monkeypatch.setattr("ledger.referee.api.is_ratelimited", away)
    browser = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="it")
    page = browser.post("/login/", {"username": "member", "password": "pw-member"})
    assert page.status_code == 503 and int(page["Retry-After"]) > 0
    assert "Riprova tra un momento" in page.content.decode()
    api = Client(raise_request_exception=False)
    answer = api.post(
        "/api/v1/referee/check", {"game": "tarocco", "record": {}}, content_type="application/json"
    )
    _assert_api_unavailable(answer)


def _one_warning_each(caplog: Any, answers: int) -> None:
    """Each lost-database answer was logged once, as one warning line: nothing at ERROR,
    no traceback (Django logs its own 5xx at ERROR, with the traceback when the exception
    went past the views)."""
    loud = [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL")]
    assert not loud, [r.getMessage() for r in loud]
    assert not [r for r in caplog.records if r.exc_info], "a traceback was logged"
    said = [r.getMessage() for r in caplog.records if "database unavailable" in r.getMessage()]
    assert len(said) == answers, said
    assert all(r.levelname == "WARNING" for r in caplog.records if "unavailable" in r.getMessage())
    assert all("\n" not in line for line in said)


def test_a_lost_database_is_logged_as_one_warning_line_per_answer_not_an_error(
    people, caplog, monkeypatch, session_saved_after_every_view
):
    from tests.conftest import api_key

    _, tables = competition_with_tables(people, n_tables=1)
    token = api_key(people.users["scorekeeper"])
    api = Client(raise_request_exception=False)
    browser = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    browser.force_login(people.users["scorekeeper"])
    caplog.set_level("DEBUG")
    answers = []
    gone = _database_gone(OperationalError)
    with connection.execute_wrapper(gone):
        # The API's fast path (the token read), its framework's views, and a health check.
        answers.append(
            _post(api, json.dumps(body(tables, 1)), token, fast=True, monkeypatch=monkeypatch)
        )
        answers.append(api.get("/api/v1/results/", HTTP_AUTHORIZATION=f"Token {token}"))
        answers.append(api.get("/healthz"))
        # A page whose view loses the database.
        answers.append(browser.get("/"))
    # The database lost after the views (the session saved by a middleware): a page, an
    # API call and a login.
    with connection.execute_wrapper(_drop_session_writes(InterfaceError)):
        answers.append(browser.get("/"))
        answers.append(browser.get("/api/v1/clubs/"))
        answers.append(
            Client(raise_request_exception=False).post(
                "/login/", {"username": "member", "password": "pw-member"}
            )
        )
    assert [a.status_code for a in answers] == [503] * len(answers)
    _one_warning_each(caplog, len(answers))
