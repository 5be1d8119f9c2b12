"""Tamper evidence: signed checkpoints, sealed lines, and verify_ledger against both.

Each attack is done the way a database administrator would: plain SQL, with the journal's
append-only guard switched off where the attack needs it, and the club's recorded head moved
to match, so that the hash chain alone still verifies. A checkpoint taken before the attack,
kept outside the database (the feed saved to a file), must catch it.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.utils import timezone

from ledger.clubs.journal import checkpoints, journal, selectors
from ledger.clubs.models import Checkpoint, Club, Entry, Result, Standing, entry_hash
from ledger.clubs.results import services
from ledger.clubs.storage import signing
from tests.ledger.helpers import record


@contextlib.contextmanager
def guard_off() -> Iterator[Any]:
    """What only a database administrator can do: switch off the journal's triggers."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("ALTER TABLE clubs_entry DISABLE TRIGGER clubs_entry_no_update")
            yield cursor
            cursor.execute("ALTER TABLE clubs_entry ENABLE TRIGGER clubs_entry_no_update")
        else:
            cursor.execute("DROP TRIGGER clubs_entry_no_update")
            cursor.execute("DROP TRIGGER clubs_entry_no_delete")
            yield cursor
            for statement in (
                "CREATE TRIGGER clubs_entry_no_update BEFORE UPDATE ON clubs_entry "
                "BEGIN SELECT RAISE(ABORT, 'append-only'); END;",
                "CREATE TRIGGER clubs_entry_no_delete BEFORE DELETE ON clubs_entry "
                "BEGIN SELECT RAISE(ABORT, 'append-only'); END;",
            ):
                cursor.execute(statement)


def rehash(cursor: Any, club: Club) -> None:
    """Recompute every line's chain after an edit, and the club's head: what a careful
    forger does so that the hash chain alone verifies again."""
    head, n = "", 0
    for e in Entry.objects.filter(club=club).order_by("sequence"):
        n += 1
        digest = entry_hash(
            prev_hash=head,
            club_id=e.club_id,
            competition_id=e.competition_id,
            sequence=n,
            result_id=e.result_id,
            seat=e.seat,
            player_id=e.player_id,
            points=Decimal(e.points),
            kind=e.kind,
        )
        cursor.execute(
            "UPDATE clubs_entry SET sequence = %s, prev_hash = %s, hash = %s WHERE id = %s",
            [n, head, digest, e.pk],
        )
        head = digest
    cursor.execute(
        "UPDATE clubs_club SET journal_length = %s, journal_head = %s WHERE id = %s",
        [n, head, club.pk],
    )


def saved_feed(tmp_path: Any, club: Club) -> str:
    path = tmp_path / "feed.json"
    path.write_text(json.dumps(selectors.feed(club)), encoding="utf-8")
    return str(path)


def complaints(capsys: Any, *args: str) -> str:
    with pytest.raises(CommandError):
        call_command("verify_ledger", *args)
    return capsys.readouterr().err


def a_journal(people: Any, table: Any, results: int = 3) -> Club:
    for i in range(results):
        record(people, table, [i + 1, -(i + 1)])
    club = Club.objects.get(pk=table.competition.club_id)
    return club


def test_a_checkpoint_signs_the_journal_head_with_the_service_key(people, manual_table):
    club = a_journal(people, manual_table)
    made = checkpoints.sign(club.pk)
    assert made is not None
    assert (made.length, made.head) == (club.journal_length, club.journal_head)
    assert made.key_id == signing.key_id()
    assert signing.verify(made.message(), made.signature, signing.public_key())
    # Any changed field breaks the signature.
    made.length -= 1
    assert not signing.verify(made.message(), made.signature)


def test_signing_again_with_an_unchanged_journal_makes_no_new_checkpoint(people, manual_table):
    club = a_journal(people, manual_table)
    first = checkpoints.sign(club.pk)
    assert checkpoints.sign(club.pk) == first
    assert Checkpoint.objects.filter(club=club).count() == 1


