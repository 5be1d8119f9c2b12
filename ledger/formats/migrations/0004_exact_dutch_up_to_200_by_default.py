from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations, models


def old_default_follows(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Settings left at the old default (80) take the new one."""
    FormatSettings = apps.get_model("formats", "FormatSettings")
    FormatSettings.objects.filter(exact_limit=80).update(exact_limit=200)


class Migration(migrations.Migration):

    dependencies = [
        ("formats", "0003_initial_side_and_a_wider_exact_dutch"),
    ]

    operations = [
        migrations.AlterField(
            model_name="formatsettings",
            name="exact_limit",
            field=models.PositiveSmallIntegerField(
                default=200,
                help_text="Swiss fields up to this size use the exact FIDE Dutch engine.",
                verbose_name="exact FIDE Dutch up to",
            ),
        ),
        migrations.RunPython(old_default_follows, migrations.RunPython.noop),
    ]
