"""Red team: a forged export or backup restores as intact (the operator's finding 3).

The forger changes a score in a club's export, in a line written after the last signed
checkpoint (so no checkpoint pins it), and makes everything a tool can recompute agree: the
journal's hashes from that line on, the club's head, the end line, every line's check, the
backup's checksums and manifest. What the forger cannot make is a seal or a signature: the
export's lines carry their seals, its end line is signed with the installation's key, and
the backup's manifest too. `verify_ledger --export`, `import_club` and `restore` refuse it,
naming the line where they can.
"""

from __future__ import annotations

import hashlib
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import orjson
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from ledger.clubs.journal import checkpoints
from ledger.clubs.models import Club, entry_hash
from ledger.clubs.storage import signing
from ledger.clubs.transfer import backup, transfer
from tests.hardening.test_checkpoints import a_journal
from tests.ledger.helpers import record


@pytest.fixture(autouse=True)
def _english() -> Any:
    with translation.override("en"):
        yield


def exported(club: Club) -> bytes:
    out = io.BytesIO()
    transfer.write_export(club, out)
    return out.getvalue()


def rows(data: bytes) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in data.splitlines()]


def forge(data: bytes, change: Any) -> tuple[bytes, int, int]:
    """The export with ``change`` applied to its rows, then every hash, head and check made
    again as a careful forger would; the changed entry's file line and sequence."""
    found = rows(data)
    changed_line, changed_sequence = change(found)
    head, club_id = "", None
    for row in found:
        if row["t"] == "club":
            club_id = row["id"]
        if row["t"] == "entry":
            row["prev_hash"] = head
            row["hash"] = head = entry_hash(
                prev_hash=head,
                club_id=club_id,
                competition_id=row["competition_id"],
                sequence=row["sequence"],
                result_id=row["result_id"],
                seat=row["seat"],
                player_id=row["player_id"],
                points=Decimal(row["points"]),
                kind=row["kind"],
            )
    lines = transfer._Lines()
    out = []
    for row in found:
        if row["t"] == "club":
            row["journal_head"] = head
        if row["t"] == "end":
            row["journal_head"] = head
        row.pop("x"), row.pop("n")
        out.append(lines.line(row))
    return b"".join(out), changed_line, changed_sequence


def last_credit_raised(found: list[dict[str, Any]]) -> tuple[int, int]:
    """A score written after the last checkpoint, raised by 40 points."""
    at = max(i for i, row in enumerate(found) if row["t"] == "entry" and row["kind"] == "credit")
    row = found[at]
    row["points"] = f"{Decimal(row['points']) + 40:.2f}"
    return at + 1, row["sequence"]


@pytest.fixture
def club_after_a_checkpoint(people: Any, manual_table: Any) -> Club:
    club = a_journal(people, manual_table)
    assert checkpoints.sign(club.pk) is not None
    record(people, manual_table, [5, -5])  # after the last checkpoint
    club.refresh_from_db()
    return club


def refused(data: bytes, **trust: Any) -> str:
    with pytest.raises(transfer.Refused) as why:
        transfer.check_export(io.BytesIO(data), **trust)
    return str(why.value)


def test_an_export_carries_every_seal_and_a_signature_that_verifies(club_after_a_checkpoint):
    club = club_after_a_checkpoint
    data = exported(club)
    found = rows(data)
    entries = [row for row in found if row["t"] == "entry"]
    assert entries and all(row["seal"] and row["hash"] and row["origin"] for row in entries)
    header, end = found[0], found[-1]
    assert header["public_key"] == signing.public_key()
    assert header["checkpoints"] == [[6, entries[5]["hash"]]]
    assert end["signature"]
    checked = transfer.check_export(io.BytesIO(data))
    assert (checked.journal_length, checked.checkpoints) == (8, 1)


def test_a_score_forged_after_the_last_checkpoint_is_refused_at_its_line(
    club_after_a_checkpoint, tmp_path, capsys
):
    club = club_after_a_checkpoint
    forged, line, sequence = forge(exported(club), last_credit_raised)
    assert sequence > 6  # no checkpoint pins it
    said = f"line {line}: journal line #{sequence}: its seal is not this installation's"
    assert refused(forged).startswith(said)
    path = tmp_path / "forged.jsonl"
    path.write_bytes(forged)
    with pytest.raises(CommandError):
        call_command("verify_ledger", "--export", str(path))
    assert said in capsys.readouterr().err
    # import_club and restore make the same checks before they write (transfer._import).