def test_a_checkpoint_is_signed_each_time_the_journal_grows_by_the_set_number_of_lines(
    people, manual_table, settings
):
    settings.LEDGER_CHECKPOINT_EVERY = 4
    settings.LEDGER_CHECKPOINT_MIN_SECONDS = 0
    checkpoints._asked.clear()
    a_journal(people, manual_table, results=5)  # two lines each: 10 lines
    lengths = sorted(Checkpoint.objects.values_list("length", flat=True))
    assert lengths == [4, 8]
    assert all(c.reason == Checkpoint.Reason.INTERVAL for c in Checkpoint.objects.all()), (
        "signed by the interval"
    )


def test_a_burst_of_writes_asks_for_one_interval_checkpoint_per_pause(
    people, manual_table, settings
):
    settings.LEDGER_CHECKPOINT_EVERY = 4
    settings.LEDGER_CHECKPOINT_MIN_SECONDS = 3600
    checkpoints._asked.clear()
    club = a_journal(people, manual_table, results=5)  # 10 lines: past 4 and 8
    assert sorted(Checkpoint.objects.values_list("length", flat=True)) == [4], (
        "the second interval fell within the pause"
    )
    checkpoints._asked[club.pk] = (4, checkpoints._asked[club.pk][1] - 3600)
    checkpoints.written(club.pk, club.journal_length)
    assert Checkpoint.objects.filter(club=club).order_by("-length")[0].length == 10


def test_a_checkpoint_check_finds_an_altered_line_read_as_plain_rows(people, manual_table):
    club = a_journal(people, manual_table, results=3)
    with guard_off() as cursor:
        cursor.execute(
            "UPDATE clubs_entry SET points = 99 WHERE club_id = %s AND sequence = 3", [club.pk]
        )
    assert checkpoints.sign(club.pk) is None
    assert not Checkpoint.objects.filter(club=club).exists()


def test_the_periodic_job_signs_every_club_whose_journal_grew(people, manual_table):
    club = a_journal(people, manual_table)
    call_command("sign_checkpoints")
    assert Checkpoint.objects.get(club=club).length == club.journal_length
    call_command("sign_checkpoints")
    assert Checkpoint.objects.filter(club=club).count() == 1


def test_the_feed_is_public_and_carries_the_public_key_and_the_signed_message(
    client, people, manual_table
):
    club = a_journal(people, manual_table)
    made = checkpoints.sign(club.pk)
    answer = client.get(f"/c/{club.slug}/checkpoints.json")
    assert answer.status_code == 200
    feed = answer.json()
    assert feed["public_key"] == signing.public_key()
    assert feed["algorithm"] == "Ed25519"
    (item,) = feed["checkpoints"]
    assert item["length"] == made.length and item["head"] == made.head
    message = signing.checkpoint_message(club.pk, item["length"], item["head"], item["signed_at"])
    assert signing.verify(message, item["signature"], feed["public_key"])


