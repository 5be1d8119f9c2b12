"""Clubs, people and roles."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from ledger.clubs.errors import Invalid, NotAllowed
from ledger.clubs.models import Competition, Membership, Player, Season
from ledger.clubs.results import services


def test_each_role_includes_the_ones_before_it(people, club):
    assert club.allows(people.users["organiser"], "referee")
    assert club.allows(people.users["referee"], "scorekeeper")
    assert not club.allows(people.users["scorekeeper"], "referee")
    assert not club.allows(people.users["member"], "scorekeeper")
    assert not club.allows(people.users["stranger"], "member")


def test_a_person_can_belong_to_several_clubs_with_different_roles(people, club, other_club):
    player = people.players["member"]
    Membership.objects.create(club=other_club, player=player, role="organiser")
    assert set(player.clubs.all()) == {club, other_club}
    assert other_club.role_of(people.users["member"]) == "organiser"
    assert club.role_of(people.users["member"]) == "member"


def test_one_membership_per_club_and_player(people, club):
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(club=club, player=people.players["member"], role="organiser")


def test_a_season_cannot_end_before_it_starts(club):
    season = Season(club=club, name="x", starts_on=dt.date(2027, 1, 1), ends_on=dt.date(2026, 1, 1))
    with pytest.raises(ValidationError):
        season.full_clean()


def test_a_competition_refuses_a_season_of_another_club(club, other_club):
    season = Season.objects.create(
        club=other_club, name="s", starts_on=dt.date(2026, 1, 1), ends_on=dt.date(2026, 12, 1)
    )
    competition = Competition(club=club, season=season, name="c", slug="c", game="sanmarco")
    with pytest.raises(ValidationError):
        competition.full_clean()


def test_a_table_needs_the_games_number_of_players(people, club):
    tarocco = Competition.objects.create(club=club, name="T", slug="t", game="tarocco")
    with pytest.raises(Invalid, match="4"):
        services.create_table(
            user=people.users["scorekeeper"],
            competition=tarocco,
            label="T",
            players=people.extra[:3],
        )


def test_a_table_seats_only_members_of_the_club(people, manual_competition):
    outsider = Player.objects.create(name="Forestiero")
    with pytest.raises(Invalid, match="Forestiero"):
        services.create_table(
            user=people.users["scorekeeper"],
            competition=manual_competition,
            label="T",
            players=[people.extra[0], outsider],
        )


def test_a_player_sits_only_once_at_a_table(people, manual_competition):
    with pytest.raises(Invalid):
        services.create_table(
            user=people.users["scorekeeper"],
            competition=manual_competition,
            label="T",
            players=[people.extra[0], people.extra[0]],
        )


def test_a_member_cannot_open_a_table(people, manual_competition):
    with pytest.raises(NotAllowed):
        services.create_table(
            user=people.users["member"],
            competition=manual_competition,
            label="T",
            players=people.extra[:2],
        )
