"""The WSGI layer that records a result without the middleware stack (ledger/api/fastpath.py):
the same answers, headers and refusals as Django's handler, and Django for anything else."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core import signals
from django.core.handlers.wsgi import WSGIHandler
from django.test import RequestFactory, override_settings

from ledger.api.fastpath import ResultsFastPath
from ledger.clubs import services
from ledger.clubs.models import Competition, Result
from tests.conftest import api_key

URL = "/api/v1/results/"


class Counting:
    """Django's handler, counting the requests that reach it."""

    def __init__(self) -> None:
        self.handler = WSGIHandler()
        self.calls = 0

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        self.calls += 1
        return self.handler(environ, start_response)


class Answer:
    def __init__(self, status: str, headers: list[tuple[str, str]], body: bytes) -> None:
        self.status_code = int(status.split()[0])
        self.headers = dict(headers)
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)


def call(app: Any, body: Any, language: str = "en", **extra: str) -> Answer:
    request = RequestFactory().post(
        URL,
        data=body if isinstance(body, str) else json.dumps(body),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=language,
        **extra,
    )
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        seen.update(status=status, headers=headers)

    response = app(request.environ, start_response)
    try:
        content = b"".join(response)
    finally:
        response.close()
    return Answer(seen["status"], seen["headers"], content)


@pytest.fixture(autouse=True)
def connections_kept():
    """As Django's test client does: a test runs in one transaction, which the end of a
    request must not close."""
    from django.db import close_old_connections

    for signal in (signals.request_started, signals.request_finished):
        signal.disconnect(close_old_connections)
    yield
    for signal in (signals.request_started, signals.request_finished):
        signal.connect(close_old_connections)


@pytest.fixture
def tarocco_table(people):
    competition = Competition.objects.create(
        club=people.club, name="Tarocco", slug="tarocco", game="tarocco"
    )
    return services.create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:4],
    )


@pytest.fixture
def token(people):
    return "Token " + api_key(people.users["scorekeeper"])


def hand(table, points=50, declarer=0):
    return {
        "table": table.pk,
        "source": "summary",
        "record": {"outcome": "solo", "dealer": 3, "declarer": declarer, "card_points": points},
    }


def test_a_token_post_of_a_result_is_answered_without_django_as_django_answers(
    tarocco_table, token
):
    django = Counting()
    fast = ResultsFastPath(django)
    assert fast.enabled
    quick = call(fast, hand(tarocco_table), HTTP_AUTHORIZATION=token, HTTP_IDEMPOTENCY_KEY="a")
    assert django.calls == 0
    slow = call(django, hand(tarocco_table), HTTP_AUTHORIZATION=token, HTTP_IDEMPOTENCY_KEY="b")
    assert quick.status_code == slow.status_code == 201
    mine, theirs = quick.json(), slow.json()
    assert mine["scores"] == theirs["scores"] and mine.keys() == theirs.keys()
    assert [e["points"] for e in mine["entries"]] == [e["points"] for e in theirs["entries"]]
    # The headers the middleware gives every answer.
    for name in (
        "Content-Type",
        "Content-Language",
        "X-Content-Type-Options",
        "X-Frame-Options",
        "Referrer-Policy",
        "Cross-Origin-Opener-Policy",
    ):
        assert quick.headers[name] == slow.headers[name], name
    assert "Accept-Language" in quick.headers["Vary"]
    assert Result.objects.count() == 2


def test_a_retry_through_the_fast_path_returns_the_first_answer(tarocco_table, token):
    fast = ResultsFastPath(Counting())
    first = call(fast, hand(tarocco_table), HTTP_AUTHORIZATION=token, HTTP_IDEMPOTENCY_KEY="k")
    again = call(fast, hand(tarocco_table), HTTP_AUTHORIZATION=token, HTTP_IDEMPOTENCY_KEY="k")
    assert again.json() == first.json() and again.headers["Idempotent-Replayed"] == "true"
    other = call(
        fast, hand(tarocco_table, points=60), HTTP_AUTHORIZATION=token, HTTP_IDEMPOTENCY_KEY="k"
    )
    assert other.status_code == 409
    assert Result.objects.count() == 1


@pytest.mark.parametrize("language", ["it", "en"])
def test_a_rule_break_is_refused_in_the_callers_language_as_django_refuses_it(
    tarocco_table, token, language
):
    django = Counting()
    broken = hand(tarocco_table, points=200)
    quick = call(ResultsFastPath(django), broken, language, HTTP_AUTHORIZATION=token)
    assert django.calls == 0
    slow = call(django, broken, language, HTTP_AUTHORIZATION=token)
    assert quick.status_code == slow.status_code == 400
    assert quick.json() == slow.json()
    assert quick.headers["Content-Language"] == language
    assert Result.objects.count() == 0


