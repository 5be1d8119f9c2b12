"""The structural rules of a night, held at the write: a penalty, a replacement or a re-seat
concerns the competition's own people, keeps every player at one table a round and keeps
the table's seats; refused with the reason at the field and nothing written."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from ledger.clubs.errors import Conflict, Invalid
from ledger.clubs.journal.journal import verify_chain
from ledger.clubs.models import (
    Competition,
    Entry,
    Membership,
    Penalty,
    Player,
    Result,
    Seat,
    Standing,
    Table,
)
from ledger.clubs.projections.standings import standings
from ledger.clubs.results import penalties
from ledger.clubs.results.services import confirm_result, record_result
from ledger.formats import services as formats
from ledger.night import services
from ledger.night.models import Replacement
from tests.night.conftest import enter, night_competition

pytestmark = pytest.mark.django_db


def _login(people: Any, who: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users[who])
    return client


def _round_of_two_tables(people: Any, competition: Any) -> list[Table]:
    enter(people, competition, 8)
    draw = formats.generate_round(user=people.users["organiser"], competition=competition)
    formats.publish_draw(user=people.users["organiser"], draw=draw)
    return list(Table.objects.filter(round=draw.round).order_by("id"))


def _outsider(club: Any) -> Player:
    """A member of the club who is not in the competition."""
    player = Player.objects.create(name="Zeno Estraneo")
    Membership.objects.create(club=club, player=player)
    return player


def _credited_at(table: Any) -> dict[int, Decimal]:
    """Each player's points at the table, from the journal: credits less reversals."""
    out: dict[int, Decimal] = {}
    for player, points in Entry.objects.filter(table=table, penalty=None).values_list(
        "player_id", "points"
    ):
        out[player] = out.get(player, Decimal(0)) + points
    return out


def _written(competition: Any) -> tuple[int, int, int]:
    return (
        Entry.objects.filter(competition=competition).count(),
        Penalty.objects.filter(competition=competition).count(),
        Standing.objects.filter(competition=competition).count(),
    )


def test_a_penalty_to_a_member_outside_the_competition_is_refused_and_writes_nothing(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    (table, _other) = _round_of_two_tables(people, competition)
    record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[3, 1, -1, -3]
    )
    outsider = _outsider(club)
    before = _written(competition)
    with pytest.raises(Invalid) as refused:
        penalties.give_penalty(
            user=people.users["referee"],
            competition=competition,
            player=outsider,
            points=2,
            reason="Rude",
        )
    assert "player" in refused.value.fields
    assert _written(competition) == before
    assert outsider.pk not in {r.player_id for r in standings(competition)}


