"""Idempotency keys scoped by their sender.

A result's stored key becomes ``services.sender_key`` of the login that entered it, its
source and the client's key, as new results store it: a retry of a request made before
this migration still finds its result, and another sender can no longer take the key.
"""

from django.apps.registry import Apps
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
import hashlib

from django.db import migrations


def scope_keys(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Result = apps.get_model("clubs", "Result")
    found = (
        Result.objects.filter(idempotency_key__isnull=False)
        .exclude(idempotency_key__startswith="k1:")
        .values_list("pk", "entered_by_id", "source", "idempotency_key")
    )
    for pk, user_id, source, key in found.iterator():
        scoped = f"{user_id}\x1f{source}\x1f{key}"
        stored = "k1:" + hashlib.sha256(scoped.encode("utf-8", "surrogatepass")).hexdigest()
        Result.objects.filter(pk=pk).update(idempotency_key=stored)


class Migration(migrations.Migration):
    dependencies = [("clubs", "0014_bots_and_referee_flag")]

    operations = [migrations.RunPython(scope_keys, migrations.RunPython.noop)]
