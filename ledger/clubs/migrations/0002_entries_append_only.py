"""The database itself refuses to change or remove a journal entry.

The model layer already refuses; this guards against raw SQL, other programs and mistakes
in migrations. PostgreSQL gets a PL/pgSQL trigger, SQLite a pair of RAISE(ABORT) triggers.
"""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations

PG_UP = """
CREATE OR REPLACE FUNCTION clubs_entry_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'ledger entries are append-only: record a correction instead'
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER clubs_entry_no_update BEFORE UPDATE OR DELETE ON clubs_entry
    FOR EACH ROW EXECUTE FUNCTION clubs_entry_append_only();
"""
PG_DOWN = """
DROP TRIGGER IF EXISTS clubs_entry_no_update ON clubs_entry;
DROP FUNCTION IF EXISTS clubs_entry_append_only();
"""
SQLITE_UP = [
    """CREATE TRIGGER clubs_entry_no_update BEFORE UPDATE ON clubs_entry
       BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a correction instead'); END;""",
    """CREATE TRIGGER clubs_entry_no_delete BEFORE DELETE ON clubs_entry
       BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a correction instead'); END;""",
]
SQLITE_DOWN = [
    "DROP TRIGGER IF EXISTS clubs_entry_no_update;",
    "DROP TRIGGER IF EXISTS clubs_entry_no_delete;",
]


def up(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_UP)
    elif vendor == "sqlite":
        for statement in SQLITE_UP:
            schema_editor.execute(statement)


def down(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_DOWN)
    elif vendor == "sqlite":
        for statement in SQLITE_DOWN:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("clubs", "0001_initial")]
    operations = [migrations.RunPython(up, down)]
