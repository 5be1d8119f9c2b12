"""A hand is credited to the people who played it: a correction or a referee's ruling on a
hand played before a substitute took a seat credits the player who played it, never the
substitute sitting there now (and the substitute's own special credit stays theirs)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from ledger.clubs.journal.journal import verify_chain
from ledger.clubs.models import Entry, Membership, Player, Standing, Table
from ledger.clubs.projections.projections import rebuild_standings
from ledger.clubs.results.services import record_result, supersede_result
from ledger.formats import services as formats
from ledger.night import services as night
from ledger.referee import services as referee
from tests.night.conftest import enter, night_competition

pytestmark = pytest.mark.django_db


def _table_with_a_substitute(club: Any, people: Any) -> tuple[Any, Table, Any, Player, Player]:
    competition = night_competition(club)
    enter(people, competition, 4)
    draw = formats.generate_round(user=people.users["organiser"], competition=competition)
    formats.publish_draw(user=people.users["organiser"], draw=draw)
    table = Table.objects.get(round=draw.round)
    first, _ = record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[4, 0, 0, -4]
    )
    played = Player.objects.get(pk=table.seats.get(index=0).player_id)
    substitute = Player.objects.create(name="Sostituto Rossi")
    Membership.objects.create(club=club, player=substitute)
    rules = night.settings_for(competition)
    rules.substitute_points = "nobody"  # a substitute's hands credit nobody
    rules.save()
    night.replace_player(user=people.users["organiser"], table=table, seat=0, substitute=substitute)
    return competition, table, first, played, substitute


def _points(competition: Any, player: Player) -> Decimal:
    row = Standing.objects.filter(competition=competition, player=player).first()
    return row.points if row else Decimal(0)


def test_a_correction_of_a_hand_before_a_replacement_credits_who_played_it(
    club: Any, people: Any, points_game: str
) -> None:
    competition, _table, first, played, substitute = _table_with_a_substitute(club, people)
    new = supersede_result(
        user=people.users["referee"], result=first, source="manual", scores=[6, 0, -2, -4]
    )
    credits = {e.seat: (e.player_id, e.points) for e in new.entries.filter(kind=Entry.Kind.CREDIT)}
    assert credits[0] == (played.pk, Decimal(6))
    assert _points(competition, played) == 6
    assert _points(competition, substitute) == 0
    assert not Entry.objects.filter(player=substitute).exists()
    stored = {s.player_id: s.points for s in Standing.objects.filter(competition=competition)}
    rebuild_standings(competition)
    assert {
        s.player_id: s.points for s in Standing.objects.filter(competition=competition)
    } == stored
    assert not verify_chain(club)


def test_a_referees_ruling_on_a_hand_before_a_replacement_credits_who_played_it(
    club: Any, people: Any, points_game: str
) -> None:
    competition, _table, first, played, substitute = _table_with_a_substitute(club, people)
    case = referee.open_case(user=people.users["referee"], competition=competition, result=first)
    ruled = referee.rule(
        user=people.users["referee"],
        case=case,
        kind="assigned",
        params={"scores": ["5", "0", "-1", "-4"]},
    )
    credits = {
        e.seat: (e.player_id, e.points) for e in ruled.entries.filter(kind=Entry.Kind.CREDIT)
    }
    assert credits[0] == (played.pk, Decimal(5))
    assert _points(competition, played) == 5
    assert not Entry.objects.filter(player=substitute).exists()
