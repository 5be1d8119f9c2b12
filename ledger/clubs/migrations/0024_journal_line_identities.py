"""Each journal line carries its identity (``origin``), which its seal binds.

A line's seal covered what it says but not where it is: an exact copy of a result's lines,
appended through ``ledger_append()`` by someone who dropped the one-line-per-seat
constraint, kept real seals. Lines now carry ``<write>.<place>.<count>`` (the write's random
number, the line's place in it, the write's number of lines), drawn by the service and
sealed with the rest (ledger/clubs/signing.py, version 2): a copy repeats an identity, a line
moved out of its write is out of its place, a line cut out of a write leaves it short.
``ledger_append`` stores the identity it is given; the lines already written keep theirs
(none) and their first-version seals. On SQLite, adding the column rebuilds the journal's
table, which drops its append-only triggers: they are made again here.
"""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from importlib import import_module

from django.db import migrations, models

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
            entered_by_id bigint, seal text, origin text)) WITH ORDINALITY AS x
            ORDER BY x.ordinality LOOP
        n := n + 1;
        line_sequence := n;
        line_prev := head;
        head := encode(sha256(convert_to(concat_ws('|', head, p_club, line.competition_id,
            n, line.result_id, line.seat, line.player_id, line.shown, line.kind), 'UTF8')),
            'hex');
        line_hash := head;
        INSERT INTO clubs_entry (club_id, competition_id, result_id, table_id, player_id,
                seat, points, kind, source, entered_by_id, created_at, sequence, prev_hash,
                hash, seal, origin)
            VALUES (p_club, line.competition_id, line.result_id, line.table_id,
                line.player_id, line.seat, line.points, line.kind, line.source,
                line.entered_by_id, p_at, n, line_prev, head, coalesce(line.seal, ''),
                coalesce(line.origin, ''))
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
        before = import_module("ledger.clubs.migrations.0011_checkpoints_and_line_seals")
        schema_editor.execute(before.PG_APPEND)
    elif schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_TRIGGERS:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0023_results_can_be_voided"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="origin",
            field=models.CharField(blank=True, db_default="", default="", max_length=40),
        ),
        migrations.RunPython(up, down),
    ]
