"""Foreign keys of the write path's tables lose the index of their own where another index
already starts with the same column: each index costs on every recorded result.

On SQLite, altering a field rebuilds the table and drops its triggers: the journal's
append-only triggers (0002) are created again after, either way.
"""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
import importlib

import django.db.models.deletion
from django.db import migrations, models

append_only = importlib.import_module("ledger.clubs.migrations.0002_entries_append_only")


def restore_sqlite_triggers(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "sqlite":
        for statement in append_only.SQLITE_DOWN + append_only.SQLITE_UP:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0008_standings_outcomes_and_settings"),
    ]

    operations = [
        # Undone last when the migration is reversed, after the tables were rebuilt.
        migrations.RunPython(migrations.RunPython.noop, restore_sqlite_triggers),
        migrations.AlterField(
            model_name="entry",
            name="club",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to="clubs.club",
            ),
        ),
        migrations.AlterField(
            model_name="entry",
            name="competition",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to="clubs.competition",
            ),
        ),
        migrations.AlterField(
            model_name="entry",
            name="player",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to="clubs.player",
            ),
        ),
        migrations.AlterField(
            model_name="entry",
            name="result",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to="clubs.result",
            ),
        ),
        migrations.AlterField(
            model_name="rating",
            name="club",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="ratings",
                to="clubs.club",
            ),
        ),
        migrations.AlterField(
            model_name="ratingchange",
            name="player",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="rating_changes",
                to="clubs.player",
            ),
        ),
        migrations.AlterField(
            model_name="result",
            name="competition",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="results",
                to="clubs.competition",
            ),
        ),
        migrations.AlterField(
            model_name="standing",
            name="competition",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="standings",
                to="clubs.competition",
            ),
        ),
        migrations.RunPython(restore_sqlite_triggers, migrations.RunPython.noop),
    ]
