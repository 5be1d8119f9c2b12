"""A club brought from another installation keeps that installation's public key, so that
``verify_ledger`` checks the checkpoints it signed there without being told the key, and the
club's feed publishes it beside this installation's."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0030_seals_bind_their_place"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="earlier_keys",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
    ]
