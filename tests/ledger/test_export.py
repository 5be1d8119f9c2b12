"""A club's export and import: the demo club moves SQLite → (the test database: PostgreSQL in
the PostgreSQL run) → SQLite with its chain, standings and ratings intact, and a changed,
cut, shortened or duplicate file is refused with its line, leaving nothing written."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.utils import translation

from ledger.clubs.models import Club, Entry, Player, Rating, Result, Standing
from ledger.clubs.storage import signing
from ledger.clubs.transfer import transfer

ROOT = Path(__file__).resolve().parents[2]

# After seed_demo: a correction (reversal lines, a superseded version, ratings replayed)
# and a dispute, so the export carries every version of a result.
HISTORY = """
from django.contrib.auth import get_user_model
from ledger.clubs.results import services
from ledger.clubs.models import Competition, Result
user = get_user_model().objects.get(username="demo")
comp = Competition.objects.get(slug="cardchess-2026")
first, second = Result.objects.filter(competition=comp, status="accepted").order_by("pk")[:2]
services.supersede_result(
    user=user, result=first, source=second.source, record=second.record, reason="typo"
)
comp.confirmation = "second_person"
comp.save()
table = services.table_for_write(second.table_id)
pending, _ = services.record_result(
    user=user, table=table, source=second.source, record=second.record
)
services.dispute_result(user=user, result=pending, reason="wrong seat")
# Penalties are journal lines of their own, counted in the ratings where the club says so.
from ledger.clubs.results import penalties
from ledger.clubs.models import Club
Club.objects.update(penalties_in_ratings=True)
tarocco = Competition.objects.get(slug="tarocco-2026")
hand = Result.objects.filter(competition=tarocco, status="accepted").first()
seat = hand.table.seats.first()
fine = penalties.give_penalty(
    user=user, competition=tarocco, player=seat.player, points=2, reason="late", table=hand.table
)
penalties.give_penalty(user=user, competition=tarocco, player=seat.player, points=1, reason="noise")
penalties.cancel_penalty(user=user, penalty=fine, reason="he was on time")
penalties.give_penalty(
    user=user, competition=tarocco, player=seat.player, points=3, reason="cards", table=hand.table
)
"""


@pytest.fixture(autouse=True)
def _english() -> Any:
    # The refusals are asserted in English; the Italian is the translations' test's.
    with translation.override("en"):
        yield


def our_key() -> str:
    """This test process's signing key (tests/conftest.py's ``_signing_key``): the
    installation the other processes belong to, unless a test says otherwise."""
    return "5e" * 32


def manage(db_file: Path, *args: str, stdin: bytes | None = None, key: str | None = None) -> str:
    """A manage.py command against an SQLite file of its own, in another process, with this
    installation's signing key (or ``key``)."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{db_file}",
        "LEDGER_VAR_DIR": str(db_file.parent / "var"),
        "LEDGER_SIGNING_KEY": key or our_key(),
    }
    env.pop("LEDGER_SIGNING_KEY_FILE", None)
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        env=env,
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory, migrated_sqlite: Path) -> dict[str, Path]:
    """The demo club with some history, exported from SQLite; and an empty migrated SQLite
    database to move it back into."""
    where = tmp_path_factory.mktemp("demo")
    source, empty = where / "source.sqlite3", where / "empty.sqlite3"
    shutil.copy(migrated_sqlite, source)
    shutil.copy(migrated_sqlite, empty)
    manage(source, "seed_demo")
    manage(source, "shell", "-c", HISTORY)
    manage(source, "verify_ledger")
    manage(source, "export_club", "circolo-pisano", str(where / "demo.jsonl"), "--with-secrets")
    return {"export": where / "demo.jsonl", "empty": empty, "dir": where}


def rows_of(data: bytes) -> list[dict[str, Any]]:
    """The export's rows, less what says when and where it was made."""
    rows = []
    for line in data.splitlines():
        row = orjson.loads(line)
        row.pop("x")
        if row["t"] == "header":
            row.pop("exported_at"), row.pop("database")
        if row["t"] == "end":
            row.pop("signature")  # covers the checks, and so when the file was made
        rows.append(row)
    return rows


