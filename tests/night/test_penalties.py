from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest

from ledger.clubs.errors import Conflict, Invalid, NotAllowed
from ledger.clubs.journal.journal import verify_chain
from ledger.clubs.models import Entry, Standing
from ledger.clubs.projections.standings import journal_totals, standings
from ledger.clubs.results import penalties, selectors
from ledger.clubs.results.services import create_table, record_result
from tests.night.conftest import night_competition

pytestmark = pytest.mark.django_db


def _table(people: Any, competition: Any) -> Any:
    return create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:4],
    )


def test_a_penalty_is_a_journal_line_of_its_own_and_moves_the_standings(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    table = _table(people, competition)
    record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[3, 1, -1, -3]
    )
    first = people.extra[0]
    penalty = penalties.give_penalty(
        user=people.users["referee"],
        competition=competition,
        player=first,
        points="2,5",
        reason="Late at the table",
        table=table,
    )
    assert penalty.points == Decimal("-2.5")
    line = Entry.objects.get(penalty=penalty)
    assert (line.kind, line.points, line.result_id) == ("penalty", Decimal("-2.5"), None)
    row = Standing.objects.get(competition=competition, player=first)
    assert (row.points, row.played, row.wins) == (Decimal("0.5"), 1, 1)
    assert journal_totals(competition)[first.pk].points == Decimal("0.5")
    assert verify_chain(club) == []
    ranked = {r.player_id: r.rank for r in standings(competition)}
    assert ranked[first.pk] == 2  # 0.5 now behind the second player's 1


def test_a_cancelled_penalty_gives_the_points_back_with_a_reversing_line(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    _table(people, competition)  # only the competition's players are penalised
    first = people.extra[0]
    penalty = penalties.give_penalty(
        user=people.users["organiser"],
        competition=competition,
        player=first,
        points=1,
        reason="Phone rang",
    )
    assert Standing.objects.get(competition=competition, player=first).points == Decimal(-1)
    penalties.cancel_penalty(user=people.users["organiser"], penalty=penalty, reason="Mistake")
    kinds = list(Entry.objects.filter(penalty=penalty).order_by("sequence").values_list("kind"))
    assert kinds == [("penalty",), ("cancel",)]
    assert Standing.objects.get(competition=competition, player=first).points == Decimal(0)
    assert Standing.objects.get(competition=competition, player=first).played == 0
    with pytest.raises(Conflict):
        penalties.cancel_penalty(user=people.users["organiser"], penalty=penalty)
    assert verify_chain(club) == []


def test_only_a_referee_or_organiser_gives_a_penalty_with_a_reason_and_positive_points(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    player = people.extra[0]
    with pytest.raises(NotAllowed):
        penalties.give_penalty(
            user=people.users["scorekeeper"],
            competition=competition,
            player=player,
            points=1,
            reason="x",
        )
    with pytest.raises(Invalid) as no_reason:
        penalties.give_penalty(
            user=people.users["referee"],
            competition=competition,
            player=player,
            points=1,
            reason="",
        )
    assert "reason" in no_reason.value.fields
    for bad in ["0", "-1", "abc", "1.234"]:
        with pytest.raises(Invalid) as wrong:
            penalties.give_penalty(
                user=people.users["referee"],
                competition=competition,
                player=player,
                points=bad,
                reason="x",
            )
        assert "points" in wrong.value.fields
    assert not Entry.objects.filter(competition=competition).exists()


def test_the_zero_sum_check_shows_tables_off_by_their_penalties_only(
    club: Any, people: Any, points_game: str
) -> None:
    competition = night_competition(club)
    table = _table(people, competition)
    record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[3, 1, -1, -3]
    )
    penalties.give_penalty(
        user=people.users["referee"],
        competition=competition,
        player=people.extra[1],
        points=2,
        reason="Slow play",
        table=table,
    )
    (row,) = selectors.zero_sum_check(competition)
    assert (row["hands"], row["penalties"], row["total"], row["balanced"]) == (
        Decimal(0),
        Decimal(-2),
        Decimal(-2),
        True,
    )


def test_the_standings_as_of_a_round_count_the_penalties_given_in_it(
    club: Any, people: Any, points_game: str
) -> None:
    from ledger.clubs.models import Round
    from ledger.clubs.projections.standings import counted_after

    competition = night_competition(club)
    one = Round.objects.create(competition=competition, number=1)
    two = Round.objects.create(competition=competition, number=2)
    for rnd in (one, two):
        table = create_table(
            user=people.users["organiser"],
            competition=competition,
            label=f"R{rnd.number}",
            players=people.extra[:4],
            round=rnd,
        )
        record_result(
            user=people.users["scorekeeper"], table=table, source="manual", scores=[3, 1, -1, -3]
        )
    player = people.extra[3]
    penalties.give_penalty(
        user=people.users["referee"],
        competition=competition,
        player=player,
        points=1,
        reason="r1",
        round=one,
    )
    penalties.give_penalty(
        user=people.users["referee"],
        competition=competition,
        player=player,
        points=4,
        reason="r2",
        round=two,
    )
    for by in ("journal", "difference"):
        after_one, _head = counted_after(competition, 1, by=by)
        assert after_one[player.pk].points == Decimal(-4)
        assert after_one[player.pk].played == 1


def test_penalty_lines_are_sealed_and_exported_after_the_penalties_they_name(
    club: Any, people: Any, points_game: str
) -> None:
    import io

    import orjson

    from ledger.clubs.journal import checkpoints
    from ledger.clubs.transfer import transfer

    competition = night_competition(club)
    table = _table(people, competition)
    record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[3, 1, -1, -3]
    )
    given = penalties.give_penalty(
        user=people.users["referee"],
        competition=competition,
        player=people.extra[2],
        points=1,
        reason="Ritardo",
        table=table,
    )
    penalties.cancel_penalty(user=people.users["referee"], penalty=given, reason="Errore")
    lines = list(Entry.objects.filter(club=club).order_by("sequence"))
    assert all(line.seal for line in lines)
    assert checkpoints.line_problems(club, lines) == []
    out = io.BytesIO()
    transfer.write_export(club, out)
    rows = [orjson.loads(line) for line in out.getvalue().splitlines()]
    order = [r["t"] for r in rows]
    assert order.index("penalty") < order.index("entry")
    (penalty_row,) = [r for r in rows if r["t"] == "penalty"]
    assert penalty_row["reason"] == "Ritardo"
    fined = [r for r in rows if r["t"] == "entry" and r["penalty_id"] is not None]
    assert [(r["kind"], r["points"], r["result_id"]) for r in fined] == [
        ("penalty", "-1.00", None),
        ("cancel", "1.00", None),
    ]
    assert {r["penalty_id"] for r in fined} == {penalty_row["id"]}


