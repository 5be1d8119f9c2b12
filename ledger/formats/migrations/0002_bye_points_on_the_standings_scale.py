"""A bye's points are read on the competition's standings scale; empty means "a win".

The old default, 1, was a win on the 1/½/0 scale the tiebreak page used: it becomes empty
(a win on whatever scale the competition has). Any other value stays as the organiser set it."""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from decimal import Decimal

from django.db import migrations, models


def old_default_is_a_win(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    FormatSettings = apps.get_model("formats", "FormatSettings")
    FormatSettings.objects.filter(bye_points=Decimal(1)).update(bye_points=None)


def back(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    FormatSettings = apps.get_model("formats", "FormatSettings")
    FormatSettings.objects.filter(bye_points=None).update(bye_points=Decimal(1))


class Migration(migrations.Migration):
    dependencies = [("formats", "0001_initial")]

    operations = [
        migrations.AlterField(
            model_name="formatsettings",
            name="bye_points",
            field=models.DecimalField(
                blank=True,
                decimal_places=2,
                default=None,
                help_text="On the standings' points scale; empty: a bye is worth a win.",
                max_digits=4,
                null=True,
                verbose_name="points for a bye",
            ),
        ),
        migrations.RunPython(old_default_is_a_win, back),
    ]