def test_a_penalty_at_a_table_the_player_never_sat_at_is_refused(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    first, second = _round_of_two_tables(people, competition)
    elsewhere = second.seats.get(index=0).player
    before = _written(competition)
    with pytest.raises(Invalid) as refused:
        penalties.give_penalty(
            user=people.users["referee"],
            competition=competition,
            player=elsewhere,
            points=1,
            reason="Slow",
            table=first,
        )
    assert "table" in refused.value.fields
    assert _written(competition) == before
    given = penalties.give_penalty(
        user=people.users["referee"],
        competition=competition,
        player=elsewhere,
        points=1,
        reason="Slow",
        table=second,
    )
    assert given.points == Decimal(-1)


def test_the_penalty_form_offers_only_the_competitions_people_and_keeps_what_was_typed(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    _round_of_two_tables(people, competition)
    outsider = _outsider(club)
    referee = _login(people, "referee")
    url = reverse("night-penalties", args=[club.slug, competition.slug])
    page = referee.get(url).content.decode()
    assert f'<option value="{outsider.pk}"' not in page
    assert f'<option value="{people.extra[0].pk}"' in page
    before = _written(competition)
    answer = referee.post(url, {"player": outsider.pk, "points": "3", "reason": "Rude"})
    assert answer.status_code == 400
    text = answer.content.decode()
    assert "Not in this competition." in text and 'value="Rude"' in text
    assert _written(competition) == before


def test_the_standings_never_list_someone_outside_the_competition(
    club: Any, people: Any, points_game: str
) -> None:
    """A penalty given before the rule (written here as it was then) leaves a row of the
    projection; no standings a person reads show it, now or as of a round."""
    competition = night_competition(club)
    first, _second = _round_of_two_tables(people, competition)
    record_result(
        user=people.users["scorekeeper"], table=first, source="manual", scores=[3, 1, -1, -3]
    )
    outsider = _outsider(club)
    old = Penalty.objects.create(
        club=club,
        competition=competition,
        player=outsider,
        round=first.round,
        points=Decimal(5),  # as a wrong sign of a bonus would have put him first
        reason="old",
        given_by=people.users["referee"],
    )
    penalties._journal(old, Entry.Kind.PENALTY, old.points, people.users["referee"])
    assert Standing.objects.filter(competition=competition, player=outsider).exists()
    assert verify_chain(club) == []
    assert outsider.pk not in {r.player_id for r in standings(competition)}
    assert outsider.pk not in {r.player_id for r in standings(competition, as_of_round=1)}
    web = _login(people, "member")
    page = web.get(reverse("competition", args=[club.slug, competition.slug])).content.decode()
    assert "Zeno Estraneo" not in page
    api = people.client("member").get(f"/api/v1/competitions/{competition.pk}/standings/")
    assert api.status_code == 200 and "Zeno Estraneo" not in api.content.decode()
    # Someone entered who has played nothing yet still shows once penalised.
    entered = people.extra[0]
    penalties.give_penalty(
        user=people.users["referee"], competition=competition, player=entered, points=1, reason="x"
    )
    assert entered.pk in {r.player_id for r in standings(competition)}


def test_a_substitute_already_at_another_table_of_the_round_is_refused(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    first, second = _round_of_two_tables(people, competition)
    record_result(
        user=people.users["scorekeeper"], table=first, source="manual", scores=[3, 1, -1, -3]
    )
    busy = second.seats.get(index=2).player
    seats_before = list(Seat.objects.order_by("pk").values_list("table_id", "index", "player_id"))
    before = _written(competition)
    with pytest.raises(Invalid) as refused:
        services.replace_player(
            user=people.users["organiser"], table=first, seat=0, substitute=busy, from_hand=1
        )
    assert "substitute" in refused.value.fields
    assert (
        list(Seat.objects.order_by("pk").values_list("table_id", "index", "player_id"))
        == seats_before
    )
    assert _written(competition) == before
    assert not Replacement.objects.exists()


def test_the_replacement_form_offers_nobody_from_another_table_and_says_why_at_the_field(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    first, second = _round_of_two_tables(people, competition)
    busy = second.seats.get(index=1).player
    free = _outsider(club)
    organiser = _login(people, "organiser")
    url = reverse("night-table", args=[club.slug, competition.slug, first.pk])
    page = organiser.get(url).content.decode()
    assert f'<option value="{busy.pk}"' not in page
    assert f'<option value="{free.pk}"' in page
    answer = organiser.post(
        url, {"action": "replace", "seat": "2", "substitute": busy.pk, "from_hand": "1"}
    )
    assert answer.status_code == 400
    text = answer.content.decode()
    assert f"At table {second.label} this round." in text
    assert '<option value="2" selected>' in text
    assert first.seats.get(index=2).player_id != busy.pk
    # A member who plays nowhere this round takes the seat.
    organiser.post(url, {"action": "replace", "seat": "2", "substitute": free.pk})
    assert first.seats.get(index=2).player_id == free.pk


def test_a_re_seat_keeps_the_tables_players_and_its_seat_count(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    first, second = _round_of_two_tables(people, competition)
    record_result(
        user=people.users["scorekeeper"], table=first, source="manual", scores=[3, 1, -1, -3]
    )
    a, b, c, d = first.seats.order_by("index").values_list("player_id", flat=True)
    stranger = second.seats.get(index=0).player_id
    before = _written(competition)
    for order in ([b, a, c], [b, a, c, d, stranger], [b, b, c, d], [stranger, a, c, d]):
        with pytest.raises(Invalid):
            services.reseat(user=people.users["organiser"], table=first, order=order)
    assert list(first.seats.order_by("index").values_list("player_id", flat=True)) == [a, b, c, d]
    assert _written(competition) == before


def test_a_re_seat_preview_is_what_the_re_seat_then_credits_a_substitute_included(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    first, _second = _round_of_two_tables(people, competition)
    rules = services.settings_for(competition)
    rules.substitute_points = "nobody"  # the substitute's hands credit 0 points
    rules.save()
    services.replace_player(
        user=people.users["organiser"], table=first, seat=0, substitute=_outsider(club)
    )
    for scores in ([4, 0, 0, -4], [1, 2, -1, -2]):
        record_result(user=people.users["scorekeeper"], table=first, source="manual", scores=scores)
    a, b, c, d = first.seats.order_by("index").values_list("player_id", flat=True)
    organiser = people.users["organiser"]
    lines = Entry.objects.count()
    shown = services.reseat_preview(first, [b, a, c, d], user=organiser)
    assert Entry.objects.count() == lines and first.seats.get(index=0).player_id == a
    said = {row["name"]: (row["before"], row["after"]) for row in shown["players"]}
    totals = _credited_at(first)
    names = dict(Player.objects.filter(pk__in=[a, b, c, d]).values_list("pk", "name"))
    assert {names[p]: said[names[p]][0] for p in (a, b, c, d)} == {
        names[p]: totals.get(p, Decimal(0)) for p in (a, b, c, d)
    }
    services.reseat(user=organiser, table=first, order=[b, a, c, d])
    after = _credited_at(first)
    assert {names[p]: said[names[p]][1] for p in (a, b, c, d)} == {
        names[p]: after.get(p, Decimal(0)) for p in (a, b, c, d)
    }
    assert after.get(a, Decimal(0)) == 0  # the substitute still credits nobody's points


def test_no_replacement_while_a_hand_of_the_table_waits_to_count(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    first, _second = _round_of_two_tables(people, competition)
    Competition.objects.filter(pk=competition.pk).update(confirmation="second_person")
    first.competition.refresh_from_db()
    waiting, _ = record_result(
        user=people.users["scorekeeper"], table=first, source="manual", scores=[4, 0, 0, -4]
    )
    played_it = first.seats.get(index=0).player_id
    substitute = _outsider(club)
    before = _written(competition)
    with pytest.raises(Conflict):
        services.replace_player(
            user=people.users["organiser"], table=first, seat=0, substitute=substitute
        )
    assert _written(competition) == before and first.seats.get(index=0).player_id == played_it
    confirm_result(user=people.users["scorekeeper2"], result=waiting)
    services.replace_player(
        user=people.users["organiser"], table=first, seat=0, substitute=substitute
    )
    assert Standing.objects.get(competition=competition, player_id=played_it).points == 4
    assert not Standing.objects.filter(competition=competition, player=substitute).exists()
    assert Result.objects.get(pk=waiting.pk).status == Result.Status.ACCEPTED