def test_the_standings_page_shows_the_latest_checkpoint_with_a_link_to_the_feed(
    client, people, manual_table
):
    club = a_journal(people, manual_table)
    checkpoints.sign(club.pk)
    page = client.get("/c/prova/coppa/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"signed up to line {club.journal_length}" in page
    assert 'href="/c/prova/checkpoints.json"' in page
    # On paper the address itself is printed.
    assert "http://testserver/c/prova/checkpoints.json" in page


def test_every_webhook_carries_the_latest_checkpoint(people, manual_table, settings):
    from ledger.clubs.models import Webhook, WebhookDelivery

    settings.LEDGER_WEBHOOKS_ALLOW_PRIVATE = True
    club = a_journal(people, manual_table)
    made = checkpoints.sign(club.pk)
    Webhook.objects.create(club=club, url="https://hooks.example.org/x", secret="s")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("ledger.clubs.webhooks.deliver", lambda *a, **k: True)
        record(people, manual_table, [9, -9])
    payload = WebhookDelivery.objects.get().payload
    assert payload["checkpoint"]["length"] == made.length
    assert payload["checkpoint"]["public_key"] == signing.public_key()


def test_verify_ledger_accepts_an_intact_journal_against_its_saved_feed(
    people, manual_table, tmp_path, capsys
):
    club = a_journal(people, manual_table)
    checkpoints.sign(club.pk)
    feed = saved_feed(tmp_path, club)
    record(people, manual_table, [5, -5])
    call_command("verify_ledger", "--checkpoints", feed)
    assert "extends 2 signed checkpoint(s)" in capsys.readouterr().out


def test_a_cut_tail_is_caught_against_a_checkpoint_taken_before(
    people, manual_table, tmp_path, capsys
):
    club = a_journal(people, manual_table, results=4)
    checkpoints.sign(club.pk)
    feed = saved_feed(tmp_path, club)
    keep = club.journal_length - 2
    with guard_off() as cursor:
        last = Entry.objects.get(club=club, sequence=keep)
        cursor.execute(
            "DELETE FROM clubs_entry WHERE club_id = %s AND sequence > %s", [club.pk, keep]
        )
        cursor.execute(
            "UPDATE clubs_club SET journal_length = %s, journal_head = %s WHERE id = %s",
            [keep, last.hash, club.pk],
        )
        # The checkpoints in the database go too: only the saved copy remains.
        cursor.execute("DELETE FROM clubs_checkpoint WHERE club_id = %s", [club.pk])
    assert journal.verify_chain(club) == []  # the chain alone cannot tell
    err = complaints(capsys, "--checkpoints", feed)
    assert "the journal was cut" in err


def test_a_history_rehashed_after_an_edit_is_caught_against_a_checkpoint_taken_before(
    people, manual_table, tmp_path, capsys
):
    club = a_journal(people, manual_table, results=4)
    checkpoints.sign(club.pk)
    feed = saved_feed(tmp_path, club)
    with guard_off() as cursor:
        first = Entry.objects.get(club=club, sequence=1)
        cursor.execute("UPDATE clubs_entry SET points = 50 WHERE id = %s", [first.pk])
        rehash(cursor, Club.objects.get(pk=club.pk))
        cursor.execute("DELETE FROM clubs_checkpoint WHERE club_id = %s", [club.pk])
    assert journal.verify_chain(club) == []
    err = complaints(capsys, "--checkpoints", feed)
    assert "history was rewritten" in err
    assert f"{club.slug}#1: this line's seal is not the service's" in err


@pytest.mark.skipif("connection.vendor != 'postgresql'")
def test_a_line_forged_through_ledger_append_is_caught(people, manual_table, tmp_path, capsys):
    club = a_journal(people, manual_table)
    checkpoints.sign(club.pk)
    feed = saved_feed(tmp_path, club)
    before = club.journal_length
    result = Result.objects.filter(club=club).first()
    line = {
        "competition_id": result.competition_id,
        "result_id": result.pk,
        "table_id": result.table_id,
        "player_id": people.extra[0].pk,
        "seat": 0,
        "points": "40",
        "shown": "40.00",
        "kind": "reversal",
        "source": "manual",
        "entered_by_id": people.users["organiser"].pk,
    }
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT * FROM ledger_append(%s, %s, %s::json)",
            [club.pk, timezone.now(), json.dumps([line])],
        )
    assert journal.verify_chain(club) == []  # the database chained it itself
    err = complaints(capsys, "--checkpoints", feed)
    assert f"{club.slug}#{before + 1}: this line was not written by the service" in err
    # Nor does the service sign over it.
    assert checkpoints.sign(club.pk) is None