def export_here(slug: str = "circolo-pisano", secrets: bool = True) -> bytes:
    out = io.BytesIO()
    transfer.write_export(Club.objects.get(slug=slug), out, secrets=secrets)
    return out.getvalue()


def resign(lines: list[bytes]) -> bytes:
    """The lines with their checks computed again, as someone hiding a change would."""
    check, out = b"", []
    for line in lines:
        head = line.rstrip(b"\n")[:-72]
        check = hashlib.sha256(check + head).hexdigest().encode()
        out.append(head + b',"x":"' + check + b'"}\n')
    return b"".join(out)


def nothing_written() -> bool:
    return not (
        Club.objects.exists()
        or Entry.objects.exists()
        or Player.objects.exists()
        or Result.objects.exists()
        or get_user_model().objects.exists()
    )


def refusal(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "club.jsonl"
    path.write_bytes(data)
    with pytest.raises(CommandError) as refused:
        call_command("import_club", str(path))
    assert nothing_written()
    return str(refused.value)


@pytest.mark.django_db
def test_the_demo_club_moves_to_this_database_and_back_with_its_chain_intact(demo, tmp_path):
    exported = demo["export"].read_bytes()
    call_command("import_club", str(demo["export"]))
    call_command("verify_ledger")
    club = Club.objects.get(slug="circolo-pisano")
    assert club.journal_length == Entry.objects.filter(club=club).count() > 60
    assert Result.objects.filter(club=club, status="superseded").exists()
    file_rows = rows_of(exported)
    standings = {
        (r["competition_id"], r["player_id"]): (r["points"], r["played"], r["wins"])
        for r in file_rows
        if r["t"] == "standing"
    }
    assert standings == {
        (s.competition_id, s.player_id): (f"{s.points:.2f}", s.played, s.wins)
        for s in Standing.objects.all()
    }
    ratings = {
        (r["game"], r["player_id"]): (r["mu"], r["sigma"]) for r in file_rows if r["t"] == "rating"
    }
    assert ratings == {(r.game, r.player_id): (r.mu, r.sigma) for r in Rating.objects.all()}
    again = export_here()
    assert rows_of(again) == file_rows
    # And on to a second SQLite installation.
    back, path = tmp_path / "back.sqlite3", tmp_path / "again.jsonl"
    shutil.copy(demo["empty"], back)
    path.write_bytes(again)
    manage(back, "import_club", str(path))
    assert "intact" in manage(back, "verify_ledger")
    assert (
        rows_of(manage(back, "export_club", "circolo-pisano", "-", "--with-secrets").encode())
        == file_rows
    )


@pytest.mark.django_db
def test_a_second_import_of_a_club_already_here_is_refused(demo, tmp_path):
    call_command("import_club", str(demo["export"]))
    counts = (Entry.objects.count(), Result.objects.count(), Player.objects.count())
    with pytest.raises(
        CommandError, match="line 3: a club called 'circolo-pisano' is already here"
    ):
        call_command("import_club", str(demo["export"]))
    assert (Entry.objects.count(), Result.objects.count(), Player.objects.count()) == counts


def line_of(lines: list[bytes], kind: str, nth: int = 0) -> int:
    found = [i for i, line in enumerate(lines) if orjson.loads(line)["t"] == kind]
    return found[nth]


@pytest.mark.django_db
def test_it_refuses_a_changed_line(demo, tmp_path):
    lines = demo["export"].read_bytes().splitlines(keepends=True)
    i = line_of(lines, "player", 3)
    lines[i] = lines[i].replace(b'"name":"', b'"name":"X')
    message = refusal(b"".join(lines), tmp_path)
    assert f"line {i + 1}: the line was changed after the export" in message


@pytest.mark.django_db
def test_it_refuses_a_journal_line_changed_even_with_its_checks_redone(demo, tmp_path):
    lines = demo["export"].read_bytes().splitlines(keepends=True)
    i = line_of(lines, "entry", 10)
    row = orjson.loads(lines[i])
    lines[i] = lines[i].replace(b'"points":"%s"' % row["points"].encode(), b'"points":"99.00"')
    message = refusal(resign(lines), tmp_path)
    assert f"line {i + 1}: journal line #11 was changed" in message


@pytest.mark.django_db
def test_it_refuses_a_missing_line(demo, tmp_path):
    lines = demo["export"].read_bytes().splitlines(keepends=True)
    i = line_of(lines, "entry", 20)
    del lines[i]
    message = refusal(b"".join(lines), tmp_path)
    assert f"line {i + 1}: line {i + 1} is missing" in message
    # Renumbered and signed again, the journal's own chain still names the gap.
    renumbered = [
        line.replace(b'"n":%d,' % (n + 2), b'"n":%d,' % (n + 1)) if n >= i else line
        for n, line in enumerate(lines)
    ]
    message = refusal(resign(renumbered), tmp_path)
    assert f"line {i + 1}: journal line #21 is missing before this one" in message


def signed_again(lines: list[bytes]) -> bytes:
    """The lines with their checks and the end line's signature made again with this
    installation's key (the demo file's signer): a file changed by someone holding the key,
    or written by a faulty one, which the import's own checks must still refuse."""
    rows = [orjson.loads(line) for line in lines]
    out, checks = [], transfer._Lines()
    for row in rows[:-1]:
        row.pop("x"), row.pop("n")
        out.append(checks.line(row))
    end = rows[-1]
    end.pop("x"), end.pop("n")
    club = next(row for row in rows if row["t"] == "club")
    end["signature"] = signing.sign(
        transfer.export_message(
            club["id"],
            club["slug"],
            len(rows),
            checks.check.decode(),
            end["journal_length"],
            end["journal_head"],
        )
    )
    out.append(checks.line(end))
    return b"".join(out)


@pytest.mark.django_db
def test_a_row_naming_a_player_neither_the_file_nor_this_installation_holds_is_refused(
    demo, tmp_path
):
    lines = demo["export"].read_bytes().splitlines(keepends=True)
    i = line_of(lines, "seat", 5)
    row = orjson.loads(lines[i])
    lines[i] = lines[i].replace(b'"player_id":%d' % row["player_id"], b'"player_id":987654')
    message = refusal(signed_again(lines), tmp_path)
    if connection.vendor == "postgresql":
        # Checked as the rows come (the database's triggers switched off for the import):
        # the refusal names the line.
        assert (
            f"line {i + 1}: a seat row points to player number 987654, which neither the file "
            "nor this installation holds" in message
        )
    else:
        assert "the file's rows point to rows it does not hold" in message


@pytest.mark.django_db
def test_it_refuses_a_truncated_file(demo, tmp_path):
    data = demo["export"].read_bytes()
    lines = data.splitlines(keepends=True)
    message = refusal(data[: len(data) - len(lines[-1]) - 40], tmp_path)
    assert f"line {len(lines) - 1}: the line stops in the middle" in message
    message = refusal(b"".join(lines[:-1]), tmp_path)
    assert f"the file stops after line {len(lines) - 1}, before its end line" in message


@pytest.mark.django_db
def test_it_refuses_a_file_that_is_not_an_export(tmp_path):
    message = refusal(b"name,points\nAnna,3\n", tmp_path)
    assert "line 1:" in message


@pytest.mark.django_db
def test_the_organisers_export_carries_no_passwords_or_secrets(demo):
    call_command("import_club", str(demo["export"]))
    data = export_here(secrets=False)
    assert b'"password"' not in data and b'"email"' not in data
    assert not any(row["t"].startswith("webhook") for row in rows_of(data))


def test_every_model_of_every_ledger_app_is_exported_or_left_out_on_purpose():
    covered = {kind.model._meta.label for kind in transfer.KINDS} | set(transfer.LEFT_OUT)
    ours = [c for c in apps.get_app_configs() if c.name.startswith("ledger.")]
    assert {"clubs", "formats", "night", "signup", "notify", "federation"} <= {
        c.label for c in ours
    }
    missing = sorted(
        m._meta.label
        for config in ours
        for m in config.get_models(include_auto_created=True)
        if not m._meta.abstract and not m._meta.proxy and m._meta.label not in covered
    )
    assert not missing, (
        f"{missing}: register each in its app's AppConfig.ready (transfer.register, a club's "
        "data) or leave it out with its reason (transfer.leave_out), and say so in "
        "docs/export.md"
    )
    # Each one left out says why, and nothing is both carried and left out.
    assert all(why.strip() for why in transfer.LEFT_OUT.values())
    assert not {kind.model._meta.label for kind in transfer.KINDS} & set(transfer.LEFT_OUT)


def test_every_kind_comes_after_the_kinds_it_points_to():
    place = {kind.model._meta.label: n for n, kind in enumerate(transfer.KINDS)}
    for n, kind in enumerate(transfer.KINDS):
        for field in kind.model._meta.concrete_fields:
            target = field.related_model if field.is_relation else None
            if target is None or target is kind.model:
                continue
            label = target._meta.label
            assert label not in place or place[label] < n, (kind.name, field.name, label)


def _public_of(seed_hex: str) -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    public = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(seed_hex)).public_key()
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw.hex()


