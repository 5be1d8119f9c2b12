"""On PostgreSQL, a club's journal lines are chained by the database itself.

``ledger_append(club, at, lines)`` takes the club's journal head, numbers and hashes the
lines exactly as ``entry_hash`` does in Python, inserts them and moves the head, in one
statement. The head is then held from that statement to the commit that follows it in the
same round trip, instead of across a round trip to the application and back: writers to
one club queue for the database's time only. SQLite keeps chaining in Python (its writers
take turns for the whole transaction anyway).

Each line is a JSON object with competition_id, result_id, table_id, player_id, seat,
points (the stored value), shown (the points as the hash writes them, two decimals), kind,
source and entered_by_id, in journal order. The rows returned are each line's id, number,
previous hash and hash, in the same order.
"""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations

PG_UP = """
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
            entered_by_id bigint)) WITH ORDINALITY AS x
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
                hash)
            VALUES (p_club, line.competition_id, line.result_id, line.table_id,
                line.player_id, line.seat, line.points, line.kind, line.source,
                line.entered_by_id, p_at, n, line_prev, head)
            RETURNING clubs_entry.id INTO line_id;
        RETURN NEXT;
    END LOOP;
    UPDATE clubs_club SET journal_length = n, journal_head = head WHERE id = p_club;
END;
$$;
"""
PG_DOWN = "DROP FUNCTION IF EXISTS ledger_append(bigint, timestamptz, json);"


def up(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_UP)


def down(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(PG_DOWN)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0009_fewer_write_indexes"),
    ]

    operations = [migrations.RunPython(up, down)]
