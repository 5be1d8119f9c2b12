"""Signed checkpoints of each club's journal, and a seal on every journal line.

``ledger_append`` (migration 0010) now stores each line's ``seal``, which the service
computes with a key the database never sees (ledger/clubs/signing.py). On SQLite, adding
the column rebuilds the journal's table, which drops its append-only triggers: they are
made again here.
"""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
import django.db.models.deletion
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
            entered_by_id bigint, seal text)) WITH ORDINALITY AS x
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
                hash, seal)
            VALUES (p_club, line.competition_id, line.result_id, line.table_id,
                line.player_id, line.seat, line.points, line.kind, line.source,
                line.entered_by_id, p_at, n, line_prev, head, coalesce(line.seal, ''))
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
    if schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_TRIGGERS:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0010_journal_append_function"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="seal",
            field=models.CharField(blank=True, db_default="", default="", max_length=64),
        ),
        migrations.CreateModel(
            name="Checkpoint",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("length", models.PositiveBigIntegerField(verbose_name="journal lines")),
                ("head", models.CharField(max_length=64, verbose_name="journal head")),
                ("signed_at", models.DateTimeField(verbose_name="signed")),
                (
                    "reason",
                    models.CharField(
                        choices=[
                            ("interval", "Regular checkpoint"),
                            ("round", "End of a round"),
                            ("manual", "Signed by hand"),
                        ],
                        default="interval",
                        max_length=10,
                    ),
                ),
                ("key_id", models.CharField(max_length=16)),
                ("signature", models.CharField(max_length=128)),
                (
                    "club",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="checkpoints",
                        to="clubs.club",
                    ),
                ),
                (
                    "round",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="checkpoints",
                        to="clubs.round",
                    ),
                ),
            ],
            options={
                "verbose_name": "checkpoint",
                "verbose_name_plural": "checkpoints",
                "ordering": ["club", "-length"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("club", "length"), name="one_checkpoint_per_length"
                    )
                ],
            },
        ),
        migrations.RunPython(up, down),
    ]