def test_a_sealed_line_copied_by_hand_is_caught(people, manual_table, tmp_path, capsys):
    # Even a real seal, copied from another line, does not hold for a line that says
    # something else.
    club = a_journal(people, manual_table)
    checkpoints.sign(club.pk)
    with guard_off() as cursor:
        first = Entry.objects.get(club=club, sequence=1)
        cursor.execute(
            "UPDATE clubs_entry SET player_id = %s WHERE id = %s", [people.extra[2].pk, first.pk]
        )
        rehash(cursor, Club.objects.get(pk=club.pk))
    err = complaints(capsys)
    assert "seal is not the service's" in err


def test_an_edited_result_row_is_caught(people, manual_table, capsys):
    a_journal(people, manual_table)
    result = Result.objects.first()
    Result.objects.filter(pk=result.pk).update(scores=["7.00", "-7.00"])
    err = complaints(capsys)
    assert f"result #{result.pk} does not match the journal" in err


def test_a_result_marked_pending_behind_the_service_is_caught(people, manual_table, capsys):
    a_journal(people, manual_table)
    result = Result.objects.first()
    Result.objects.filter(pk=result.pk).update(status=Result.Status.PENDING)
    err = complaints(capsys)
    assert "it is not counted, yet the journal credits it" in err


def test_an_edited_standings_row_is_caught(people, manual_table, capsys):
    a_journal(people, manual_table)
    row = Standing.objects.first()
    Standing.objects.filter(pk=row.pk).update(points=row.points + 10)
    err = complaints(capsys)
    assert f"the standings row of player #{row.player_id}" in err


def test_corrections_keep_the_projections_in_agreement_with_the_journal(people, manual_table):
    a_journal(people, manual_table)
    result = Result.objects.filter(status=Result.Status.ACCEPTED).first()
    services.supersede_result(
        user=people.users["referee"], result=result, source="manual", scores=[2, -2]
    )
    call_command("verify_ledger")


def test_a_checkpoint_signed_by_another_key_is_refused(
    people, manual_table, tmp_path, capsys, settings
):
    club = a_journal(people, manual_table)
    checkpoints.sign(club.pk)
    feed = saved_feed(tmp_path, club)
    Checkpoint.objects.all().delete()
    # The service now holds another key: a feed signed with the first is not its own.
    settings.LEDGER_SIGNING_KEY = "77" * 32
    err = complaints(capsys, "--checkpoints", feed)
    assert "signed by another key" in err


def test_a_checkpoint_whose_signature_was_changed_is_refused(
    people, manual_table, tmp_path, capsys
):
    club = a_journal(people, manual_table)
    checkpoints.sign(club.pk)
    Checkpoint.objects.filter(club=club).update(head="0" * 64)
    err = complaints(capsys)
    assert "a signature that does not hold" in err


def test_verify_ledger_reads_a_feed_from_an_address(
    client, people, manual_table, capsys, monkeypatch
):
    import io
    import urllib.request

    club = a_journal(people, manual_table)
    checkpoints.sign(club.pk)
    asked = []

    def urlopen(request, timeout):
        asked.append(request.full_url)
        path = request.full_url.removeprefix("https://ledger.example.org")
        return contextlib.nullcontext(io.BytesIO(client.get(path).content))

    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    feed = f"https://ledger.example.org/c/{club.slug}/checkpoints.json"
    call_command("verify_ledger", "--checkpoints", feed)
    assert asked == [feed]
    assert "extends 2 signed checkpoint(s)" in capsys.readouterr().out


def test_the_development_key_is_made_once_in_var_with_owner_only_access(settings, tmp_path):
    settings.LEDGER_SIGNING_KEY = ""
    settings.VAR_DIR = tmp_path
    first = signing.public_key()
    path = tmp_path / "ledger-signing.key"
    assert path.stat().st_mode & 0o777 == 0o600
    signing._seed_cache.clear()
    assert signing.public_key() == first


def test_a_malformed_signing_key_fails_loudly(settings):
    from django.core.exceptions import ImproperlyConfigured

    settings.LEDGER_SIGNING_KEY = "not a key"
    with pytest.raises(ImproperlyConfigured, match="32-byte Ed25519"):
        signing.public_key()
