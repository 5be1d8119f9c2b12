"""A draw seats tables of the size the competition's ruleset is played at: Er Giò for six
with eight entrants seats one table of six, never two tables of four that no result could
be recorded at (the club model found such tables drawn from the game's sizes)."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.clubs.errors import Invalid
from ledger.clubs.models import Competition, Table
from ledger.clubs.results import services as core
from ledger.formats import services
from tests.formats.conftest import enter

pytestmark = pytest.mark.django_db


def _ergio_for_six(club: Any, fmt: str) -> Competition:
    return Competition.objects.create(
        club=club,
        name="Er Giò a sei",
        slug=f"ergio-6p-{fmt}",
        game="ergio",
        format=fmt,
        ruleset={"name": "6p"},
    )


@pytest.mark.parametrize("fmt", ["league", "swiss"])
def test_a_draw_seats_tables_of_the_rulesets_size(club: Any, people: Any, fmt: str) -> None:
    comp = _ergio_for_six(club, fmt)
    enter(people, comp, 8)
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    sizes = [t.seats.count() for t in Table.objects.filter(round=draw.round)]
    assert sizes == [6]
    assert len(draw.sitting_out) == 2


def test_a_table_of_another_size_than_the_rulesets_is_refused_at_the_field(
    club: Any, people: Any
) -> None:
    comp = _ergio_for_six(club, "league")
    players = enter(people, comp, 4)
    with pytest.raises(Invalid) as refused:
        core.create_table(
            user=people.users["organiser"], competition=comp, label="1", players=players
        )
    assert "players" in refused.value.fields


def test_seats_per_table_other_than_the_rulesets_is_refused(club: Any, people: Any) -> None:
    comp = _ergio_for_six(club, "league")
    with pytest.raises(Invalid) as refused:
        services.update_settings(
            user=people.users["organiser"], competition=comp, seats_per_table=4
        )
    assert "seats_per_table" in refused.value.fields
