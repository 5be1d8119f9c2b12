# A round's time is kept by the competition and the round's number, so that a round can be
# planned before it is drawn (a Round row made ahead would move the draw's next number).
# Nothing was planned yet when this was written: the table is made again.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0031_clubs_keep_their_earlier_keys"),
        ("notify", "0001_initial"),
    ]

    operations = [
        migrations.DeleteModel(name="RoundTime"),
        migrations.CreateModel(
            name="RoundTime",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("number", models.PositiveIntegerField(verbose_name="round")),
                ("starts_at", models.DateTimeField(verbose_name="starts at")),
                ("minutes", models.PositiveSmallIntegerField(default=60, verbose_name="minutes")),
                (
                    "competition",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="round_times",
                        to="clubs.competition",
                    ),
                ),
            ],
            options={
                "ordering": ["competition", "number"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("competition", "number"), name="one_time_per_round"
                    )
                ],
            },
        ),
    ]
