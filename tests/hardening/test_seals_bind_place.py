"""Red team: a journal line's seal binds its place (issue 37, "each line's seal binds its
position: the club, its sequence number and the previous line's hash").

A database administrator holds the database, not the signing key. They copy a real line,
seal and identity included, to another place: through ``ledger_append()`` on PostgreSQL
(the database numbers and chains the copy itself), by a plain INSERT chained by hand on
SQLite. Removing the original too, so that no identity repeats, does not help: the seal was
made for the original's club, number and previous hash, and holds nowhere else.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.utils import timezone, translation

from ledger.clubs.journal import checkpoints, journal
from ledger.clubs.models import Club, Entry, entry_hash
from ledger.clubs.storage import signing
from tests.hardening.test_checkpoints import a_journal, guard_off, rehash
from tests.ledger.helpers import record


def complaints(capsys: Any, *args: str) -> str:
    with translation.override("en"), pytest.raises(CommandError):
        call_command("verify_ledger", *args)
    return capsys.readouterr().err


def _append_by_hand(club: Club, lines: list[Entry]) -> None:
    """Append copies of ``lines`` (seals and identities as they are) to ``club``'s journal
    the way a database administrator can: ``ledger_append()`` on PostgreSQL, which numbers
    and chains them; elsewhere an INSERT chained by hand, the club's head moved to match."""
    if connection.vendor == "postgresql":
        document = [
            {
                "competition_id": e.competition_id,
                "result_id": e.result_id,
                "table_id": e.table_id,
                "player_id": e.player_id,
                "seat": e.seat,
                "points": str(e.points),
                "shown": f"{e.points:.2f}",
                "kind": e.kind,
                "source": e.source,
                "entered_by_id": e.entered_by_id,
                "seal": e.seal,
                "origin": e.origin,
                "seal_version": e.seal_version,
            }
            for e in lines
        ]
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT * FROM ledger_append(%s, %s, %s::json)",
                [club.pk, timezone.now(), json.dumps(document)],
            )
        return
    club.refresh_from_db()
    n, head = club.journal_length, club.journal_head
    for e in lines:
        n += 1
        copy = Entry(
            club_id=club.pk,
            competition_id=e.competition_id,
            result_id=e.result_id,
            table_id=e.table_id,
            player_id=e.player_id,
            seat=e.seat,
            points=e.points,
            kind=e.kind,
            source=e.source,
            entered_by_id=e.entered_by_id,
            sequence=n,
            prev_hash=head,
            seal=e.seal,
            origin=e.origin,
            seal_version=e.seal_version,
        )
        copy.hash = head = copy.compute_hash()
        copy.save()
    Club.objects.filter(pk=club.pk).update(journal_length=n, journal_head=head)


