"""A knockout may play a match for third place: the semi-finals' losers meet beside the
final, and the standings rank its winner third and its loser fourth."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from ledger.clubs.models import Table
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from ledger.formats.models import KnockoutMatch
from tests.formats.conftest import enter, make_competition

pytestmark = pytest.mark.django_db


def _play(people: Any, comp: Any, second_wins: set[int]) -> list[Table]:
    """Draw and publish the next round; the first seat wins unless its second is listed."""
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    tables = list(Table.objects.filter(round=draw.round).order_by("id"))
    for table in tables:
        seats = [s.player_id for s in table.seats.order_by("index")]
        core.record_result(
            user=people.users["scorekeeper"],
            table=table,
            source="manual",
            scores=[1, 3] if seats[1] in second_wins else [3, 1],
        )
    return tables


def test_the_semi_finals_losers_play_for_third_place_and_rank_third_and_fourth(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "knockout")
    seeds = enter(people, comp, 8)
    services.update_settings(user=people.users["organiser"], competition=comp, third_place=True)
    s = {i + 1: p.pk for i, p in enumerate(seeds)}
    _play(people, comp, second_wins=set())  # 1, 2, 3, 4 go through
    _play(people, comp, second_wins=set())  # 1 and 2 win the semi-finals; 3 and 4 lose
    final_round = services.generate_round(user=people.users["organiser"], competition=comp)
    assert sorted(sorted(t["players"]) for t in final_round.tables) == sorted(
        [sorted([s[1], s[2]]), sorted([s[3], s[4]])]
    )
    services.publish_draw(user=people.users["organiser"], draw=final_round)
    third = KnockoutMatch.objects.get(competition=comp, stage=3, slot=1)
    assert {third.first_id, third.second_id} == {s[3], s[4]}
    # The final is won by 2; the match for third place not yet played.
    final = KnockoutMatch.objects.get(competition=comp, stage=3, slot=0)
    [final_table] = final.tables.all()
    seated = [x.player_id for x in final_table.seats.order_by("index")]
    core.record_result(
        user=people.users["scorekeeper"],
        table=final_table,
        source="manual",
        scores=[3, 1] if seated[0] == s[2] else [1, 3],
    )
    assert selectors.champion(comp)["player"] == s[2]
    assert not selectors.progress(comp).concluded  # the match for third place is to play
    rows = selectors.knockout_standings(comp)
    assert [r["place"] for r in rows[:4]] == [1, 2, 3, 3]
    # 4 beats 3 for third place.
    [third_table] = third.tables.all()
    seated = [x.player_id for x in third_table.seats.order_by("index")]
    core.record_result(
        user=people.users["scorekeeper"],
        table=third_table,
        source="manual",
        scores=[3, 1] if seated[0] == s[4] else [1, 3],
    )
    rows = selectors.knockout_standings(comp)
    assert [(r["player"], r["place"]) for r in rows[:4]] == [
        (s[2], 1),
        (s[1], 2),
        (s[4], 3),
        (s[3], 4),
    ]
    assert [r["place"] for r in rows[4:]] == [5, 5, 5, 5]
    assert selectors.progress(comp).concluded
    with pytest.raises(Exception):  # noqa: B017 - the knockout is over: no round after the final
        services.generate_round(user=people.users["organiser"], competition=comp)
    # The bracket shows it under the final, and names the champion.
    stages = selectors.bracket_view(comp)
    assert len(stages[-1]["matches"]) == 1
    assert [x["won"] for x in stages[-1]["third_place"]["sides"]] == [
        x["player"] == s[4] for x in stages[-1]["third_place"]["sides"]
    ]
    page = Client(HTTP_ACCEPT_LANGUAGE="it").get(f"/c/{club.slug}/{comp.slug}/bracket/")
    body = page.content.decode()
    assert "Finale per il terzo posto" in body and "Campione" in body


def test_without_the_option_the_final_is_the_last_match(
    club: Any, people: Any, points_game: str
) -> None:
    comp = make_competition(club, "knockout")
    enter(people, comp, 4)
    _play(people, comp, second_wins=set())
    final = services.generate_round(user=people.users["organiser"], competition=comp)
    assert len(final.tables) == 1
