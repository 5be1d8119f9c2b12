"""Red team: a journal line replayed, moved or cut out by someone who holds the database
and not the signing key (docs/security.md, "Tamper evidence").

The database administrator's replay (issue 31, finding 1): drop the constraint that keeps
one line per result, seat and kind, and call ``ledger_append()`` with an exact copy of a
result's credit lines, seals included; then rebuild the standings the project's own way, so
that they agree with the journal. The chain holds (the database chained the copies itself),
the seals are real, and every published checkpoint is still extended: only the lines'
identities, which their seals bind, show the copy.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import timezone, translation

from ledger.clubs.journal import audit, checkpoints, journal
from ledger.clubs.models import Club, Entry, Result, Standing
from ledger.clubs.projections.projections import rebuild_standings
from ledger.clubs.storage import signing
from tests.hardening.test_checkpoints import a_journal, guard_off, rehash, saved_feed
from tests.ledger.helpers import record


def complaints(capsys: Any, *args: str) -> str:
    with translation.override("en"), pytest.raises(CommandError):
        call_command("verify_ledger", *args)
    return capsys.readouterr().err


def _as_appended(entry: Entry) -> dict[str, Any]:
    """A journal line as ``ledger_append()`` takes it, copied from the database's row."""
    return {
        "competition_id": entry.competition_id,
        "result_id": entry.result_id,
        "table_id": entry.table_id,
        "player_id": entry.player_id,
        "seat": entry.seat,
        "points": str(entry.points),
        "shown": f"{entry.points:.2f}",
        "kind": entry.kind,
        "source": entry.source,
        "entered_by_id": entry.entered_by_id,
        "seal": entry.seal,
        # The line's identity, where the scheme has one: copied too.
        "origin": getattr(entry, "origin", ""),
    }


@pytest.mark.postgres_only
@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_a_result_replayed_through_ledger_append_is_reported_as_a_copy(
    people, manual_table, tmp_path, capsys
):
    club = a_journal(people, manual_table)
    checkpoints.sign(club.pk)
    feed = saved_feed(tmp_path, club)
    result = Result.objects.filter(club=club).order_by("pk").first()
    copied = list(Entry.objects.filter(result=result, kind="credit").order_by("sequence"))
    before = club.journal_length
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE clubs_entry DROP CONSTRAINT one_entry_per_seat_and_kind")
        cursor.execute(
            "SELECT * FROM ledger_append(%s, %s, %s::json)",
            [club.pk, timezone.now(), json.dumps([_as_appended(e) for e in copied])],
        )
    for competition in club.competitions.all():
        rebuild_standings(competition)
    assert journal.verify_chain(club) == []  # the database chained the copies itself
    assert audit.standing_problems(club) == []  # the rebuild agrees with the journal
    played = Standing.objects.get(competition=result.competition, player=copied[0].player)
    assert played.played == 4  # the hand counts twice once rebuilt

    for args in ((), ("--checkpoints", feed)):
        err = complaints(capsys, *args)
        first = copied[0].sequence
        assert f"{club.slug}#{before + 1}: this line repeats line #{first}" in err
        assert f"result #{result.pk} does not match the journal" in err
    # Nor does the service sign a checkpoint over the copy.
    assert checkpoints.sign(club.pk) is None


@pytest.mark.postgres_only
@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_a_line_copied_by_hand_to_the_end_of_the_journal_is_reported(people, manual_table, capsys):
    # The same replay without the database's function: a copy of a real line, its seal and
    # identity, chained at the end by hand.
    club = a_journal(people, manual_table)
    original = Entry.objects.get(club=club, sequence=2)
    with guard_off() as cursor:
        cursor.execute("ALTER TABLE clubs_entry DROP CONSTRAINT one_entry_per_seat_and_kind")
        columns = [
            f.column for f in Entry._meta.concrete_fields if f.column not in ("id", "sequence")
        ]
        names = ", ".join(columns)
        cursor.execute(
            f"INSERT INTO clubs_entry ({names}, sequence) SELECT {names}, %s "
            "FROM clubs_entry WHERE id = %s",
            [club.journal_length + 1, original.pk],
        )
        rehash(cursor, Club.objects.get(pk=club.pk))
    club.refresh_from_db()
    assert journal.verify_chain(club) == []
    err = complaints(capsys)
    assert f"{club.slug}#{club.journal_length}: this line repeats line #2" in err
    assert f"result #{original.result_id} does not match the journal" in err


def test_lines_moved_to_other_places_fail_their_seals(people, manual_table, capsys):
    # Two writes' lines swapped and the chain hashed again: the chain verifies, but each
    # line's seal binds the place it was written at, and the writes are cut in two.
    club = a_journal(people, manual_table)
    second, third = (Entry.objects.get(club=club, sequence=n) for n in (2, 3))
    with guard_off() as cursor:
        cursor.execute("UPDATE clubs_entry SET sequence = 1000000 WHERE id = %s", [second.pk])
        cursor.execute("UPDATE clubs_entry SET sequence = 2 WHERE id = %s", [third.pk])
        cursor.execute("UPDATE clubs_entry SET sequence = 3 WHERE id = %s", [second.pk])
        rehash(cursor, Club.objects.get(pk=club.pk))
    assert journal.verify_chain(Club.objects.get(pk=club.pk)) == []
    err = complaints(capsys)
    for n in (2, 3):
        assert f"{club.slug}#{n}: this line's seal is not the service's for this place" in err
    assert f"{club.slug}#1: the write that starts at this line had 2 lines; 1 of them" in err


