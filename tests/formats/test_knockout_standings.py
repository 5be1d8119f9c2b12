"""A knockout ranks its players by the round they reached, names its champion, and keeps
the loser of a forfeit."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from ledger.formats import selectors, services
from ledger.formats.models import KnockoutMatch
from tests.formats.conftest import enter, make_competition
from tests.formats.test_knockout_and_navigation import play

pytestmark = pytest.mark.django_db


def test_a_knockout_ranks_by_the_round_reached_and_names_its_champion(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "knockout")
    seeds = enter(people, comp, 8)
    s = {i + 1: p.pk for i, p in enumerate(seeds)}
    # Quarter-finals: 1, 2, 3 win; 5 beats 4 (their first seat, 4, loses).
    play(people, comp, winners={s[1], s[2], s[3], s[5]})
    # Semi-finals: 1 v 5 and 2 v 3; 5 and 3 win. Final: 3 beats 5.
    play(people, comp, winners={s[5], s[3]})
    assert selectors.champion(comp) is None
    rows = selectors.knockout_standings(comp)
    assert [r["place"] for r in rows] == [1, 1, 3, 3, 5, 5, 5, 5]
    play(people, comp, winners={s[3]})
    with translation.override("en"):
        rows = selectors.knockout_standings(comp)
    assert [(r["player"], r["place"]) for r in rows[:2]] == [(s[3], 1), (s[5], 2)]
    assert {r["player"] for r in rows if r["place"] == 3} == {s[1], s[2]}
    assert {r["player"] for r in rows if r["place"] == 5} == {s[4], s[6], s[7], s[8]}
    assert [r["round"] for r in rows[:3]] == ["Champion", "Final", "Semi-finals"]
    champion = selectors.champion(comp)
    assert champion is not None and champion["player"] == s[3]
    with translation.override("en"):
        assert selectors.standings_for(comp) == rows


def test_the_loser_of_a_forfeit_keeps_their_place(club: Any, people: Any, points_game: str) -> None:
    comp = make_competition(club, "knockout")
    seeds = enter(people, comp, 4)
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    # No game is played: the referee names both winners (forfeits).
    for match in KnockoutMatch.objects.filter(competition=comp):
        services.set_match_winner(user=people.users["referee"], match=match, winner=match.first)
    rows = selectors.knockout_standings(comp)
    assert {r["player"] for r in rows} == {p.pk for p in seeds}
    assert [r["place"] for r in rows] == [1, 1, 3, 3]
