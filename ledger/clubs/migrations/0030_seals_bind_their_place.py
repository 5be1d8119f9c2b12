"""A journal line's seal binds its place: its club, its number and the previous line's hash.

Until now the seal of a line covered what it says and its identity (its write and its place
in that write), because on PostgreSQL ``ledger_append`` gave the line its number and previous
hash after the service had sealed it. The service now locks and reads the club's journal
head first, numbers, hashes and seals the lines itself (ledger/clubs/signing.py, version 3),
and ``ledger_append`` chains them as before, refusing any line whose number or previous hash
is not the one it gets. Lines the function is given without a number (by hand) are chained
as before: their seals, if any, do not hold at the place they get. ``seal_version`` says
which seal a line carries; the lines already written keep theirs (0: the first or second
version). On SQLite, adding the column rebuilds the journal's table, which drops its
append-only triggers: they are made again here.
"""

from importlib import import_module

from django.apps.registry import Apps
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor

PG_APPEND = """
CREATE OR REPLACE FUNCTION ledger_append(p_club bigint, p_at timestamptz, p_lines json)
RETURNS TABLE (line_id bigint, line_sequence bigint, line_prev text, line_hash text)
LANGUAGE plpgsql AS $$
DECLARE
    n bigint;
    head text;
    line record;
BEGIN
    SELECT c.journal_length, c.journal_head INTO n, head
        FROM clubs_club c WHERE c.id = p_club FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION USING MESSAGE = 'there is no club ' || p_club,
            ERRCODE = 'foreign_key_violation';
    END IF;
    FOR line IN SELECT * FROM ROWS FROM (json_to_recordset(p_lines) AS (
            competition_id bigint, result_id bigint, table_id bigint, player_id bigint,
            seat integer, points numeric, shown text, kind text, source text,
            entered_by_id bigint, seal text, origin text, seal_version integer,
            sequence bigint, prev_hash text)) WITH ORDINALITY AS x
            ORDER BY x.ordinality LOOP
        n := n + 1;
        IF line.sequence IS NOT NULL AND (line.sequence <> n OR line.prev_hash IS DISTINCT
                FROM head) THEN
            RAISE EXCEPTION USING MESSAGE = 'journal line ' || p_club || '#' || n
                || ' was sealed for another place (#' || line.sequence || ')',
                ERRCODE = 'integrity_constraint_violation';
        END IF;
        line_sequence := n;
        line_prev := head;
        head := encode(sha256(convert_to(concat_ws('|', head, p_club, line.competition_id,
            n, line.result_id, line.seat, line.player_id, line.shown, line.kind), 'UTF8')),
            'hex');
        line_hash := head;
        INSERT INTO clubs_entry (club_id, competition_id, result_id, table_id, player_id,
                seat, points, kind, source, entered_by_id, created_at, sequence, prev_hash,
                hash, seal, origin, seal_version)
            VALUES (p_club, line.competition_id, line.result_id, line.table_id,
                line.player_id, line.seat, line.points, line.kind, line.source,
                line.entered_by_id, p_at, n, line_prev, head, coalesce(line.seal, ''),
                coalesce(line.origin, ''), coalesce(line.seal_version, 0))
            RETURNING clubs_entry.id INTO line_id;
        RETURN NEXT;
    END LOOP;
    UPDATE clubs_club SET journal_length = n, journal_head = head WHERE id = p_club;
END;
$$;
"""

SQLITE_TRIGGERS = [
    """CREATE TRIGGER IF NOT EXISTS clubs_entry_no_update BEFORE UPDATE ON clubs_entry
       BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a correction instead');
       END;""",
    """CREATE TRIGGER IF NOT EXISTS clubs_entry_no_delete BEFORE DELETE ON clubs_entry
       BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a correction instead');
       END;""",
]


def up(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_APPEND)
    elif vendor == "sqlite":
        for statement in SQLITE_TRIGGERS:
            schema_editor.execute(statement)


def down(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        before = import_module("ledger.clubs.migrations.0024_journal_line_identities")
        schema_editor.execute(before.PG_APPEND)
    elif schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_TRIGGERS:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0029_imports_say_what_they_understood"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="seal_version",
            field=models.PositiveSmallIntegerField(db_default=0, default=0),
        ),
        migrations.RunPython(up, down),
    ]