def test_a_line_cut_out_of_a_write_is_reported(people, manual_table, capsys):
    club = a_journal(people, manual_table)
    with guard_off() as cursor:
        cursor.execute("DELETE FROM clubs_entry WHERE club_id = %s AND sequence = 4", [club.pk])
        rehash(cursor, Club.objects.get(pk=club.pk))
    assert journal.verify_chain(Club.objects.get(pk=club.pk)) == []
    err = complaints(capsys)
    said = f"{club.slug}#3: the write that starts at this line had 2 lines; 1 of them are here"
    assert said in err


@pytest.mark.postgres_only
@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_a_result_credited_twice_is_reported_even_when_each_copy_matches(people, manual_table):
    # The result check counts lines as a multiset: two equal credits of one seat are not one.
    club = a_journal(people, manual_table, results=1)
    result = Result.objects.get(club=club)
    assert audit.result_problems(club) == []
    with guard_off() as cursor:
        cursor.execute("ALTER TABLE clubs_entry DROP CONSTRAINT one_entry_per_seat_and_kind")
        columns = [
            f.column for f in Entry._meta.concrete_fields if f.column not in ("id", "sequence")
        ]
        names = ", ".join(columns)
        cursor.execute(
            f"INSERT INTO clubs_entry ({names}, sequence) SELECT {names}, 3 "
            "FROM clubs_entry WHERE club_id = %s AND sequence = 1",
            [club.pk],
        )
    with translation.override("en"):
        problems = audit.result_problems(club)
    assert any(f"result #{result.pk} does not match the journal" in p for p in problems)
    assert any("seat 1 is credited 2 times" in p for p in problems)


def _first_version_line(club: Club, like: Entry, sequence: int, head: str) -> Entry:
    """A line as the service wrote it before lines had identities: the first seal."""
    line = Entry(
        club_id=club.pk,
        competition_id=like.competition_id,
        result_id=like.result_id,
        table_id=like.table_id,
        player_id=like.player_id,
        seat=like.seat,
        points=like.points,
        kind=like.kind,
        source=like.source,
        entered_by_id=like.entered_by_id,
        sequence=sequence,
        prev_hash=head,
    )
    line.hash = line.compute_hash()
    line.seal = signing.seal(
        club_id=club.pk,
        competition_id=like.competition_id,
        result_id=like.result_id,
        table_id=like.table_id,
        seat=like.seat,
        player_id=like.player_id,
        points=like.points,
        kind=like.kind,
    )
    return line


def test_lines_written_before_identities_keep_verifying_and_cannot_be_replayed_after(
    people, manual_table, capsys
):
    # A journal that began before this change: its lines carry first-version seals and no
    # identity. They verify as they are; the lines written since carry identities.
    club = Club.objects.get(pk=manual_table.competition.club_id)
    record(people, manual_table, [2, -2])
    model = list(Entry.objects.filter(club=club).order_by("sequence"))
    with guard_off() as cursor:
        cursor.execute("DELETE FROM clubs_entry WHERE club_id = %s", [club.pk])
        head = ""
        for n, like in enumerate(model, start=1):
            old = _first_version_line(club, like, n, head)
            old.save()
            head = old.hash
        cursor.execute(
            "UPDATE clubs_club SET journal_length = %s, journal_head = %s WHERE id = %s",
            [len(model), head, club.pk],
        )
    assert not Entry.objects.filter(club=club).exclude(origin="").exists()
    record(people, manual_table, [3, -3])
    club.refresh_from_db()
    assert Entry.objects.filter(club=club).exclude(origin="").count() == 2
    with translation.override("en"):
        call_command("verify_ledger")
    assert "Journal intact: 4 entries checked" in capsys.readouterr().out
    assert checkpoints.sign(club.pk) is not None

    # A line in the old form after the new ones is caught, its old seal holding or not.
    with guard_off() as cursor:
        copy = _first_version_line(club, model[0], club.journal_length + 1, club.journal_head)
        # A first-version line (a correction written before this change would be one),
        # appended after the new lines with its first-version seal.
        copy.kind = "reversal"
        copy.seal = signing.seal(
            club_id=club.pk,
            competition_id=copy.competition_id,
            result_id=copy.result_id,
            table_id=copy.table_id,
            seat=copy.seat,
            player_id=copy.player_id,
            points=copy.points,
            kind=copy.kind,
        )
        copy.hash = copy.compute_hash()
        copy.save()
        cursor.execute(
            "UPDATE clubs_club SET journal_length = %s, journal_head = %s WHERE id = %s",
            [copy.sequence, copy.hash, club.pk],
        )
    err = complaints(capsys)
    said = "#5: this line's seal does not bind its place, after lines whose seals do"
    assert f"{club.slug}{said}" in err
