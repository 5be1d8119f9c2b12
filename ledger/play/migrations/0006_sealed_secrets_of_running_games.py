"""A running game's seed, deal and moves are kept sealed (ledger/play/sealing.py): the
tables still waiting or being played are sealed here, under the sealing key of the
environment (or the development key in var/). Reversed, they are opened back into the clear
columns, which needs the same key."""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations, models

RUNNING = ("waiting", "playing")


def seal_running(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from ledger.play import sealing

    GameTable = apps.get_model("play", "GameTable")
    Move = apps.get_model("play", "Move")
    for table in GameTable.objects.filter(status__in=RUNNING, sealed="").iterator():
        place = sealing.table_place(table.pk)
        table.sealed = sealing.seal({"seed": table.seed, "deal": table.deal}, place)
        table.seed, table.deal = None, None
        table.save(update_fields=["sealed", "seed", "deal"])
        for move in Move.objects.filter(table=table, sealed="").order_by("step"):
            move.sealed = sealing.seal(move.action, sealing.move_place(table.pk, move.step))
            move.action = None
            move.save(update_fields=["sealed", "action"])


def open_sealed(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from ledger.play import sealing

    GameTable = apps.get_model("play", "GameTable")
    Move = apps.get_model("play", "Move")
    for table in GameTable.objects.exclude(sealed="").iterator():
        opened = sealing.unseal(table.sealed, sealing.table_place(table.pk))
        table.seed, table.deal, table.sealed = opened["seed"], opened["deal"], ""
        table.save(update_fields=["sealed", "seed", "deal"])
    for move in Move.objects.exclude(sealed="").iterator():
        move.action = sealing.unseal(move.sealed, sealing.move_place(move.table_id, move.step))
        move.sealed = ""
        move.save(update_fields=["sealed", "action"])


class Migration(migrations.Migration):
    dependencies = [
        ("play", "0005_strong_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="gametable",
            name="sealed",
            field=models.TextField(blank=True, editable=False),
        ),
        migrations.AddField(
            model_name="move",
            name="sealed",
            field=models.TextField(blank=True, editable=False),
        ),
        migrations.AlterField(
            model_name="gametable",
            name="deal",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.AlterField(
            model_name="gametable",
            name="seed",
            field=models.BigIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AlterField(
            model_name="move",
            name="action",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(seal_running, open_sealed),
    ]
