"""A substitute plays for the entrant whose seat they took: the Swiss table, the next
pairing and the knockout bracket count the match for the entrant the seat was drawn for,
while the journal credits the hand's points to whoever played it (docs/ledger.md,
"Substitutes"). Before, a substitute who came in from the first hand made the match vanish
from the bracket (no winner, no next round) and moved the Swiss game to a player the table
does not list."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.clubs.models import Competition, Entry, Membership, Player, Table
from ledger.clubs.results import services as core
from ledger.formats import selectors, services
from ledger.night import services as night
from tests.formats.conftest import enter
from tests.formats.level_results import decided

pytestmark = pytest.mark.django_db


def _competition(club: Any, people: Any, fmt: str, players: int) -> Competition:
    typed = decided("ergio", 2)
    assert typed is not None
    comp = Competition.objects.create(
        club=club,
        name=f"Er Giò {fmt}",
        slug=f"ergio-{fmt}",
        game="ergio",
        format=fmt,
        ruleset={"name": typed.ruleset},
    )
    enter(people, comp, players)
    return comp


def _first_round_with_a_substitute(
    people: Any, comp: Competition, from_hand: int
) -> tuple[Table, int, Player, int]:
    """Round 1 drawn and published; at its first table, the typed Er Giò match recorded
    and the winner's seat taken by a substitute from ``from_hand`` (1: the played hand is
    written again for the substitute). Returns the table, the winning entrant, the
    substitute and the winning seat."""
    organiser = people.users["organiser"]
    draw = services.generate_round(user=organiser, competition=comp)
    services.publish_draw(user=organiser, draw=draw)
    typed = decided("ergio", 2)
    assert typed is not None
    tables = list(Table.objects.filter(round=draw.round).order_by("pk"))
    for table in tables:
        core.record_result(
            user=people.users["scorekeeper"], table=table, source="summary", record=typed.summary
        )
    table = tables[0]
    seat = typed.winners[0]
    winner = table.seats.get(index=seat).player_id
    substitute = Player.objects.create(name="Sostituto Neri")
    Membership.objects.create(club=comp.club, player=substitute)
    night.replace_player(
        user=organiser, table=table, seat=seat, substitute=substitute, from_hand=from_hand
    )
    return table, winner, substitute, seat


@pytest.mark.parametrize("from_hand", [1, 2])
def test_the_swiss_table_counts_a_substitutes_match_for_the_entrant(
    club: Any, people: Any, from_hand: int
) -> None:
    comp = _competition(club, people, "swiss", 4)
    table, winner, substitute, _seat = _first_round_with_a_substitute(people, comp, from_hand)
    rows = {row["player"]: row for row in selectors.swiss_standings(comp)}
    assert substitute.pk not in rows
    assert (rows[winner]["played"], rows[winner]["wins"]) == (1, 1)
    assert sum(row["played"] for row in rows.values()) == 4
    # The journal credits the hand to whoever played it.
    credited = set(
        Entry.objects.filter(
            table=table, kind=Entry.Kind.CREDIT, result__status="accepted"
        ).values_list("player_id", flat=True)
    )
    assert (substitute.pk in credited) == (from_hand == 1)
    assert (winner in credited) == (from_hand == 2)
    # The next round pairs the entrant with their point, not the substitute.
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    seated = {s.player_id for t in Table.objects.filter(round=draw.round) for s in t.seats.all()}
    assert winner in seated and substitute.pk not in seated


@pytest.mark.parametrize("from_hand", [1, 2])
def test_the_bracket_sends_the_entrant_through_when_their_substitute_won(
    club: Any, people: Any, from_hand: int
) -> None:
    comp = _competition(club, people, "knockout", 4)
    _table, winner, substitute, _seat = _first_round_with_a_substitute(people, comp, from_hand)
    assert services._knockout_still_in(comp, 2) is not None
    assert winner in services._knockout_still_in(comp, 2)  # type: ignore[operator]
    draw = services.generate_round(user=people.users["organiser"], competition=comp)
    services.publish_draw(user=people.users["organiser"], draw=draw)
    seated = {s.player_id for t in Table.objects.filter(round=draw.round) for s in t.seats.all()}
    assert winner in seated and substitute.pk not in seated
    places = {row["player"]: row for row in selectors.knockout_standings(comp)}
    assert not places[winner]["out"] and substitute.pk not in places