def test_a_forged_export_is_refused_where_its_seals_cannot_be_checked(
    club_after_a_checkpoint, settings
):
    # The club moved: the installation that reads the file holds another key, so the
    # original seals mean nothing here; the original key's signature on the file does.
    club = club_after_a_checkpoint
    original = signing.public_key()
    genuine = exported(club)
    forged, _line, _sequence = forge(genuine, last_credit_raised)
    settings.LEDGER_SIGNING_KEY = "77" * 32
    assert signing.public_key() != original
    assert transfer.check_export(io.BytesIO(genuine), trusted_key=original).journal_length == 8
    assert "the file's signature does not hold" in refused(forged, trusted_key=original)
    # And a file not signed by the key the operator trusts is not taken at all.
    assert "give the public key of the installation that made it" in refused(genuine)


def test_a_forger_who_signs_with_a_key_of_their_own_or_drops_the_signature_is_refused(
    club_after_a_checkpoint, settings
):
    club = club_after_a_checkpoint
    original = signing.public_key()
    forged, _line, _sequence = forge(exported(club), last_credit_raised)
    # Signed again with the forger's own key, which the header now names.
    found = rows(forged)
    settings.LEDGER_SIGNING_KEY = "66" * 32
    found[0]["public_key"] = signing.public_key()
    lines, out = transfer._Lines(), []
    for row in found[:-1]:
        row.pop("x"), row.pop("n")
        out.append(lines.line(row))
    end = found[-1]
    end.pop("x"), end.pop("n")
    end["signature"] = signing.sign(
        transfer.export_message(
            club.pk, club.slug, len(found), lines.check.decode(), 8, end["journal_head"]
        )
    )
    out.append(lines.line(end))
    settings.LEDGER_SIGNING_KEY = "5e" * 32
    assert signing.public_key() == original
    assert "line 1: the file is signed with the key" in refused(b"".join(out))
    # Passed off as a file of the first version, which had no signature.
    unsigned = rows(forged)
    unsigned[0]["version"] = 1
    lines, out = transfer._Lines(), []
    for row in unsigned:
        row.pop("x"), row.pop("n")
        out.append(lines.line(row))
    assert "line 1: the file is in version 1 of the export format, which is not signed" in (
        refused(b"".join(out))
    )


def _backup_folder(where: Path, club: Club, export: bytes) -> Path:
    """A backup of one club's export, its manifest signed as `manage.py backup` signs it."""
    (where / "clubs").mkdir(parents=True)
    (where / "clubs" / f"{club.slug}.jsonl").write_bytes(export)
    manifest = {
        "made_at": "2026-11-29T07:00:00+00:00",
        "database": "sqlite",
        "signing_key": signing.key_id(),
        "public_key": signing.public_key(),
        "files": {
            f"clubs/{club.slug}.jsonl": {
                "bytes": len(export),
                "sha256": hashlib.sha256(export).hexdigest(),
            }
        },
        "clubs": {club.slug: {"journal_length": 8, "journal_head": club.journal_head}},
    }
    manifest["signature"] = signing.sign(backup.manifest_message(manifest))
    (where / backup.MANIFEST).write_text(json.dumps(manifest))
    return where


def test_a_backup_whose_export_was_forged_and_manifest_redone_is_not_restored(
    club_after_a_checkpoint, tmp_path
):
    club = club_after_a_checkpoint
    folder = _backup_folder(tmp_path / "20261129T070000Z", club, exported(club))
    forged, _line, _sequence = forge(exported(club), last_credit_raised)
    (folder / "clubs" / f"{club.slug}.jsonl").write_bytes(forged)
    # The checksums written again, as the forger would; the signature cannot be.
    manifest = json.loads((folder / backup.MANIFEST).read_text())
    manifest["files"][f"clubs/{club.slug}.jsonl"] = {
        "bytes": len(forged),
        "sha256": hashlib.sha256(forged).hexdigest(),
    }
    (folder / backup.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(backup.BackupError, match="was changed after the backup was made"):
        backup.restore(folder, from_exports=True)
    # Without its signature, the manifest is refused as unsigned.
    del manifest["signature"]
    (folder / backup.MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(backup.BackupError, match="is not signed"):
        backup.restore(folder, from_exports=True)
    # Even taken as unsigned by an operator who says so, the export itself refuses.
    assert "its seal is not this installation's" in refused(forged, allow_unsigned=True)