def test_a_club_may_count_penalties_given_at_a_table_in_the_ratings(
    club: Any, people: Any, points_game: str
) -> None:
    from ledger.clubs import ratings
    from ledger.clubs.models import Rating

    competition = night_competition(club)
    table = _table(people, competition)
    record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[1, 0, 0, -1]
    )
    first, second = people.extra[0], people.extra[1]

    def mu(player: Any) -> float:
        ratings.recompute(club.pk, points_game)
        return Rating.objects.get(club=club, game=points_game, player=player).mu

    before = mu(first)
    penalties.give_penalty(
        user=people.users["referee"],
        competition=competition,
        player=first,
        points=2,
        reason="Carte mostrate",
        table=table,
    )
    assert mu(first) == before  # the club has not chosen: the ratings ignore penalties
    club.penalties_in_ratings = True
    club.save(update_fields=["penalties_in_ratings"])
    # Ranked with the penalty taken off, the hand's winner (1 - 2 = -1) falls behind
    # the two players on 0.
    assert mu(first) < before
    assert mu(second) > Rating.objects.get(club=club, game=points_game, player=people.extra[3]).mu


def test_the_sum_to_zero_column_shows_only_for_a_game_whose_hands_sum_to_zero(
    club: Any, people: Any
) -> None:
    from django.test import Client

    from ledger.clubs.models import Competition

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people.users["organiser"])
    for game, shown in (("tarocco", True), ("sanmarco", False)):
        competition = Competition.objects.create(
            club=club, name=game, slug=game, game=game, format="league"
        )
        page = client.get(f"/c/{club.slug}/{competition.slug}/night/penalties/")
        body = page.content.decode()
        assert page.status_code == 200
        assert ("Does every table still sum to zero?" in body) is shown
        assert ("do not sum to zero" in body) is not shown


def test_the_journal_csv_lists_a_penalty_given_away_from_any_table(
    club: Any, people: Any, points_game: str, client: Any
) -> None:
    competition = night_competition(club)
    table = _table(people, competition)
    record_result(
        user=people.users["scorekeeper"], table=table, source="manual", scores=[3, 1, -1, -3]
    )
    penalties.give_penalty(
        user=people.users["referee"],
        competition=competition,
        player=people.extra[0],
        points="1",
        reason="A phone rang during play",
    )
    response = client.get(f"/c/{club.slug}/{competition.slug}/journal.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["table"] for r in rows if r["kind"] == "credit"] == ["T1"] * 4
    (line,) = [r for r in rows if r["kind"] == "penalty"]
    assert line["table"] == "" and line["player_id"] == str(people.extra[0].pk)