@pytest.mark.parametrize(
    "case",
    ["session cookie", "scores", "bad token", "host not allowed", "not json"],
)
def test_what_the_fast_path_does_not_take_goes_to_django(tarocco_table, token, people, case):
    django = Counting()
    fast = ResultsFastPath(django)
    body: Any = hand(tarocco_table)
    extra = {"HTTP_AUTHORIZATION": token}
    if case == "session cookie":
        extra["HTTP_COOKIE"] = "sessionid=abc"
    elif case == "scores":
        body = {"table": tarocco_table.pk, "source": "manual", "scores": [1, 2, 3, 4]}
    elif case == "bad token":
        extra["HTTP_AUTHORIZATION"] = "Token nope"
    elif case == "host not allowed":
        extra["HTTP_HOST"] = "evil.example"
    else:
        body = "{not json"
    quick = call(fast, body, **extra)
    assert django.calls == 1
    slow = call(django, body, **extra)
    assert quick.status_code == slow.status_code
    if case == "session cookie":
        assert quick.status_code == 201  # the token still authenticates, on Django's path
    else:
        assert quick.status_code in {400, 403} and quick.body == slow.body, case


def test_the_fast_path_is_off_when_the_middleware_is_not_the_one_it_was_written_for(
    tarocco_table, token, settings
):
    with override_settings(
        MIDDLEWARE=[*settings.MIDDLEWARE, "django.middleware.gzip.GZipMiddleware"]
    ):
        assert not ResultsFastPath(Counting()).enabled
    django = Counting()
    with_env = pytest.MonkeyPatch()
    with_env.setenv("LEDGER_API_FAST_PATH", "0")
    try:
        fast = ResultsFastPath(django)
    finally:
        with_env.undo()
    assert not fast.enabled
    assert call(fast, hand(tarocco_table), HTTP_AUTHORIZATION=token).status_code == 201
    assert django.calls == 1


def test_closing_a_fast_answer_ends_the_request_as_django_does(tarocco_table, token):
    """request_started and request_finished are sent: they close connections that have
    grown old or broken, as after any request."""
    sent: list[str] = []

    def started(**kwargs: Any) -> None:
        sent.append("started")

    def finished(**kwargs: Any) -> None:
        sent.append("finished")

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    try:
        call(ResultsFastPath(Counting()), hand(tarocco_table), HTTP_AUTHORIZATION=token)
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
    assert sent == ["started", "finished"]


@pytest.mark.parametrize("who", ["scorekeeper", "member", "stranger", "admin"])
def test_the_token_and_the_table_are_read_together_with_the_writers_role(
    tarocco_table, people, who, django_user_model
):
    from ledger.api.auth import user_and_table
    from ledger.clubs.models import Role

    def expected_role(who: str) -> str | None:
        return {
            "scorekeeper": Role.SCOREKEEPER,
            "member": Role.MEMBER,
            "stranger": None,
            "admin": Role.ORGANISER,
        }[who]

    if who == "admin":
        login = django_user_model.objects.create_superuser("boss", "", "pw")
    else:
        login = people.users[who]
    key = api_key(login)
    user, table = user_and_table(key, tarocco_table.pk)
    if who != "admin":  # the role came with the table: the club need not ask again
        assert table is not None and table.competition.club.known_roles == {
            login.pk: expected_role(who)
        }
    assert user.pk == login.pk and table is not None
    assert table.pk == tarocco_table.pk
    assert table.seated == {i: p.pk for i, p in enumerate(people.extra[:4])}
    club = table.competition.club
    assert club.pk == people.club.pk
    assert club.role_of(user) == expected_role(who)
    # A table that does not exist is no table; the token still names its user.
    user, table = user_and_table(key, tarocco_table.pk + 1000)
    assert user.pk == login.pk and table is None


def test_an_unknown_or_inactive_token_reads_no_table(tarocco_table, people):
    from rest_framework.exceptions import AuthenticationFailed

    from ledger.api.auth import user_and_table

    with pytest.raises(AuthenticationFailed):
        user_and_table("nope", tarocco_table.pk)
    login = people.users["scorekeeper"]
    key = api_key(login)
    login.is_active = False
    login.save()
    with pytest.raises(AuthenticationFailed):
        user_and_table(key, tarocco_table.pk)