def _feed_there(db_file: Path, slug: str, key: str) -> dict[str, Any]:
    script = (
        "import json; from ledger.clubs.journal import selectors; "
        "from ledger.clubs.models import Club; "
        f"print(json.dumps(selectors.feed(Club.objects.get(slug={slug!r}))))"
    )
    said = manage(db_file, "shell", "-c", script, key=key)
    return orjson.loads(said.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.django_db
def test_a_club_moved_elsewhere_keeps_verifying_against_its_checkpoints_and_their_key(
    demo, tmp_path
):
    """A club brought from a signed export keeps the public key of the installation it
    came from (vouched for by the new one's key): `verify_ledger` there checks the
    checkpoints signed before the move without being given the key, the club's feed
    publishes the key beside the new installation's, and a key changed in the database is
    reported. Moved on again, the club keeps both earlier keys."""
    from ledger.clubs.journal import selectors
    from ledger.clubs.storage import signing

    call_command("import_club", str(demo["export"]))
    ours = signing.public_key()
    # The demo's rounds signed checkpoints as they ended; its last lines have none yet.
    n = sum(1 for row in rows_of(export_here()) if row["t"] == "checkpoint")
    assert n >= 1
    assert selectors.latest(Club.objects.get(slug="circolo-pisano").pk).length < (
        Club.objects.get(slug="circolo-pisano").journal_length
    )
    (tmp_path / "club.jsonl").write_bytes(export_here())

    second_key, third_key = "22" * 32, "33" * 32
    second = tmp_path / "second" / "db.sqlite3"
    second.parent.mkdir()
    shutil.copy(demo["empty"], second)
    manage(
        second, "import_club", str(tmp_path / "club.jsonl"), "--public-key", ours, key=second_key
    )
    said = manage(second, "verify_ledger", key=second_key)
    assert f"extends {n} signed checkpoint(s)" in said, said
    assert "signed with a key" not in said
    feed = _feed_there(second, "circolo-pisano", second_key)
    assert feed["earlier_keys"] == [{"key_id": signing.key_id(ours), "public_key": ours}]
    assert {c["key_id"] for c in feed["checkpoints"]} == {signing.key_id(ours)}
    assert len(feed["checkpoints"]) == n
    # The feed, saved elsewhere, is checked against the database there with the keys it names.
    (tmp_path / "feed.json").write_text(orjson.dumps(feed).decode())
    said = manage(
        second, "verify_ledger", "--checkpoints", str(tmp_path / "feed.json"), key=second_key
    )
    assert f"extends {2 * n} signed checkpoint(s)" in said, said

    # Signed there too (the lines since the last checkpoint), then moved to a third
    # installation: both earlier keys travel, and every checkpoint verifies there.
    manage(second, "sign_checkpoints", key=second_key)
    signed_there = _feed_there(second, "circolo-pisano", second_key)["checkpoints"]
    assert len(signed_there) == n + 1
    out = tmp_path / "second.jsonl"
    manage(second, "export_club", "circolo-pisano", str(out), key=second_key)
    third = tmp_path / "third" / "db.sqlite3"
    third.parent.mkdir()
    shutil.copy(demo["empty"], third)
    manage(third, "import_club", str(out), "--public-key", _public_of(second_key), key=third_key)
    said = manage(third, "verify_ledger", key=third_key)
    assert f"extends {n + 1} signed checkpoint(s)" in said, said
    assert "signed with a key" not in said
    feed = _feed_there(third, "circolo-pisano", third_key)
    assert {k["public_key"] for k in feed["earlier_keys"]} == {ours, _public_of(second_key)}

    # Someone with the database puts a key of their own in the club's list: it is not
    # vouched for, so it is reported and not used.
    script = (
        "from ledger.clubs.models import Club; "
        "Club.objects.filter(slug='circolo-pisano').update("
        f"earlier_keys=[{{'public_key': '{'44' * 32}', 'voucher': '{'00' * 64}'}}])"
    )
    manage(third, "shell", "-c", script, key=third_key)
    failed = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "verify_ledger"],
        env={
            **os.environ,
            "DATABASE_URL": f"sqlite:///{third}",
            "LEDGER_VAR_DIR": str(third.parent / "var"),
            "LEDGER_SIGNING_KEY": third_key,
        },
        cwd=ROOT,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert failed.returncode != 0
    # The command speaks the installation's language (Italian here).
    assert "non è garantita da questa installazione" in failed.stderr.decode()


