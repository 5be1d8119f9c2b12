"""Shared by the CI-sized API fuzz test and ``make fuzz-api``: a small club world with real
objects to aim at, and one schemathesis run per operation that answers the failures found."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from ledger.clubs.models import Competition, Entry, ImportJob, Player, Result, Table
from ledger.clubs.results import services
from tests.conftest import api_key

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]

_SCHEMA: Any = None


def api_schema() -> Any:
    """The OpenAPI document served at /api/schema/, read through the WSGI application."""
    global _SCHEMA
    if _SCHEMA is None:
        _SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
    return _SCHEMA


def operations() -> list[str]:
    labels = []
    for result in api_schema().get_all_operations():
        operation = result.ok()
        labels.append(f"{operation.method.upper()} {operation.path}")
    return sorted(labels)


def operation(label: str) -> Any:
    method, path = label.split(" ", 1)
    return api_schema()[path][method]


@dataclass
class World:
    """Ids that exist, so that generated requests reach the code behind the 404s."""

    ids: dict[str, list[int]] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)


def build_world(people: Any) -> World:
    from ledger.formats import services as formats
    from ledger.play import services as play

    organiser = people.users["organiser"]
    tarocco = Competition.objects.create(
        club=people.club, name="Tarocco", slug="tarocco", game="tarocco"
    )
    swiss = Competition.objects.create(
        club=people.club, name="Svizzera", slug="svizzera", game="cardchess", format="swiss"
    )
    pool = people.extra
    tables = [
        services.create_table(
            user=organiser, competition=tarocco, label=f"T{t}", players=pool[t : t + 4]
        )
        for t in range(2)
    ]
    for i, table in enumerate(tables):
        services.record_result(
            user=organiser,
            table=table,
            source="summary",
            record={"outcome": "solo", "dealer": 3, "declarer": i, "card_points": 40 + i},
        )
    for k, p in enumerate(pool):
        formats.enter_player(user=organiser, competition=swiss, player=p, rating=1800 - k)
    game_table = play.create_table(
        user=organiser,
        club=people.club,
        game="cardchess",
        seats=["me", "random"],
        seed=1,
        practice=True,
    )
    ImportJob.objects.create(
        club=people.club, user=organiser, filename="a.csv", format="csv", content=""
    )
    world = World()
    world.ids["id"] = sorted(
        {
            people.club.pk,
            tarocco.pk,
            swiss.pk,
            game_table.pk,
            *(t.pk for t in Table.objects.all()),
            *(r.pk for r in Result.objects.all()),
            *(e.pk for e in Entry.objects.all()[:3]),
            *(p.pk for p in Player.objects.all()[:3]),
        }
    )
    world.ids["player"] = [p.pk for p in pool]
    world.ids["number"] = [1, 2]
    world.ids["match"] = [1]
    for who in ("organiser", "member"):
        world.tokens[who] = api_key(people.users[who])
    world.tokens["a made-up token"] = "made-up-" + "0" * 32
    return world


def fuzz_operation(
    label: str, world: World, who: str | None, examples: int, fixed: bool = True
) -> list[str]:
    """Run ``examples`` generated requests (positive and negative) against one operation;
    return the failures, each with a curl-like reproduction."""
    op = operation(label)
    headers = {"Authorization": f"Token {world.tokens[who]}"} if who else {}
    failures: list[str] = []
    strategy = op.as_strategy(generation_mode=GenerationMode.POSITIVE) | op.as_strategy(
        generation_mode=GenerationMode.NEGATIVE
    )

    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=fixed,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy, data=st.data())
    def run(case: Any, data: st.DataObject) -> None:
        for name in list(case.path_parameters or {}):
            if name in world.ids and data.draw(st.booleans()):
                case.path_parameters[name] = data.draw(st.sampled_from(world.ids[name]))
        # A real server always sets REMOTE_ADDR (rate limits key on it); werkzeug does not.
        response = case.call(headers=headers, environ_base={"REMOTE_ADDR": "192.0.2.10"})
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except (Exception, BaseExceptionGroup) as exc:  # report every failure, go on
            body = response.text[:300] if hasattr(response, "text") else ""
            failures.append(
                f"{label} as {who or 'anonymous'}: {type(exc).__name__}: "
                f"{str(exc)[:600]}\n  request: {case.as_curl_command()[:400]}\n"
                f"  response {response.status_code}: {body}"
            )

    run()
    return failures


# --- the probe's hostile inputs, sent to every operation -------------------------------------

DEEP = b"[" * 5000 + b"]" * 5000  # 10 KB of JSON nested 5,000 deep
HUGE = b'{"note":"' + b"a" * 3_000_000 + b'"}'  # 3 MB


def _numbers(value: Any, to: Any) -> Any:
    """``value`` with every number in it replaced by ``to``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return to
    if isinstance(value, dict):
        return {k: _numbers(v, to) for k, v in value.items()}
    if isinstance(value, list):
        return [_numbers(v, to) for v in value]
    return value


