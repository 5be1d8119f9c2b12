"""The write path builds the few model instances it reads from plain rows
(ledger/clubs/rows.py ``loaded``): each is what the ORM's ``from_db`` gives for the same
columns, its other fields deferred and read from the database when asked for."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models.signals import post_init

from ledger.clubs import rows, services
from ledger.clubs.models import Table


def state(instance: Any) -> tuple[Any, ...]:
    fields = {k: v for k, v in instance.__dict__.items() if k != "_state"}
    return (
        type(instance),
        fields,
        instance.get_deferred_fields(),
        instance._state.adding,
        instance._state.db,
    )


def test_an_instance_built_from_a_row_is_the_one_the_orm_loads(manual_table, people):
    # In the model's field order, as from_db expects them.
    for model, names in (
        (Table, ["id", "competition_id", "label"]),
        (type(people.users["scorekeeper"]), ["id", "is_superuser", "username"]),
    ):
        stored = model.objects.values_list(*names).first()
        built = rows.loaded(model, names, stored, connection.alias)
        assert state(built) == state(model.from_db(connection.alias, names, list(stored)))
        assert built.get_deferred_fields()
        assert built == model.objects.get(pk=stored[0])
    # A deferred field is read when asked for.
    table = rows.loaded(Table, ["id", "label"], [manual_table.pk, manual_table.label], "default")
    assert table.competition_id == manual_table.competition_id


def test_the_write_paths_table_is_the_orms(manual_table, people):
    user = people.users["scorekeeper"]
    table = services.table_for_write(manual_table.pk, user)
    assert table is not None
    assert table.pk == manual_table.pk and table.label == manual_table.label
    assert table.competition == manual_table.competition
    assert table.competition.club == manual_table.competition.club
    assert not table._state.adding


def test_listeners_for_new_instances_still_hear_of_them(manual_table):
    heard: list[Any] = []

    def listen(sender: Any, instance: Any, **kwargs: Any) -> None:
        heard.append(instance)

    post_init.connect(listen, sender=Table)
    try:
        row = [manual_table.pk, manual_table.label]
        built = rows.loaded(Table, ["id", "label"], row, "default")
    finally:
        post_init.disconnect(listen, sender=Table)
    assert heard == [built]