@pytest.mark.django_db
def test_signed_checkpoints_travel_with_the_club_and_still_verify_with_their_key(demo, tmp_path):
    """A checkpoint signed here goes into the export; in another installation (another
    signing key) the file is taken when its key is given with `--public-key`, and
    `verify_ledger --public-key` proves the journal still extends the checkpoint there; a
    checkpoint whose head was changed in the file (its line checks redone) is refused."""
    from ledger.clubs.journal import checkpoints
    from ledger.clubs.storage import signing

    call_command("import_club", str(demo["export"]))
    club = Club.objects.get(slug="circolo-pisano")
    signed = checkpoints.sign(club.pk, reason="manual")
    assert signed is not None and signed.length == club.journal_length
    ours = signing.public_key()
    data = export_here()
    # The demo's round publications signed checkpoints of their own; this one is the last.
    n = sum(1 for row in rows_of(data) if row["t"] == "checkpoint")
    assert n >= 1

    other_key = "22" * 32

    def elsewhere(name: str, content: bytes) -> Path:
        there = tmp_path / f"{name}.sqlite3"
        shutil.copy(demo["empty"], there)
        (tmp_path / f"{name}.jsonl").write_bytes(content)
        moved = str(tmp_path / f"{name}.jsonl")
        manage(there, "import_club", moved, "--public-key", ours, key=other_key)
        return there

    moved = elsewhere("moved", data)
    assert f"extends {n} signed checkpoint(s)" in manage(
        moved, "verify_ledger", "--public-key", ours, key=other_key
    )

    lines = data.splitlines(keepends=True)
    i = line_of(lines, "checkpoint")
    row = orjson.loads(lines[i])
    forged = row["head"][:-1] + ("0" if row["head"][-1] != "0" else "1")
    lines[i] = lines[i].replace(row["head"].encode(), forged.encode())
    # The header names the checkpoints the journal extends; the file is refused at the row.
    with pytest.raises(transfer.Refused) as refused:
        transfer.check_export(io.BytesIO(resign(lines)))
    assert str(refused.value) == (
        f"line {i + 1}: a checkpoint the file's header does not name: the file was changed"
    )