def _without_uniqueness() -> None:
    """What the administrator does first on PostgreSQL: drop the one-line-per-seat
    constraint (SQLite keeps it in the table's definition: there the original goes)."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE clubs_entry DROP CONSTRAINT one_entry_per_seat_and_kind")


def test_new_lines_are_sealed_at_their_place(people, manual_table):
    club = a_journal(people, manual_table, results=2)
    lines = list(Entry.objects.filter(club=club).order_by("sequence"))
    assert all(e.seal_version == signing.SEAL_VERSION for e in lines)
    assert all(signing.line_seal_holds(e) for e in lines)
    # The same line, one place further on, has another seal.
    moved = lines[1]
    moved.sequence, moved.prev_hash = 3, lines[2].prev_hash
    assert not signing.line_seal_holds(moved)


def test_a_line_replayed_with_a_fresh_number_is_caught_by_its_seal(people, manual_table, capsys):
    club = a_journal(people, manual_table)
    original = Entry.objects.get(club=club, sequence=3)
    before = club.journal_length
    with transaction.atomic():
        if connection.vendor == "postgresql":
            _without_uniqueness()
        else:
            # SQLite keeps the one-line-per-seat rule in the table itself: the copy takes the
            # original's place in it, the original being removed (the identity then repeats
            # nowhere, and only the seal can tell).
            with guard_off() as cursor:
                cursor.execute("DELETE FROM clubs_entry WHERE id = %s", [original.pk])
                rehash(cursor, Club.objects.get(pk=club.pk))
        _append_by_hand(Club.objects.get(pk=club.pk), [original])
    club.refresh_from_db()
    assert journal.verify_chain(club) == []  # the chain holds: it was made again for the copy
    at = before + 1 if connection.vendor == "postgresql" else before
    err = complaints(capsys)
    assert f"{club.slug}#{at}: this line's seal is not the service's for this place" in err
    # Nor does the service sign a checkpoint over it.
    assert checkpoints.sign(club.pk) is None


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_a_line_moved_to_the_end_with_its_original_removed_fails_its_seal(
    people, manual_table, capsys
):
    # No identity repeats: the original is gone and the copy stands at the journal's end.
    club = a_journal(people, manual_table)
    original = Entry.objects.get(club=club, sequence=2)
    with transaction.atomic():
        with guard_off() as cursor:
            cursor.execute("DELETE FROM clubs_entry WHERE id = %s", [original.pk])
            rehash(cursor, Club.objects.get(pk=club.pk))
        _append_by_hand(Club.objects.get(pk=club.pk), [original])
    club.refresh_from_db()
    assert journal.verify_chain(club) == []
    assert Entry.objects.filter(club=club, origin=original.origin).count() == 1
    err = complaints(capsys)
    last = club.journal_length
    assert f"{club.slug}#{last}: this line's seal is not the service's for this place" in err
    assert "repeats line" not in err


def test_a_line_copied_into_another_club_fails_its_seal_there(
    people, manual_table, other_club, capsys
):
    club = a_journal(people, manual_table, results=1)
    original = Entry.objects.get(club=club, sequence=1)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            _without_uniqueness()
        else:
            with guard_off() as cursor:  # the one-line-per-seat rule: the original goes
                cursor.execute("DELETE FROM clubs_entry WHERE id = %s", [original.pk])
        _append_by_hand(other_club, [original])
    other_club.refresh_from_db()
    assert journal.verify_chain(other_club) == []
    err = complaints(capsys, "--club", other_club.slug)
    said = f"{other_club.slug}#1: this line's seal is not the service's for this place"
    assert said in err


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_ledger_append_refuses_a_line_sealed_for_another_place(people, manual_table):
    # The service names the place it sealed each line for; the database refuses to put the
    # line anywhere else (a head that moved without the service's lock, say).
    club = a_journal(people, manual_table, results=1)
    line = Entry.objects.get(club=club, sequence=1)
    document = [
        {
            "competition_id": line.competition_id,
            "result_id": line.result_id,
            "table_id": line.table_id,
            "player_id": line.player_id,
            "seat": line.seat,
            "points": str(line.points),
            "shown": f"{line.points:.2f}",
            "kind": "reversal",
            "source": line.source,
            "entered_by_id": line.entered_by_id,
            "seal": line.seal,
            "origin": line.origin,
            "seal_version": line.seal_version,
            "sequence": 1,
            "prev_hash": "",
        }
    ]
    with (
        pytest.raises(DatabaseError, match="sealed for another place"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            "SELECT * FROM ledger_append(%s, %s, %s::json)",
            [club.pk, timezone.now(), json.dumps(document)],
        )
    club.refresh_from_db()
    assert club.journal_length == 2


def _second_version(club: Club) -> None:
    """Make the club's journal as the service wrote it before seals bound places: each line
    with its identity and a second-version seal."""
    with guard_off() as cursor:
        for e in Entry.objects.filter(club=club):
            old = signing.seal(
                club_id=e.club_id,
                competition_id=e.competition_id,
                result_id=e.result_id,
                table_id=e.table_id,
                seat=e.seat,
                player_id=e.player_id,
                points=e.points,
                kind=e.kind,
                origin=e.origin,
                penalty_id=e.penalty_id,
            )
            cursor.execute(
                "UPDATE clubs_entry SET seal = %s, seal_version = 0 WHERE id = %s", [old, e.pk]
            )


def test_lines_sealed_before_keep_verifying_and_cannot_follow_lines_sealed_at_their_place(
    people, manual_table, capsys
):
    club = a_journal(people, manual_table, results=1)
    _second_version(club)
    record(people, manual_table, [5, -5])
    club.refresh_from_db()
    versions = list(
        Entry.objects.filter(club=club).order_by("sequence").values_list("seal_version", flat=True)
    )
    assert versions == [0, 0, signing.SEAL_VERSION, signing.SEAL_VERSION]
    with translation.override("en"):
        call_command("verify_ledger")
    assert "Journal intact: 4 entries checked" in capsys.readouterr().out
    assert checkpoints.sign(club.pk) is not None

    # An old line, copied after the new ones with its old seal (which holds anywhere in its
    # club), is caught for coming after lines whose seals bind their places.
    old = Entry.objects.get(club=club, sequence=1)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            _without_uniqueness()
            _append_by_hand(club, [old])
        else:
            with guard_off() as cursor:
                cursor.execute("DELETE FROM clubs_entry WHERE id = %s", [old.pk])
                rehash(cursor, Club.objects.get(pk=club.pk))
            _append_by_hand(Club.objects.get(pk=club.pk), [old])
    club.refresh_from_db()
    err = complaints(capsys)
    said = f"#{club.journal_length}: this line's seal does not bind its place, after lines"
    assert f"{club.slug}{said}" in err


def test_an_entry_hash_is_what_the_seal_binds_as_the_previous_line(people, manual_table):
    # The seal of each line names the hash of the line before it, as the chain does.
    club = a_journal(people, manual_table, results=1)
    first, second = Entry.objects.filter(club=club).order_by("sequence")
    assert (
        second.prev_hash
        == first.hash
        == entry_hash(
            prev_hash="",
            club_id=club.pk,
            competition_id=first.competition_id,
            sequence=1,
            result_id=first.result_id,
            seat=first.seat,
            player_id=first.player_id,
            points=first.points,
            kind=first.kind,
        )
    )
    forged = Entry(**{f.attname: getattr(second, f.attname) for f in Entry._meta.concrete_fields})
    forged.prev_hash = "0" * 64
    assert not signing.line_seal_holds(forged)
