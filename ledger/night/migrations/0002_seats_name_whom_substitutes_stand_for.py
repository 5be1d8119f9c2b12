"""Seats taken by a substitute before seats kept whom they stand for: each replacement, in
the order it was made, names the player the seat was drawn for."""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations


def forwards(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Replacement = apps.get_model("night", "Replacement")
    Seat = apps.get_model("clubs", "Seat")
    drawn: dict[int, dict[int, int]] = {}
    for table_id, replaced, substitute in Replacement.objects.order_by(
        "table_id", "at", "id"
    ).values_list("table_id", "replaced_id", "substitute_id"):
        of_table = drawn.setdefault(table_id, {})
        of_table[substitute] = of_table.get(replaced, replaced)
    for table_id, of_table in drawn.items():
        for seat in Seat.objects.filter(table_id=table_id):
            entrant = of_table.get(seat.player_id)
            if entrant is not None and entrant != seat.player_id:
                seat.stands_for_id = entrant
                seat.save(update_fields=["stands_for"])


class Migration(migrations.Migration):
    dependencies = [
        ("night", "0001_initial"),
        ("clubs", "0027_seat_stands_for"),
    ]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
