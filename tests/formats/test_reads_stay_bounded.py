"""The formats' tables read in a fixed number of queries whatever the size of the field
(Tabbycat's public standings once ran 540 queries)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledger.formats import selectors
from tests.formats.conftest import enter, make_competition
from tests.formats.test_knockout_and_navigation import play

pytestmark = pytest.mark.django_db


def queries(read: Any) -> int:
    with CaptureQueriesContext(connection) as seen:
        read()
    return len(seen.captured_queries)


@pytest.mark.parametrize("fmt", ["knockout", "swiss"])
def test_a_formats_table_and_round_read_in_a_fixed_number_of_queries(
    club: Any, people: Any, points_game: str, fmt: str
) -> None:
    counts = []
    for size in (4, 16):
        comp = make_competition(club, fmt, slug=f"{fmt}-{size}")
        enter(people, comp, size)
        play(people, comp)
        play(people, comp)
        assert len(selectors.standings_for(comp)) == size
        counts.append(
            (
                queries(lambda c=comp: selectors.standings_for(c)),
                queries(lambda c=comp: selectors.round_view(c, 2)),
            )
        )
    assert counts[0] == counts[1] and max(counts[1]) <= 12, counts
