"""What happens to a table's hands once the round's time is up, as the competition says."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone, translation

from ledger.clubs.errors import Invalid
from ledger.clubs.models import Result, Table
from ledger.clubs.results.services import record_result
from ledger.formats import services as formats
from ledger.night import services
from ledger.night.models import NightSettings, RoundClock
from tests.night.conftest import enter, night_competition

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_english() -> Any:
    """The messages are read in English, whatever language a test before left active."""
    with translation.override("en"):
        yield


HAND = [1, 1, -1, -1]


def _table_out_of_time(club: Any, people: Any, at_time: str) -> Table:
    competition = night_competition(club)
    enter(people, competition, 4)
    draw = formats.generate_round(user=people.users["organiser"], competition=competition)
    formats.publish_draw(user=people.users["organiser"], draw=draw)
    (table,) = Table.objects.filter(round=draw.round)
    settings = services.settings_for(competition)
    settings.at_time = at_time
    settings.save()
    services.clock_action(
        user=people.users["organiser"], rnd=draw.round, action="start", minutes=30
    )
    # The round started 31 minutes ago: its 30 minutes ran out a minute ago.
    RoundClock.objects.filter(round=draw.round).update(
        started_at=timezone.now() - timedelta(minutes=31)
    )
    return table


def _hand(people: Any, table: Table) -> Result:
    result, _created = record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=HAND
    )
    return result


def test_with_finish_the_hand_the_hand_in_play_is_recorded_after_time_and_no_other(
    club: Any, people: Any, points_game: str
) -> None:
    table = _table_out_of_time(club, people, NightSettings.AtTime.FINISH_HAND)
    _hand(people, table)
    with pytest.raises(Invalid, match="no new hand starts after time"):
        _hand(people, table)
    assert Result.objects.filter(table=table).count() == 1


def test_with_stop_at_once_no_hand_is_recorded_after_time(
    club: Any, people: Any, points_game: str
) -> None:
    table = _table_out_of_time(club, people, NightSettings.AtTime.STOP)
    with pytest.raises(Invalid, match="stops play at time"):
        _hand(people, table)
    assert not Result.objects.filter(table=table).exists()


def test_extra_minutes_for_the_table_let_its_hands_in_again(
    club: Any, people: Any, points_game: str
) -> None:
    table = _table_out_of_time(club, people, NightSettings.AtTime.STOP)
    services.give_extra_time(user=people.users["organiser"], table=table, minutes=5)
    _hand(people, table)
    _hand(people, table)
    assert Result.objects.filter(table=table).count() == 2


def test_hands_recorded_while_time_is_left_are_not_counted_against_the_hand_in_play(
    club: Any, people: Any, points_game: str
) -> None:
    table = _table_out_of_time(club, people, NightSettings.AtTime.FINISH_HAND)
    clock = RoundClock.objects.get(round=table.round)
    # Two hands recorded in time, before the clock ran out.
    RoundClock.objects.filter(pk=clock.pk).update(started_at=timezone.now())
    _hand(people, table)
    _hand(people, table)
    # ...ten minutes before the end; the clock's 30 minutes ran out a minute ago.
    Result.objects.filter(table=table).update(entered_at=timezone.now() - timedelta(minutes=11))
    RoundClock.objects.filter(pk=clock.pk).update(started_at=timezone.now() - timedelta(minutes=31))
    _hand(people, table)  # the hand in play when time ran out
    with pytest.raises(Invalid):
        _hand(people, table)
    assert Result.objects.filter(table=table).count() == 3
