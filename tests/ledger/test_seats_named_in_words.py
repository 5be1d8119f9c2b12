"""A program that names who sat where is answered in words: seats counted from 1 and
players by their names, never a seat counted from 0 or a player's number."""

from __future__ import annotations

import pytest
from django.utils import translation

from ledger.clubs.errors import Invalid
from ledger.clubs.results import services


def test_naming_more_players_than_the_table_seats_says_how_many_it_seats(people, manual_table):
    extra = [p.pk for p in people.extra[:3]]
    with translation.override("en"), pytest.raises(Invalid) as caught:
        services.record_result(
            user=people.users["scorekeeper"],
            table=manual_table,
            source="manual",
            scores=[1, 2],
            players=extra,
        )
    assert str(caught.value) == "Table T1 seats 2 players, but 3 were named."


def test_a_player_in_the_wrong_seat_is_named_with_who_sits_there(people, manual_table):
    first, second = people.extra[:2]
    with translation.override("it"), pytest.raises(Invalid) as caught:
        services.record_result(
            user=people.users["scorekeeper"],
            table=manual_table,
            source="manual",
            scores=[1, 2],
            players=[second.pk, first.pk],
        )
    assert str(caught.value) == (
        f"{second.name} non è al posto 1 del tavolo T1: lì siede {first.name}."
    )