def hostile_bodies(body: Any) -> dict[str, bytes]:
    """The bodies that once answered 500 or were stored wrongly: a valid generated body with
    its numbers at 10^30, 1e30, NaN or Infinity (and those added where it had none), JSON
    nested 5,000 deep, and 3 MB of it."""
    base = body if isinstance(body, dict) else {"value": body}
    out = {"nested 5,000 deep": DEEP, "3 MB": HUGE}
    for name, number in (
        ("10^30", 10**30),
        ("1e30", 1e30),
        ("NaN", float("nan")),
        ("Infinity", float("inf")),
    ):
        changed = _numbers(base, number)
        if changed == base:
            changed = {**base, "points": number, "scores": [number, -number]}
        out[name] = json.dumps(changed, allow_nan=True).encode()
    out.update(wrong_types(base))
    return out


# Every JSON type, and values no field takes: a list or an object for a source once answered
# 500 before the token was even read (POST /api/v1/results/).
WRONG_TYPES: list[Any] = [[], {}, "x", None, True, 1.5, 2**64, [[]]]
NOT_OBJECTS = [b"[]", b'"x"', b"1", b"null", b"true"]


def wrong_types(body: dict[str, Any]) -> dict[str, bytes]:
    """``body`` with each of its fields (and a ``source``, a ``table`` and a ``record``,
    which the results endpoint reads before the rest) set to each value of WRONG_TYPES in
    turn, and bodies that are not objects at all."""
    out = {f"a body of {raw.decode()}": raw for raw in NOT_OBJECTS}
    shapes = {"": body}
    if "table" in body:
        # Only what a result's fast path takes (table, source, record): the same fields
        # through that path too.
        shapes["(fast path) "] = {k: v for k, v in body.items() if k in FAST_FIELDS}
    for prefix, shape in shapes.items():
        for name in sorted({*shape, *FAST_FIELDS}):
            for value in WRONG_TYPES:
                sent = json.dumps({**shape, name: value}).encode()
                out[f"{prefix}{name}={json.dumps(value)[:10]}"] = sent
    return out


FAST_FIELDS = ("table", "source", "record")


HOSTILE_QUERY = ["NaN", "Infinity", "1e30", "9" * 40, "-" + "9" * 40, "[" * 5000, "\x00"]


def hostile_operation(label: str, world: World, who: str | None) -> list[str]:
    """One valid request per operation, then the same with each hostile input: in its body
    (operations that take one) or in every query and path parameter. No 5xx, and every answer
    as documented."""
    op = operation(label)
    headers = {"Authorization": f"Token {world.tokens[who]}"} if who else {}
    failures: list[str] = []

    def check(case: Any, what: str, response: Any) -> None:
        try:
            case.validate_response(response, checks=CHECKS, headers=headers)
        except (Exception, BaseExceptionGroup) as exc:
            body = response.text[:300] if hasattr(response, "text") else ""
            failures.append(
                f"{label} as {who or 'anonymous'} with {what}: {type(exc).__name__}: "
                f"{str(exc)[:400]}\n  response {response.status_code}: {body}"
            )

    @settings(
        max_examples=1,
        deadline=None,
        derandomize=True,
        database=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=op.as_strategy(generation_mode=GenerationMode.POSITIVE))
    def run(case: Any) -> None:
        for name in list(case.path_parameters or {}):
            if name in world.ids:
                case.path_parameters[name] = world.ids[name][0]
        environ = {"REMOTE_ADDR": "192.0.2.11"}
        if case.media_type and "json" in case.media_type:
            for what, raw in hostile_bodies(case.body).items():
                sent = {**headers, "Content-Type": "application/json"}
                response = case.call(headers=sent, data=raw, environ_base=environ)
                check(case, what, response)
        for value in HOSTILE_QUERY:
            params = {name: value for name in (case.query or {})} or {"limit": value}
            response = case.call(headers=headers, params=params, environ_base=environ)
            check(case, f"?{value[:12]} in the query", response)
        for name in list(case.path_parameters or {}):
            case.path_parameters[name] = "9" * 40
            response = case.call(headers=headers, environ_base=environ)
            check(case, f"{name}=9×40 in the path", response)

    run()
    return failures


def dump(failures: list[str]) -> str:
    return json.dumps(failures, indent=1, ensure_ascii=False)
