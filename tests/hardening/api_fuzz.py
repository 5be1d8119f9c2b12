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

from ledger.clubs import services
from ledger.clubs.models import Competition, Entry, ImportJob, Player, Result, Table
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


def dump(failures: list[str]) -> str:
    return json.dumps(failures, indent=1, ensure_ascii=False)
