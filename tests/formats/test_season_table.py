"""The season's championship table, against sums worked out by hand (tests/formats/
season_fixture.py: six league nights, 10-8-6-5-4-3 per place, the best 4 of 6)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from ledger.clubs.errors import Invalid
from ledger.clubs.results import services
from ledger.formats import seasons
from ledger.formats.models import Championship
from tests.formats.season_fixture import make_season

pytestmark = pytest.mark.django_db


def rules(season: Any, **chosen: Any) -> Championship:
    values = {
        "game": "punti",
        "place_points": ["10", "8", "6", "5", "4", "3"],
        "best_of": 4,
        "min_nights": 4,
        "qualifiers": 4,
        **chosen,
    }
    return Championship.objects.create(season=season, **values)


def table(season: Any, as_of: int | None = None) -> list[tuple[Any, ...]]:
    return [
        (r.rank, r.name, r.total, r.nights, r.qualified)
        for r in seasons.season_table(season, as_of).rows
    ]


def test_best_four_of_six_nights_by_the_points_of_each_place(
    club: Any, people: Any, points_game: str
) -> None:
    season, _results = make_season(club, people.users["organiser"])
    rules(season)
    # Anna 10,8,6,5,10,6: best four 10+10+8+6; Fabio missed night 3 and plays five.
    assert table(season) == [
        (1, "Anna", Decimal(34), 6, True),
        (2, "Bruno", Decimal(32), 6, True),
        (3, "Carla", Decimal(30), 6, True),
        (4, "Dario", Decimal(29), 6, True),
        (5, "Elena", Decimal(22), 6, False),
        (6, "Fabio", Decimal(19), 5, False),
    ]
    anna = seasons.season_table(season).rows[0]
    assert anna.scores == [Decimal(v) for v in (10, 8, 6, 5, 10, 6)]
    # The dropped nights: the 5 and the 6 of night 6 (of two sixes, the earlier counts).
    assert anna.counted == [True, True, True, False, True, False]


def test_a_void_in_one_night_moves_the_table(club: Any, people: Any, points_game: str) -> None:
    season, results = make_season(club, people.users["organiser"])
    rules(season)
    services.void_result(user=people.users["organiser"], result=results[2], reason="wrong night")
    # Without night 3: Carla 6,5,8,6,4 -> 25 and Dario 5,6,10,5,3 -> 26 change places.
    assert table(season) == [
        (1, "Anna", Decimal(34), 5, True),
        (2, "Bruno", Decimal(32), 5, True),
        (3, "Dario", Decimal(26), 5, True),
        (4, "Carla", Decimal(25), 5, True),
        (5, "Elena", Decimal(21), 5, False),
        (6, "Fabio", Decimal(19), 5, False),
    ]


def test_a_correction_in_one_night_moves_the_table(
    club: Any, people: Any, points_game: str
) -> None:
    season, results = make_season(club, people.users["organiser"])
    rules(season)
    # Night 6 corrected: Dario first (10 instead of 3), Elena second.
    services.supersede_result(
        user=people.users["organiser"],
        result=results[5],
        source="manual",
        reason="scores swapped",
        scores=[40, 30, 20, 70, 60, 50],
    )
    rows = seasons.season_table(season).rows
    # Dario 5,6,8,10,5,10 -> 10+10+8+6 = 34, level with Anna: they share the first place.
    assert [(r.rank, r.name, r.total) for r in rows[:3]] == [
        (1, "Anna", Decimal(34)),
        (1, "Dario", Decimal(34)),
        (3, "Bruno", Decimal(32)),
    ]


def test_a_player_is_ranked_only_after_the_minimum_of_nights(
    club: Any, people: Any, points_game: str
) -> None:
    season, _results = make_season(club, people.users["organiser"])
    rules(season)
    rows = seasons.season_table(season, as_of=3).rows
    assert all(r.rank is None for r in rows)
    assert {r.name: r.missing for r in rows}["Fabio"] == 2
    assert {r.name: r.missing for r in rows}["Anna"] == 1


def test_as_of_a_night_with_ties_broken_and_movement(
    club: Any, people: Any, points_game: str
) -> None:
    season, _results = make_season(club, people.users["organiser"])
    rules(season, min_nights=1, tiebreaks=["places"])
    # After two nights Anna and Bruno have 18 each and a first and a second place each:
    # the tie stands, they share the first place; each pair below shares too.
    assert table(season, as_of=2) == [
        (1, "Anna", Decimal(18), 2, True),
        (1, "Bruno", Decimal(18), 2, True),
        (3, "Carla", Decimal(11), 2, True),
        (3, "Dario", Decimal(11), 2, True),
        (5, "Elena", Decimal(7), 2, False),
        (5, "Fabio", Decimal(7), 2, False),
    ]
    moved = {r.name: r.movement for r in seasons.season_table(season, as_of=2).rows}
    assert moved == {"Anna": 0, "Bruno": 1, "Carla": 0, "Dario": 1, "Elena": 0, "Fabio": 1}


def test_the_latest_night_breaks_a_tie_when_chosen(
    club: Any, people: Any, points_game: str
) -> None:
    season, _results = make_season(club, people.users["organiser"])
    rules(season, min_nights=1, tiebreaks=["last"])
    # Bruno won night 2, Dario beat Carla in it, Fabio beat Elena.
    assert [r.name for r in seasons.season_table(season, as_of=2).rows] == [
        "Bruno",
        "Anna",
        "Dario",
        "Carla",
        "Fabio",
        "Elena",
    ]


def test_the_nights_own_points_every_night_counting(
    club: Any, people: Any, points_game: str
) -> None:
    season, _results = make_season(club, people.users["organiser"])
    rules(season, scoring="points", best_of=None, min_nights=1, qualifiers=None)
    # Anna 60+50+40+30+60+40; Fabio 10+20+20+10+50.
    found = {r.name: (r.total, r.qualified) for r in seasons.season_table(season).rows}
    assert found["Anna"] == (Decimal(280), False)
    assert found["Fabio"] == (Decimal(110), False)


def test_points_per_place_as_typed(club: Any) -> None:
    assert seasons.parse_place_points("10-8-6-5 4,3; 2.5") == [
        "10",
        "8",
        "6",
        "5",
        "4",
        "3",
        "2.5",
    ]
    with pytest.raises(Invalid) as refused:
        seasons.parse_place_points("10-otto-6")
    assert "otto" in str(refused.value.fields["place_points"][0])
