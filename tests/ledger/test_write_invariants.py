"""The ledger's invariants, held at the write whatever the path (the page, the API, an
import, a digital table): a result is refused, at the field to blame and with nothing
written, unless its table belongs to its round's competition, its seats make a table of the
game, and the table has room for another game under the competition's settings."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.clubs.errors import Invalid
from ledger.clubs.models import Competition, Entry, Result, Round, Seat, Standing, Table
from ledger.clubs.results import services
from ledger.clubs.transfer import imports
from ledger.formats import services as formats
from tests.ledger.helpers import record

pytestmark = pytest.mark.django_db


def _hands(people: Any, competition: Competition, n: int) -> None:
    formats.update_settings(
        user=people.users["organiser"], competition=competition, hands_per_table=n
    )


def _written() -> tuple[int, int, int]:
    return Result.objects.count(), Entry.objects.count(), Standing.objects.count()


def test_a_table_set_to_one_game_refuses_a_second_with_nothing_written(
    people: Any, manual_table: Table
) -> None:
    _hands(people, manual_table.competition, 1)
    record(people, manual_table, [3, 1])
    before = _written()
    with pytest.raises(Invalid) as refused:
        record(people, manual_table, [1, 3])
    assert "table" in refused.value.fields
    assert "T1" in refused.value.message
    assert _written() == before
    assert Standing.objects.filter(played=2).count() == 0


def test_a_table_made_before_the_setting_takes_it_too(people: Any, manual_table: Table) -> None:
    record(people, manual_table, [3, 1])
    record(people, manual_table, [3, 1])
    _hands(people, manual_table.competition, 1)  # two already played: kept, no third
    manual_table.refresh_from_db()
    with pytest.raises(Invalid):
        record(people, manual_table, [1, 3])
    _hands(people, manual_table.competition, 3)
    manual_table.refresh_from_db()
    record(people, manual_table, [1, 3])
    with pytest.raises(Invalid):
        record(people, manual_table, [1, 3])


def test_an_ergio_table_of_one_game_refuses_a_second_through_the_api(
    people: Any, club: Any
) -> None:
    from games.core import registry

    engine = registry.get("ergio")
    summary = next(
        s
        for s in engine.summary_examples
        if engine.score(s, None).valid and len(engine.score(s, None).outcome.scores) == 2
    )
    competition = Competition.objects.create(club=club, name="Giò", slug="gio", game="ergio")
    _hands(people, competition, 1)
    table = services.create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:2],
    )
    client = people.client("scorekeeper")
    body = {"table": table.pk, "source": "summary", "record": summary}
    assert client.post("/api/v1/results/", body, format="json").status_code == 201
    again = client.post("/api/v1/results/", body, format="json")
    assert again.status_code == 400, again.content
    assert "table" in again.json()["error"]["fields"]
    assert Result.objects.filter(table=table).count() == 1
    assert set(
        Standing.objects.filter(competition=competition).values_list("played", flat=True)
    ) == {1}


def test_an_import_puts_no_more_hands_on_a_table_than_the_competition_sets(
    people: Any, manual_competition: Competition
) -> None:
    _hands(people, manual_competition, 4)
    names = "|".join(p.name for p in people.extra[:2])
    rows = "".join(f"coppa,Serata,{names},manual,,{n}|{-n},h{n}\n" for n in range(18))
    content = "competition,table,players,source,record,scores,key\n" + rows
    job = imports.create_job(
        user=people.users["scorekeeper"],
        club=people.club,
        filename="x.csv",
        raw=content.encode(),
        fmt="csv",
        language="en",
    )
    done = imports.run_job(job.pk)
    assert done.imported == 4
    assert len(done.errors) == 14
    assert all("Serata has played its 4 games" in e["message"] for e in done.errors)
    assert Result.objects.count() == 4
    assert Table.objects.get().games == 4


def test_voiding_a_result_frees_its_place_at_the_table(people: Any, manual_table: Table) -> None:
    _hands(people, manual_table.competition, 1)
    twice = record(people, manual_table, [3, 1])
    services.void_result(user=people.users["referee"], result=twice, reason="Wrong table")
    record(people, manual_table, [1, 3])
    manual_table.refresh_from_db()
    assert manual_table.games == 1


def test_a_correction_takes_the_place_of_the_result_it_corrects(
    people: Any, manual_table: Table
) -> None:
    _hands(people, manual_table.competition, 1)
    first = record(people, manual_table, [3, 1])
    services.supersede_result(
        user=people.users["referee"], result=first, source="manual", scores=[2, 2]
    )
    manual_table.refresh_from_db()
    assert manual_table.games == 1
    with pytest.raises(Invalid):
        record(people, manual_table, [1, 3])


def test_the_database_refuses_a_write_that_raced_for_the_last_place(
    people: Any, manual_table: Table
) -> None:
    _hands(people, manual_table.competition, 1)
    stale = services.table_for_write(manual_table.pk)  # read before the other write
    record(people, manual_table, [3, 1])
    assert stale is not None and stale.games == 0
    before = _written()
    with pytest.raises(Invalid) as refused:
        services.record_result(
            user=people.users["scorekeeper"], table=stale, source="manual", scores=[1, 3]
        )
    assert "table" in refused.value.fields
    assert _written() == before


def test_a_table_in_a_round_of_another_competition_takes_no_result(
    people: Any, manual_table: Table, club: Any
) -> None:
    other = Competition.objects.create(club=club, name="Altra", slug="altra", game="punti")
    wrong = Round.objects.create(competition=other, number=1)
    Table.objects.filter(pk=manual_table.pk).update(round=wrong)
    table = services.table_for_write(manual_table.pk)
    with pytest.raises(Invalid) as refused:
        services.record_result(
            user=people.users["scorekeeper"], table=table, source="manual", scores=[1, 3]
        )
    assert "table" in refused.value.fields
    assert Result.objects.count() == 0


def test_a_table_with_a_seat_missing_takes_no_result(people: Any, manual_table: Table) -> None:
    Seat.objects.filter(table=manual_table, index=0).delete()
    with pytest.raises(Invalid) as refused:
        record(people, manual_table, [1])
    assert "table" in refused.value.fields
    assert Result.objects.count() == 0


def test_the_stored_scores_are_the_engines_and_other_written_scores_are_refused(
    people: Any, club: Any
) -> None:
    from games.core import registry
    from ledger.clubs.errors import RuleViolation

    engine = registry.get("tarocco")
    summary = next(s for s in engine.summary_examples if engine.score(s, None).valid)
    competition = Competition.objects.create(club=club, name="T", slug="t", game="tarocco")
    table = services.create_table(
        user=people.users["organiser"],
        competition=competition,
        label="T1",
        players=people.extra[:4],
    )
    user = people.users["scorekeeper"]
    with pytest.raises(RuleViolation):
        services.record_result(
            user=user, table=table, source="summary", record=summary, scores=[1, 1, -1, -1]
        )
    assert _written()[0] == 0
    result, _created = services.record_result(
        user=user, table=table, source="summary", record=summary
    )
    assert [float(s) for s in result.scores] == [
        float(s) for s in result.verdict["outcome"]["scores"]
    ]


def test_the_page_says_a_full_table_takes_no_more_and_a_resent_form_shows_the_first(
    client: Any, people: Any, manual_table: Table
) -> None:
    _hands(people, manual_table.competition, 1)
    client.force_login(people.users["scorekeeper"])
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    url = f"/c/prova/coppa/t/{manual_table.pk}/score/"
    first = client.post(url, {"seat_0": "4", "seat_1": "-4", "form_token": "one"})
    assert first.status_code == 302
    recorded = Result.objects.get()
    again = client.post(url, {"seat_0": "4", "seat_1": "-4", "form_token": "one"})
    assert again.status_code == 302
    assert again["Location"] == f"/c/prova/coppa/r/{recorded.pk}/"
    other = client.post(url, {"seat_0": "1", "seat_1": "-1", "form_token": "two"})
    assert other.status_code == 200
    body = other.content.decode()
    assert "has played its 1 game" in body
    assert 'value="1"' in body  # what was typed is kept
    assert Result.objects.count() == 1
