from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache

from ledger.clubs.models import Competition, Result
from ledger.clubs.results import services
from tests.referee import planted


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def tarocco(club: Any) -> Competition:
    return Competition.objects.create(club=club, name="Tarocco", slug="tarocco", game="tarocco")


@pytest.fixture
def ergio(club: Any) -> Competition:
    return Competition.objects.create(club=club, name="Er Giò", slug="ergio", game="ergio")


@pytest.fixture
def tarocco_result(tarocco: Competition, people: Any) -> Result:
    table = services.create_table(
        user=people.users["organiser"], competition=tarocco, label="T1", players=people.extra[:4]
    )
    result, _ = services.record_result(
        user=people.users["scorekeeper"],
        table=table,
        source="full_record",
        record=planted.played("tarocco", 7),
    )
    return result


@pytest.fixture
def ergio_result(ergio: Competition, people: Any) -> Result:
    table = services.create_table(
        user=people.users["organiser"], competition=ergio, label="E1", players=people.extra[:2]
    )
    result, _ = services.record_result(
        user=people.users["scorekeeper"],
        table=table,
        source="full_record",
        record=planted.played("ergio", 7),
    )
    return result
