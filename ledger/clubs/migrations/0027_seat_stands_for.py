import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0026_tables_have_room_for_their_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="stands_for",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="clubs.player",
            ),
        ),
    ]
