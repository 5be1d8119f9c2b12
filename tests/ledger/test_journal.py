"""The journal is append-only, chained by hash, and the standings follow it."""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.utils import translation

from ledger.clubs.errors import Conflict, NotAllowed
from ledger.clubs.journal import journal
from ledger.clubs.models import Entry, Result, Standing
from ledger.clubs.projections import projections
from ledger.clubs.results import services
from tests.ledger.helpers import record


def test_the_model_refuses_to_change_an_entry(people, manual_table):
    record(people, manual_table, [3, 4])
    entry = Entry.objects.first()
    entry.points = Decimal(99)
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        entry.delete()
    with pytest.raises(PermissionError):
        Entry.objects.filter(pk=entry.pk).update(points=1)
    with pytest.raises(PermissionError):
        Entry.objects.all().delete()


@pytest.mark.parametrize(
    "statement",
    ["UPDATE clubs_entry SET points = 99", "DELETE FROM clubs_entry"],
)
def test_the_database_refuses_to_change_or_remove_an_entry(people, manual_table, statement):
    record(people, manual_table, [3, 4])
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)
    assert sorted(Entry.objects.values_list("points", flat=True)) == [3, 4]


def test_entries_chain_by_hash_and_verify_ledger_accepts_an_intact_journal(
    people, manual_table, capsys
):
    for scores in ([3, 4], [1, -1], [0, 7]):
        record(people, manual_table, scores)
    entries = list(Entry.objects.order_by("sequence"))
    assert [e.sequence for e in entries] == list(range(1, 7))
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(entries))
    call_command("verify_ledger")
    assert "6 entries" in capsys.readouterr().out


def test_verify_ledger_names_the_first_entry_altered_behind_the_service(
    people, manual_table, capsys
):
    record(people, manual_table, [3, 4])
    with transaction.atomic():
        with connection.cursor() as cursor:
            # Someone with database access drops the guard and rewrites a row.
            if connection.vendor == "postgresql":
                cursor.execute("SET LOCAL session_replication_role = replica")
            else:
                cursor.execute("DROP TRIGGER clubs_entry_no_update")
            cursor.execute("UPDATE clubs_entry SET points = 40 WHERE seat = 0")
        with translation.override("en"), pytest.raises(CommandError, match="problem"):
            call_command("verify_ledger")
        transaction.set_rollback(True)
    assert "prova#1: altered after it was written" in capsys.readouterr().err


def test_the_chain_runs_through_every_competition_of_the_club(people, manual_table):
    from ledger.clubs.models import Competition

    other = Competition.objects.create(
        club=manual_table.competition.club,
        name="Altra",
        slug="altra",
        game=manual_table.competition.game,
    )
    table = services.create_table(
        user=people.users["organiser"],
        competition=other,
        label="B",
        players=[s.player for s in manual_table.seats.all()],
    )
    record(people, manual_table, [3, 4])
    record(people, table, [5, 6])
    entries = list(Entry.objects.order_by("sequence"))
    assert [e.competition_id for e in entries] == [manual_table.competition_id] * 2 + [other.pk] * 2
    assert [e.sequence for e in entries] == [1, 2, 3, 4]
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(entries))
    manual_table.competition.club.refresh_from_db()
    assert manual_table.competition.club.journal_head == entries[-1].hash


def test_a_correction_reverses_the_old_entries_and_keeps_the_old_result(people, manual_table):
    old = record(people, manual_table, [10, -10])
    new = services.supersede_result(
        user=people.users["referee"], result=old, source="manual", scores=[4, -4]
    )
    old.refresh_from_db()
    assert old.status == Result.Status.SUPERSEDED
    assert new.supersedes == old
    kinds = list(Entry.objects.order_by("sequence").values_list("kind", "points"))
    assert kinds == [
        ("credit", Decimal(10)),
        ("credit", Decimal(-10)),
        ("reversal", Decimal(-10)),
        ("reversal", Decimal(10)),
        ("credit", Decimal(4)),
        ("credit", Decimal(-4)),
    ]
    standing = Standing.objects.get(player=people.extra[0])
    assert (standing.points, standing.played) == (4, 1)


def test_only_a_referee_or_organiser_corrects_a_result(people, manual_table):
    old = record(people, manual_table, [1, 2])
    with pytest.raises(NotAllowed):
        services.supersede_result(
            user=people.users["scorekeeper"], result=old, source="manual", scores=[2, 1]
        )


def test_a_superseded_result_cannot_be_corrected_again(people, manual_table):
    old = record(people, manual_table, [1, 2])
    services.supersede_result(
        user=people.users["referee"], result=old, source="manual", scores=[2, 1]
    )
    with pytest.raises(Conflict):
        services.supersede_result(
            user=people.users["referee"], result=old, source="manual", scores=[0, 0]
        )


def test_a_result_needing_confirmation_writes_entries_only_when_a_second_person_confirms(
    people, manual_table
):
    competition = manual_table.competition
    competition.confirmation = "second_person"
    competition.save()
    result = record(people, manual_table, [2, 5])
    assert result.status == Result.Status.PENDING
    assert Entry.objects.count() == 0
    with pytest.raises(NotAllowed):
        services.confirm_result(user=people.users["scorekeeper"], result=result)
    services.confirm_result(user=people.users["scorekeeper2"], result=result)
    result.refresh_from_db()
    assert result.status == Result.Status.ACCEPTED
    assert result.confirmed_by == people.users["scorekeeper2"]
    assert Entry.objects.count() == 2


def test_rebuilding_the_standings_from_the_journal_gives_the_same_rows(people, manual_table):
    old = record(people, manual_table, [10, -10])
    record(people, manual_table, [3, 1])
    services.supersede_result(
        user=people.users["referee"], result=old, source="manual", scores=[1, 1]
    )
    before = sorted(Standing.objects.values_list("player_id", "points", "played"))
    projections.rebuild_standings(manual_table.competition)
    assert sorted(Standing.objects.values_list("player_id", "points", "played")) == before


def test_every_line_is_hashed_as_entry_hash_says_whoever_chains_it(people, manual_table):
    # On PostgreSQL the database numbers and hashes the lines (ledger_append); on SQLite
    # this process does: either way verify_ledger's Python hash must agree, for
    # fractions, negatives, large numbers and reversals alike.
    first = record(people, manual_table, [Decimal("-12.5"), Decimal("0.25")])
    record(people, manual_table, [1234567, -3])
    services.supersede_result(
        user=people.users["referee"], result=first, source="manual", scores=[Decimal("7.1"), 0]
    )
    entries = list(Entry.objects.order_by("sequence"))
    assert [e.sequence for e in entries] == list(range(1, 9))
    assert all(e.hash == e.compute_hash() for e in entries)
    assert entries[0].prev_hash == ""
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(entries))
    assert journal.verify_chain(manual_table.competition.club) == []


def test_the_answer_to_a_write_carries_the_lines_as_stored(people, manual_table):
    result = record(people, manual_table, [5, -5])
    stored = {e.pk: (e.sequence, e.prev_hash, e.hash) for e in Entry.objects.all()}
    written = {
        line.pk: (line.sequence, line.prev_hash, line.hash) for line in result.written_entries
    }
    assert written == stored
