"""Penalties: entries of their own in the journal; a table's seats that credit other points
(a substitute's). A journal line now names a result (and
its table) or a penalty. SQLite rebuilds the entry table to let those columns be empty, and
the rebuilt table has lost the append-only triggers of migration 0002: they are made again."""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


SQLITE_TRIGGERS = [
    "DROP TRIGGER IF EXISTS clubs_entry_no_update;",
    "DROP TRIGGER IF EXISTS clubs_entry_no_delete;",
    """CREATE TRIGGER clubs_entry_no_update BEFORE UPDATE ON clubs_entry
       BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a correction instead'); END;""",
    """CREATE TRIGGER clubs_entry_no_delete BEFORE DELETE ON clubs_entry
       BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only: record a correction instead'); END;""",
]


def triggers_again(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "sqlite":
        for statement in SQLITE_TRIGGERS:
            schema_editor.execute(statement)


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0012_api_tokens'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='seat_points',
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name='club',
            name='penalties_in_ratings',
            field=models.BooleanField(default=False, help_text="A penalty given at a table lowers the player's score in that table's hand when the ratings rank it.", verbose_name='penalties count in the ratings'),
        ),
        migrations.AlterField(
            model_name='entry',
            name='kind',
            field=models.CharField(choices=[('credit', 'Result'), ('reversal', 'Reversal'), ('penalty', 'Penalty'), ('cancel', 'Penalty cancelled')], default='credit', max_length=10),
        ),
        migrations.AlterField(
            model_name='entry',
            name='result',
            field=models.ForeignKey(db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='clubs.result'),
        ),
        migrations.AlterField(
            model_name='entry',
            name='table',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='clubs.table'),
        ),
        migrations.CreateModel(
            name='Penalty',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('points', models.DecimalField(decimal_places=2, max_digits=10, verbose_name='points')),
                ('reason', models.CharField(max_length=200, verbose_name='reason')),
                ('given_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('cancelled_at', models.DateTimeField(blank=True, null=True)),
                ('cancel_reason', models.CharField(blank=True, max_length=200, verbose_name='why it was cancelled')),
                ('cancelled_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='penalties', to='clubs.club')),
                ('competition', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='penalties', to='clubs.competition')),
                ('given_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='penalties', to='clubs.player')),
                ('round', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='penalties', to='clubs.round')),
                ('table', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='penalties', to='clubs.table')),
            ],
            options={
                'verbose_name': 'penalty',
                'verbose_name_plural': 'penalties',
                'ordering': ['-given_at', '-id'],
            },
        ),
        migrations.AddField(
            model_name='entry',
            name='penalty',
            field=models.ForeignKey(db_index=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='clubs.penalty'),
        ),
        migrations.AddConstraint(
            model_name='entry',
            constraint=models.UniqueConstraint(condition=models.Q(('penalty__isnull', False)), fields=('penalty', 'kind'), name='one_entry_per_penalty_and_kind'),
        ),
        migrations.RunPython(triggers_again, migrations.RunPython.noop),
    ]
