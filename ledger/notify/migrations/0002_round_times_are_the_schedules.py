# A round's day, start and venue are the night's schedule (ledger/night, ScheduledRound):
# the calendars and the seat messages read them there, and this table goes.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("notify", "0001_initial"),
    ]

    operations = [
        migrations.DeleteModel(name="RoundTime"),
    ]
