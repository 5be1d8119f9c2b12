from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db import migrations
from django.db.models import Case, F, Value, When


def give_room(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Every table of a competition with format settings gets their room (as
    ledger/formats/capacity.py computes it); a table already holding more keeps it."""
    FormatSettings = apps.get_model("formats", "FormatSettings")
    Table = apps.get_model("clubs", "Table")
    for fs in FormatSettings.objects.select_related("competition"):
        games = max(int(fs.hands_per_table), 1)
        if fs.competition.format == "knockout":
            games *= max(int(fs.best_of), 1)
        Table.objects.filter(competition_id=fs.competition_id).update(
            capacity=Case(When(games__gt=games, then=F("games")), default=Value(games))
        )


class Migration(migrations.Migration):
    dependencies = [
        ("formats", "0004_exact_dutch_up_to_200_by_default"),
        ("clubs", "0026_tables_have_room_for_their_games"),
    ]

    operations = [migrations.RunPython(give_room, migrations.RunPython.noop)]
